package dev.gym4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Refusals on a real server, over raw sockets where a client library would not send the bytes (issue 31, defects 5
 * and 6): a body whose chunk data is not followed by CRLF is a 400 that closes the connection, so the bytes after
 * it are never read as a request; a request Helidon's parser chokes on is a 400, never a 500; a handler out of
 * memory is a 503; no body names a Java type and no refusal writes a stack trace to the log.
 */
class Http1FramingTest {
  private static final Duration PATIENCE = Duration.ofSeconds(10); // the server closes long before: a bound, not a wait
  private static final String BODY = "{\"responses_create_\":1}"; // 0x17 = 23 bytes
  private final AtomicInteger posts = new AtomicInteger();
  private final AtomicInteger metrics = new AtomicInteger();
  private WebServer server;
  /** Log events with a stack trace, from Helidon (its level lowered for the test) or anyone else. */
  private final java.util.List<String> stackTraces = new java.util.concurrent.CopyOnWriteArrayList<>();
  private ch.qos.logback.core.AppenderBase<ch.qos.logback.classic.spi.ILoggingEvent> appender;
  private ch.qos.logback.classic.Level helidonLevel;

  @BeforeEach
  void start() {
    var helidon = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("io.helidon");
    helidonLevel = helidon.getLevel();
    helidon.setLevel(ch.qos.logback.classic.Level.WARN);
    var root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    appender = new ch.qos.logback.core.AppenderBase<>() {
      @Override
      protected void append(ch.qos.logback.classic.spi.ILoggingEvent event) {
        if (event.getThrowableProxy() != null) {
          stackTraces.add(event.getLoggerName() + ": " + event.getFormattedMessage());
        }
      }
    };
    appender.setContext(root.getLoggerContext());
    appender.start();
    root.addAppender(appender);
    server = ServerHost.serve("framing", "127.0.0.1", 0, HttpLimits.defaults(), "Framing___f", routes -> routes
        .post("/count", call -> Map.of("count", posts.incrementAndGet(), "fields", call.body().size()))
        .get("/probe", call -> Map.of("probed", metrics.incrementAndGet())));
  }

