package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testkit.EventStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Backpressure on a live {@code POST /v1/messages} stream: the model server's Responses stream goes through
 * {@code MessagesRoute}'s bounded relay queue to a real socket, so a reader that stops reading stops the source
 * (until the write deadline cuts it off and cancels it) and a slow reader that keeps reading gets every event
 * with the source never far ahead. The source ({@link ManyDeltasModel}) produces far more than the socket
 * buffers and the queue hold, and counts what it produced. The event order is NeMo Gym's
 * (nemo_gym/anthropic_converter.py, {@code anthropic_response_to_sse}); NeMo Gym relays a stream as it arrives
 * (responses_api_models/openai_model/app.py) and states no bound, so the bound is ours.
 */
class MessagesBackpressureTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int DELTA_CHARS = 1000;
  /**
   * The most that may sit between the source and a reader: the server socket's send buffer (at most
   * net.ipv4.tcp_wmem's 4 MiB by default), the reader's 16 KiB receive buffer, Helidon's write buffer and the
   * relay's 64 events, with room to spare; an unbounded relay would hold the whole answer.
   */
  private static final long BOUND_BYTES = 16L * 1024 * 1024;
  private static final String REQUEST = """
      {"model": "claude-x", "max_tokens": 64, "stream": true, "messages": [{"role": "user", "content": "count"}]}""";

  @TempDir
  Path dir;
  ModelHarness model;

  @BeforeEach
  void reset() {
    ManyDeltasModel.reset();
  }

  @AfterEach
  void stop() {
    if (model != null) {
      model.close();
    }
  }

  private void serve(int deltas, int writeDeadlineSeconds) {
    model = new ModelHarness(dir, "test_many_deltas", """
        delta_count: %d
        delta_chars: %d
        http_body_timeout_seconds: %d
        """.formatted(deltas, DELTA_CHARS, writeDeadlineSeconds));
  }

  /** A connection with a small receive buffer that has sent a streamed /v1/messages request. */
  private Socket request() throws IOException {
    Socket socket = new Socket();
    socket.setReceiveBufferSize(16 * 1024); // before connecting, so that the window stays small
    socket.connect(new java.net.InetSocketAddress("127.0.0.1", model.url().getPort()));
    byte[] body = REQUEST.getBytes(StandardCharsets.UTF_8);
    socket.getOutputStream().write(("POST /v1/messages HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
        + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().write(body);
    socket.getOutputStream().flush();
    return socket;
  }

  @Test
  void aReaderThatStopsReadingBlocksTheSourceUntilTheWriteDeadlineCancelsIt() throws Exception {
    int total = 128 * 1024; // 128 MiB of text: only a reader that reads lets the source get far
    serve(total, 2);
    try (Socket socket = request()) {
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      byte[] some = new byte[4096];
      // read a little, slowly, then nothing
      for (int i = 0; i < 5; i++) {
        int n = in.read(some);
        assertThat(n).isPositive();
        head.write(some, 0, n);
        Thread.sleep(50);
      }
      assertThat(head.toString(StandardCharsets.UTF_8)).startsWith("HTTP/1.1 200").contains("event: message_start")
          .contains("event: content_block_delta");

      Throwable failure = ManyDeltasModel.ended.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      long produced = ManyDeltasModel.PRODUCED.get();
      assertThat(produced * DELTA_CHARS).as("what left the source for a reader that stopped")
          .isLessThan(BOUND_BYTES);
      assertThat(failure).as("the source was still waiting for the reader when the write deadline cancelled it")
          .isInstanceOf(InterruptedIOException.class);

      // the server ended the connection: what its socket still held, then the end
      socket.setSoTimeout((int) WAIT.toMillis());
      long rest = 0;
      try {
        for (int n; (n = in.read(some)) >= 0; ) {
          rest += n;
        }
      } catch (SocketException reset) {
        // a reset ends it as well
      }
      assertThat(head.size() + rest).as("bytes the reader could get").isLessThan(BOUND_BYTES);
      assertThat(ManyDeltasModel.PRODUCED.get()).as("nothing produced after the source was cancelled")
          .isEqualTo(produced);
    }
  }

  @Test
  void aSlowReaderThatKeepsReadingGetsEveryEventAndTheWholeMessage() throws Exception {
    int total = 48 * 1024; // 48 MiB of text, ten times what the socket buffers and the queue hold
    serve(total, 30);
    List<EventStreamReader.Event> events = new ArrayList<>();
    long[] deltas = {0};
    long[] mostAhead = {0};
    try (Socket socket = request()) {
      InputStream body = new ChunkedBody(new BufferedInputStream(socket.getInputStream(), 8192));
      ServerSentEvents.read(body, 1 << 20, WAIT, event -> {
        JsonNode data = event.json();
        events.add(new EventStreamReader.Event(event.name(), data));
        if ("content_block_delta".equals(event.name())) {
          deltas[0]++;
          mostAhead[0] = Math.max(mostAhead[0], ManyDeltasModel.PRODUCED.get() - deltas[0]);
          if (deltas[0] % 8 == 0) {
            LockSupport.parkNanos(1_000_000); // slower than the source: it has to wait for us
          }
        }
        return true;
      });
    }
    assertThat(ManyDeltasModel.ended.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the source sent everything").isNull();
    assertThat(ManyDeltasModel.PRODUCED.get()).isEqualTo(total);
    assertThat(mostAhead[0] * DELTA_CHARS).as("how far the source got ahead of the reader").isLessThan(BOUND_BYTES);

    assertThat(deltas[0]).isEqualTo(total);
    List<String> names = events.stream().map(EventStreamReader.Event::name).filter(name -> !name.equals("ping"))
        .distinct().toList();
    assertThat(names).containsExactly("message_start", "content_block_start", "content_block_delta",
        "content_block_stop", "message_delta", "message_stop");
    assertThat(events.getLast().name()).isEqualTo("message_stop");
    var message = EventStreamReader.anthropicMessage(events);
    assertThat(message.get("content")).hasSize(1);
    String text = message.get("content").get(0).get("text").asString();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < total; i++) {
      expected.append(ManyDeltasModel.delta(i, DELTA_CHARS));
    }
    assertThat(text.length()).isEqualTo(expected.length());
    assertThat(text.contentEquals(expected)).as("the text is every delta, in order").isTrue();
    assertThat(message.get("stop_reason").asString()).isEqualTo("end_turn");
    assertThat(message.get("usage").get("output_tokens").asInt()).isEqualTo(total);
    assertThat(message.get("model").asString()).isEqualTo("claude-x");
  }

  /** The body of an HTTP/1.1 answer read off a socket: status line and headers skipped, chunks joined. */
  private static final class ChunkedBody extends InputStream {
    private final InputStream in;
    private long left;
    private boolean done;

    ChunkedBody(InputStream in) throws IOException {
      this.in = in;
      String status = line();
      if (!status.startsWith("HTTP/1.1 200")) {
        throw new IOException("not a 200: " + status);
      }
      boolean chunked = false;
      for (String header; !(header = line()).isEmpty(); ) {
        chunked |= header.equalsIgnoreCase("transfer-encoding: chunked");
      }
      if (!chunked) {
        throw new IOException("the answer is not chunked");
      }
    }

    private String line() throws IOException {
      StringBuilder line = new StringBuilder();
      for (int b; (b = in.read()) != '\n'; ) {
        if (b < 0) {
          throw new IOException("the connection ended inside a line");
        }
        line.append((char) b);
      }
      return line.toString().strip();
    }

    /** Whether body bytes are left, reading the next chunk's size when the last one is used up. */
    private boolean more() throws IOException {
      if (done) {
        return false;
      }
      if (left == 0) {
        String size = line();
        if (size.isEmpty()) { // the line break that ends the previous chunk
          size = line();
        }
        left = Long.parseLong(size.split(";")[0], 16);
        if (left == 0) {
          done = true;
          return false;
        }
      }
      return true;
    }

    @Override
    public int read() throws IOException {
      if (!more()) {
        return -1;
      }
      left--;
      return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      if (!more()) {
        return -1;
      }
      int n = in.read(buffer, offset, (int) Math.min(length, left));
      if (n < 0) {
        throw new IOException("the connection ended inside a chunk");
      }
      left -= n;
      return n;
    }
  }
}
