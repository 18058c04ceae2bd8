package dev.gym4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Server-sent events over real sockets: what a source sends is what a reader gets, a reader that stops
 * reading stops the source (bounded memory) until the write deadline closes the connection, and reading
 * is bounded in size and time. Event framing as in NeMo Gym's streaming clients (nemo_gym/openai_utils.py
 * reads upstream SSE with the same data:/event: fields).
 */
class ServerSentEventsTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final int EVENT_BYTES = 1024;
  private final AtomicLong sent = new AtomicLong();
  private final CompletableFuture<Throwable> ended = new CompletableFuture<>();
  private WebServer server;

  private void serve(Duration writeDeadline) {
    HttpLimits limits = new HttpLimits(HttpLimits.DEFAULT_MAX_BODY_BYTES, 0, Duration.ofSeconds(30), writeDeadline,
        Duration.ofSeconds(300), List.of());
    String padding = "x".repeat(EVENT_BYTES);
    server = ServerHost.serve("sse", "127.0.0.1", 0, limits, "Sse___test", routes -> routes
        .post("/few", call -> ServerSentEvents.stream(sink -> {
          sink.send("greeting", Map.of("text", "hello"));
          sink.sendText(null, "two\nlines");
          sink.sendText(null, "[DONE]");
        }))
        .post("/endless", call -> ServerSentEvents.stream(sink -> {
          try {
            // a gigabyte: far more than any socket buffer, so only a reader that reads lets this finish
            for (int i = 0; i < 1_000_000; i++) {
              sink.sendText("pad", padding);
              sent.incrementAndGet();
            }
            ended.complete(null);
          } catch (IOException e) {
            ended.complete(e);
            throw e;
          }
        })));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  void events_written_by_a_source_are_read_back_in_order() throws Exception {
    serve(Duration.ofSeconds(30));
    try (HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + server.port() + "/few")).POST(HttpRequest.BodyPublishers.ofString("{}"))
          .build(), HttpResponse.BodyHandlers.ofInputStream());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("content-type")).hasValueSatisfying(
          type -> assertThat(type).startsWith("text/event-stream"));
      List<ServerSentEvents.Event> events = new ArrayList<>();
      try (InputStream in = response.body()) {
        ServerSentEvents.read(in, 1 << 20, WAIT, events::add);
      }
      assertThat(events).containsExactly(new ServerSentEvents.Event("greeting", "{\"text\":\"hello\"}"),
          new ServerSentEvents.Event(null, "two\nlines"), new ServerSentEvents.Event(null, "[DONE]"));
    }
  }

  @Test
  void a_stream_collected_in_memory_reads_back_as_the_same_events_issue_24() throws Exception {
    // the in-process path: the events go to a buffer, framed as on a socket
    RawBody body = ServerSentEvents.collect(ServerSentEvents.stream(sink -> {
      sink.send("greeting", Map.of("text", "hello"));
      sink.sendText(null, "two\r\nlines");
      sink.sendText("bad\nname", "[DONE]");
    }));
    assertThat(body.contentType()).startsWith("text/event-stream");
    List<ServerSentEvents.Event> events = new ArrayList<>();
    ServerSentEvents.read(new ByteArrayInputStream(body.bytes()), 1 << 20, WAIT, events::add);
    assertThat(events).containsExactly(new ServerSentEvents.Event("greeting", "{\"text\":\"hello\"}"),
        new ServerSentEvents.Event(null, "two\nlines"), new ServerSentEvents.Event("badname", "[DONE]"));
  }

  @Test
  void a_reader_that_stops_reading_stops_the_source_and_is_cut_off_at_the_write_deadline() throws Exception {
    serve(Duration.ofSeconds(2));
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setReceiveBufferSize(16 * 1024);
      socket.getOutputStream().write("POST /endless HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"
          .getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      // read a little, slowly, then nothing: the source must block rather than buffer the gigabyte
      InputStream in = socket.getInputStream();
      byte[] some = new byte[4096];
      for (int i = 0; i < 5; i++) {
        assertThat(in.read(some)).isPositive();
        Thread.sleep(50);
      }
      Throwable failure = ended.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(failure).as("the source was stopped by the stalled reader").isInstanceOf(IOException.class);
      // what left the source is at most what the socket buffers and Helidon's one write buffer hold
      assertThat(sent.get() * EVENT_BYTES).isLessThan(64L * 1024 * 1024);
    }
  }

  @Test
  void a_slow_reader_that_keeps_reading_gets_every_event() throws Exception {
    serve(Duration.ofSeconds(30));
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write("POST /endless HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"
          .getBytes(StandardCharsets.ISO_8859_1));
      InputStream in = socket.getInputStream();
      byte[] chunk = new byte[64 * 1024];
      long read = 0;
      // reading 8 MiB in small sips: the source keeps pace with the reader, never far ahead
      while (read < 8L * 1024 * 1024) {
        int n = in.read(chunk, 0, 8192);
        assertThat(n).isPositive();
        read += n;
        assertThat(sent.get() * EVENT_BYTES - read).as("sent ahead of the reader").isLessThan(64L * 1024 * 1024);
      }
      assertThat(ended).isNotDone();
    }
  }

  @Test
  void an_event_over_the_size_limit_fails_the_read() {
    byte[] big = ("data: " + "y".repeat(5000) + "\n\n").getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> ServerSentEvents.read(new ByteArrayInputStream(big), 4096, WAIT, event -> true))
        .isInstanceOf(IOException.class).hasMessageContaining("longer than 4096 bytes");
  }

  @Test
  void a_silent_upstream_fails_the_read_at_the_idle_deadline() throws Exception {
    try (PipedOutputStream writer = new PipedOutputStream(); PipedInputStream in = new PipedInputStream(writer)) {
      writer.write("data: first\n\n".getBytes(StandardCharsets.UTF_8));
      List<String> got = new ArrayList<>();
      assertThatThrownBy(() -> ServerSentEvents.read(in, 4096, Duration.ofMillis(300), event -> got.add(event.data())))
          .isInstanceOf(InterruptedIOException.class);
      assertThat(got).containsExactly("first");
      assertThat(Thread.interrupted()).as("no interrupt is left behind").isFalse();
    }
  }

  @Test
  void a_reader_may_stop_early_and_comments_and_ids_are_skipped() throws Exception {
    byte[] text = ": keep-alive\nid: 1\nevent: a\ndata: 1\n\ndata: 2\n\ndata: 3\n\n".getBytes(StandardCharsets.UTF_8);
    List<ServerSentEvents.Event> got = new ArrayList<>();
    ServerSentEvents.read(new ByteArrayInputStream(text), 4096, WAIT, event -> got.add(event) && got.size() < 2);
    assertThat(got).containsExactly(new ServerSentEvents.Event("a", "1"), new ServerSentEvents.Event(null, "2"));
  }
}
