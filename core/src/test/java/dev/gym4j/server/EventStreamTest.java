package dev.gym4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An event stream over real sockets: its framing, a slow reader holding the source back, and the write deadline. */
class EventStreamTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String EVENT_TEXT = "x".repeat(16 * 1024);
  private final AtomicLong sent = new AtomicLong();
  private final CountDownLatch failed = new CountDownLatch(1);
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private WebServer server;

  @BeforeEach
  void start() {
    server = ServerHost.serve("streaming", "127.0.0.1", 0, HttpLimits.defaults(), "Streaming___test", routes -> routes
        .post("/three", call -> EventStream.stream(sink -> {
          for (int i = 0; i < 3; i++) {
            sink.send("tick", dev.gym4j.json.Json.object().put("n", i).put("text", "line\nbreak"));
          }
        }))
        .post("/endless", call -> EventStream.stream(this::endless, Duration.ofSeconds(2))));
  }

  private void endless(EventStream.Sink sink) {
    try {
      while (true) {
        sink.send("chunk", Map.of("text", EVENT_TEXT));
        sent.incrementAndGet();
      }
    } catch (IOException e) {
      failure.set(e);
      failed.countDown();
    }
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  @Test
  void eventsArriveInOrderOneJsonLineEach() throws Exception {
    try (var client = java.net.http.HttpClient.newHttpClient()) {
      var reply = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
          + server.port() + "/three")).POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(reply.statusCode()).isEqualTo(200);
      assertThat(reply.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
      assertThat(reply.body()).isEqualTo("""
          event: tick
          data: {"n":0,"text":"line\\nbreak"}

          event: tick
          data: {"n":1,"text":"line\\nbreak"}

          event: tick
          data: {"n":2,"text":"line\\nbreak"}

          """);
    }
  }

  @Test
  void aReaderThatTakesNothingHoldsTheSourceBackThenEndsItAtTheDeadline() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setReceiveBufferSize(4096);
      socket.getOutputStream().write("POST /endless HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      in.readNBytes(1);
      // the source stops at what the socket buffers hold: it never runs ahead of the reader
      assertThat(failed.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the write deadline ended the stream").isTrue();
      assertThat(failure.get()).hasMessageContaining("took nothing");
      long bytes = sent.get() * EVENT_TEXT.length();
      assertThat(bytes).as("bytes the source got out before it was held back").isLessThan(64L * 1024 * 1024);
    }
  }

  @Test
  void aReaderThatLeavesEndsTheSource() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write("POST /endless HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}"
          .getBytes(StandardCharsets.US_ASCII));
      socket.getInputStream().readNBytes(1024);
    }
    assertThat(failed.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the source saw the reader leave").isTrue();
  }
}
