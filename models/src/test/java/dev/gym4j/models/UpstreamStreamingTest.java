package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * openai_model with {@code stream: true}: the upstream's events reach our caller as they arrive (the upstream
 * holds back the rest of its stream until our caller has seen the first delta), token ids and all; an upstream
 * that refuses keeps its HTTP status, one that breaks mid-stream ends with an error event. NeMo Gym passes the
 * upstream's stream through in responses_api_models/openai_model/app.py.
 */
class UpstreamStreamingTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String ITEM = """
      {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
       "content": [{"type": "output_text", "text": "Hello.", "annotations": []}],
       "generation_token_ids": [5, 6], "generation_log_probs": [-0.1, -0.2], "prompt_token_ids": [1]}""";

  @TempDir
  Path dir;
  HttpServer upstream;
  ModelHarness model;
  final CountDownLatch callerSawDelta = new CountDownLatch(1);
  final AtomicBoolean restSent = new AtomicBoolean();
  final AtomicReference<String> received = new AtomicReference<>();
  volatile boolean breakMidStream;
  volatile int status = 200;
  /** Closed after each test: closing waits for the exchanges it carries, streams included. */
  final HttpClient client = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    upstream.createContext("/v1/responses", exchange -> {
      received.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      if (status != 200) {
        exchange.sendResponseHeaders(status, 0);
        exchange.getResponseBody().write("{\"error\": {\"message\": \"bad key\"}}".getBytes());
        exchange.close();
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      String head = "{\"id\": \"resp_1\", \"object\": \"response\", \"created_at\": 1, \"model\": \"gpt\", \"output\": []";
      event(out, "response.created", "{\"type\": \"response.created\", \"sequence_number\": 0, \"response\": " + head
          + ", \"status\": \"in_progress\"}}");
      event(out, "response.output_text.delta", "{\"type\": \"response.output_text.delta\", \"sequence_number\": 1,"
          + " \"item_id\": \"msg_1\", \"output_index\": 0, \"content_index\": 0, \"delta\": \"Hello.\", \"logprobs\": []}");
      try {
        callerSawDelta.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      restSent.set(true);
      if (breakMidStream) {
        out.write("data: {not json\n\n".getBytes(StandardCharsets.UTF_8));
        exchange.close();
        return;
      }
      event(out, "response.output_item.done", "{\"type\": \"response.output_item.done\", \"sequence_number\": 2,"
          + " \"output_index\": 0, \"item\": " + ITEM + "}");
      event(out, "response.completed", "{\"type\": \"response.completed\", \"sequence_number\": 3, \"response\": "
          + head.replace("\"output\": []", "\"output\": [" + ITEM + "]") + ", \"status\": \"completed\"}}");
      exchange.close();
    });
    upstream.start();
    model = new ModelHarness(dir, "openai_model", """
        openai_base_url: http://127.0.0.1:%d/v1
        openai_api_key: sk-live-123
        openai_model: gpt
        """.formatted(upstream.getAddress().getPort()));
  }

  @AfterEach
  void stop() {
    callerSawDelta.countDown();
    client.shutdownNow();
    model.close();
    upstream.stop(0);
  }

  private static void event(OutputStream out, String name, String data) throws IOException {
    out.write(("event: " + name + "\ndata: " + Json.write(Json.parse(data.getBytes())) + "\n\n")
        .getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private HttpResponse<InputStream> post() throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(model.url() + "/v1/responses"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"input\": \"hi\", \"stream\": true}")).build(),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  private List<JsonNode> read(HttpResponse<InputStream> response) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    List<Boolean> restSentWhenDeltaArrived = new ArrayList<>();
    try (InputStream in = response.body()) {
      ServerSentEvents.read(in, 1 << 20, WAIT, event -> {
        JsonNode json = event.json();
        events.add(json);
        if (json.path("type").asString().equals("response.output_text.delta")) {
          restSentWhenDeltaArrived.add(restSent.get());
          callerSawDelta.countDown();
        }
        return true;
      });
    }
    assertThat(restSentWhenDeltaArrived).as("the delta came before the upstream sent the rest").containsExactly(false);
    return events;
  }

  @Test
  void eventsArePassedOnAsTheyArriveWithTokenIds() throws Exception {
    HttpResponse<InputStream> response = post();
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> events = read(response);
    assertThat(events).extracting(event -> event.path("type").asString()).containsExactly("response.created",
        "response.output_text.delta", "response.output_item.done", "response.completed");
    JsonNode item = events.get(3).path("response").path("output").get(0);
    assertThat(item.path("generation_token_ids").toString()).isEqualTo("[5,6]");
    assertThat(item.path("content").get(0).path("logprobs").isArray()).as("made schema-valid").isTrue();
    assertThat(Json.parse(received.get().getBytes()).path("stream").asBoolean()).isTrue();
    assertThat(Json.parse(received.get().getBytes()).path("model").asString()).isEqualTo("gpt");
  }

  @Test
  void anUpstreamThatRefusesKeepsItsStatusAndOpenAIsErrorBody() throws Exception {
    status = 401;
    HttpResponse<InputStream> response = post();
    assertThat(response.statusCode()).isEqualTo(502);
    JsonNode body = Json.parse(response.body().readAllBytes());
    assertThat(body.path("error").path("message").asString()).contains("401").contains("bad key");
    assertThat(body.path("error").path("type").asString()).isEqualTo("server_error");
    assertThat(body.toString()).doesNotContain("sk-live-123");
  }

  @Test
  void anUpstreamThatBreaksMidStreamEndsTheStreamWithAnErrorEvent() throws Exception {
    breakMidStream = true;
    List<JsonNode> events = read(post());
    assertThat(events).extracting(event -> event.path("type").asString()).containsExactly("response.created",
        "response.output_text.delta", "error");
    assertThat(events.getLast().path("code").asString()).isEqualTo("upstream_error");
    assertThat(events.getLast().path("sequence_number").asLong()).isEqualTo(2);
  }
}