  @AfterEach
  void stop() {
    server.stop();
    var root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.detachAppender(appender);
    ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("io.helidon")).setLevel(helidonLevel);
  }

  private RawHttp connect() {
    return new RawHttp(server.port(), PATIENCE);
  }

  @Test
  void chunk_data_not_followed_by_crlf_is_a_400_and_the_smuggled_request_is_never_answered_issue_31() {
    assertThat(BODY).hasSize(0x17);
    try (RawHttp http = connect()) {
      String answer = http.send("POST /count HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "17\r\n" + BODY + "XX0\r\n\r\n"
          + "GET /probe HTTP/1.1\r\nHost: localhost\r\n\r\n").readAll();
      assertThat(RawHttp.statuses(answer)).containsExactly(400);
      assertThat(answer).contains("could not be read").doesNotContain("probed");
      assertThat(http.closedByServer()).isTrue();
    }
    assertThat(posts).hasValue(0);
    assertThat(metrics).hasValue(0);
  }

  @Test
  void a_malformed_chunk_on_a_route_that_reads_no_body_still_closes_the_connection_issue_31() {
    try (RawHttp http = connect()) {
      String answer = http.send("GET /probe HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "2\r\n{}XX0\r\n\r\n"
          + "GET /probe HTTP/1.1\r\nHost: localhost\r\n\r\n").readAll();
      assertThat(RawHttp.statuses(answer)).containsExactly(400);
      assertThat(http.closedByServer()).isTrue();
    }
    assertThat(metrics).hasValue(0);
  }

  @Test
  void well_framed_chunks_of_every_size_still_read_whole_and_keep_the_connection() {
    // two-byte chunks are the case a CRLF check on every two-byte skip would get wrong
    try (RawHttp http = connect()) {
      String answer = http.send("POST /count HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "2\r\n{\"\r\n1\r\na\r\n4\r\n\":1}\r\n0\r\n\r\n"
          + "POST /count HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
          .readUntilResponse();
      assertThat(RawHttp.statuses(answer)).containsExactly(200);
      assertThat(answer).contains("\"fields\":1");
      assertThat(RawHttp.statuses(http.readUntilResponse())).containsExactly(200);
    }
    assertThat(posts).hasValue(2);
  }

  @Test
  void a_method_that_is_not_a_token_is_a_400_issue_31() {
    try (RawHttp http = connect()) {
      String answer = http.send("G@T / HTTP/1.1\r\nHost: localhost\r\n\r\n").readAll();
      assertThat(RawHttp.statuses(answer)).containsExactly(400);
      assertThat(answer).doesNotContain("Exception", "java.");
    }
    // on a kept connection too, where Helidon alone reads the request line (not pipelined: a byte seen while the
    // first request runs closes the connection after it, see CallerWatch)
    try (RawHttp http = connect()) {
      assertThat(RawHttp.statuses(http.send("GET /probe HTTP/1.1\r\nHost: localhost\r\n\r\n").readUntilResponse()))
          .containsExactly(200);
      String answer = http.send("G@T / HTTP/1.1\r\nHost: localhost\r\n\r\n").readAll();
      assertThat(RawHttp.statuses(answer)).containsExactly(400);
      assertThat(answer).doesNotContain("Exception", "java.");
      assertThat(http.closedByServer()).isTrue();
    }
    assertThat(stackTraces).isEmpty();
  }

  @Test
  void an_http2_settings_header_that_is_not_base64url_is_a_400_issue_31() {
    try (RawHttp http = connect()) {
      String answer = http.send("GET /probe HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
          + "Upgrade: h2c\r\nHTTP2-Settings: !!not*base64!!\r\n\r\n").readAll();
      assertThat(RawHttp.statuses(answer)).containsExactly(400);
      assertThat(answer).doesNotContain("Exception", "java.");
    }
    assertThat(stackTraces).isEmpty();
  }

  /** Issue 31, defect 6: a handler that runs out of memory is a 503 naming no Java type, without a stack trace. */
  @Test
  void out_of_memory_in_a_handler_is_a_503_naming_no_java_type_issue_31() throws Exception {
    WebServer full = ServerHost.serve("full", "127.0.0.1", 0, HttpLimits.defaults(), "Full___f", routes -> routes
        .post("/grow", call -> {
          throw new OutOfMemoryError("Java heap space");
        }));
    try {
      var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("http://127.0.0.1:" + full.port() + "/grow")).POST(
          java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.body()).contains("out of memory").doesNotContain("java.", "Error");
      assertThat(response.headers().firstValue("Retry-After")).isPresent();
    } finally {
      full.stop();
    }
    assertThat(stackTraces).isEmpty();
  }

  /** Issue 31, defect 6: a validation message made from a Jackson exception names JSON's types, not Java's. */
  @Test
  void a_validation_error_from_jackson_names_no_java_type_issue_31() throws Exception {
    record Args(java.util.List<tools.jackson.databind.JsonNode> items, long count) {}
    WebServer strict = ServerHost.serve("strict", "127.0.0.1", 0, HttpLimits.defaults(), "Strict___s", routes -> routes
        .post("/bind", call -> {
          try {
            return dev.gym4j.json.Json.convert(call.body(), Args.class);
          } catch (tools.jackson.core.JacksonException e) {
            // as a tool's arguments are bound (ToolMethod): Jackson's own words, which name Java types
            throw new dev.gym4j.json.FieldError(java.util.List.of("items"), "invalid value: " + e.getOriginalMessage(),
                "type_error");
          }
        }));
    try {
      for (String body : new String[] {"{\"items\": {\"a\": 1}, \"count\": 1}", "{\"items\": [], \"count\": {}}"}) {
        var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + strict.port() + "/bind")).POST(
            java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(body).isEqualTo(422);
        assertThat(response.body()).as(body).contains("\"items\"").doesNotContainPattern(
            "\\b(java|tools\\.jackson)\\.[a-z]|`long`|JsonNode|ArrayList");
      }
    } finally {
      strict.stop();
    }
  }
}
