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

import com.sun.net.httpserver.HttpServer;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testkit.AnthropicSdks;
import dev.gym4j.testkit.EventStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/messages} with {@code "stream": true} on openai_model streams live: the upstream streams Responses
 * events and holds back the rest of its answer until our caller has seen the first {@code text_delta}; the events
 * our caller reads rebuild exactly the message an unstreamed {@code /v1/messages} gives for the same answer (the
 * tool_use block with its token ids), also as the Anthropic TypeScript and Python SDKs read it. NeMo Gym read: nemo_gym/anthropic_converter.py
 * ({@code anthropic_response_to_sse}: the event order a Messages client expects) and
 * responses_api_models/openai_model/app.py (the upstream's stream passed on).
 */
class LiveMessagesStreamTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String MESSAGE = """
      {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
       "content": [{"type": "output_text", "text": "Hello there.", "annotations": []}]}""";
  private static final String CALL = """
      {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "add", "status": "completed",
       "arguments": "{\\"a\\": 1, \\"b\\": 2}",
       "prompt_token_ids": [1, 2], "generation_token_ids": [5, 6], "generation_log_probs": [-0.1, -0.2]}""";
  private static final String HEAD = "\"id\": \"resp_1\", \"object\": \"response\", \"created_at\": 1, \"model\": \"gpt\"";
  private static final String WHOLE = "{" + HEAD + ", \"status\": \"completed\", \"output\": [" + MESSAGE + ", " + CALL
      + "], \"usage\": {\"input_tokens\": 11, \"output_tokens\": 4, \"total_tokens\": 15}}";
  private static final String REQUEST = """
      {"model": "claude-x", "max_tokens": 64, "messages": [{"role": "user", "content": "add 1 and 2"}],
       "tools": [{"name": "add", "input_schema": {"type": "object", "properties": {}}}]}""";

  @TempDir
  Path dir;
  HttpServer upstream;
  ModelHarness model;
  final CountDownLatch callerSawDelta = new CountDownLatch(1);
  final AtomicBoolean restSent = new AtomicBoolean();
  /** Whether the upstream holds back the rest of its stream until our caller saw the first text_delta. */
  volatile boolean hold = true;
  /** Whether it holds it back until our caller saw a ping instead. */
  volatile boolean holdForPing;
  final CountDownLatch callerSawPing = new CountDownLatch(1);
  final HttpClient client = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws IOException {
    upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    upstream.createContext("/v1/responses", exchange -> {
      JsonNode request = Json.parse(exchange.getRequestBody().readAllBytes());
      if (!request.path("stream").asBoolean(false)) {
        byte[] body = WHOLE.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      event(out, "{\"type\": \"response.created\", \"response\": {" + HEAD + ", \"status\": \"in_progress\","
          + " \"output\": []}}");
      event(out, "{\"type\": \"response.output_item.added\", \"output_index\": 0, \"item\": {\"id\": \"msg_1\","
          + " \"type\": \"message\", \"role\": \"assistant\", \"status\": \"in_progress\", \"content\": []}}");
      event(out, "{\"type\": \"response.content_part.added\", \"item_id\": \"msg_1\", \"output_index\": 0,"
          + " \"content_index\": 0, \"part\": {\"type\": \"output_text\", \"text\": \"\", \"annotations\": []}}");
      event(out, "{\"type\": \"response.output_text.delta\", \"item_id\": \"msg_1\", \"output_index\": 0,"
          + " \"content_index\": 0, \"delta\": \"Hello\"}");
      try {
        if (holdForPing) {
          callerSawPing.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        } else if (hold) {
          callerSawDelta.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      restSent.set(true);
      event(out, "{\"type\": \"response.output_text.delta\", \"item_id\": \"msg_1\", \"output_index\": 0,"
          + " \"content_index\": 0, \"delta\": \" there.\"}");
      event(out, "{\"type\": \"response.output_item.done\", \"output_index\": 0, \"item\": " + MESSAGE + "}");
      event(out, "{\"type\": \"response.output_item.added\", \"output_index\": 1, \"item\": {\"id\": \"fc_1\","
          + " \"type\": \"function_call\", \"call_id\": \"call_1\", \"name\": \"add\", \"arguments\": \"\"}}");
      for (String piece : List.of("{\\\"a\\\": 1, ", "\\\"b\\\": 2}")) {
        event(out, "{\"type\": \"response.function_call_arguments.delta\", \"item_id\": \"fc_1\","
            + " \"output_index\": 1, \"delta\": \"" + piece + "\"}");
      }
      event(out, "{\"type\": \"response.output_item.done\", \"output_index\": 1, \"item\": " + CALL + "}");
      event(out, "{\"type\": \"response.completed\", \"response\": " + WHOLE + "}");
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
    callerSawPing.countDown();
    client.shutdownNow();
    model.close();
    upstream.stop(0);
  }

  private static void event(OutputStream out, String data) throws IOException {
    JsonNode json = Json.parse(data.getBytes(StandardCharsets.UTF_8));
    out.write(("event: " + json.path("type").asString() + "\ndata: " + Json.write(json) + "\n\n")
        .getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  @Test
  void theFirstTextDeltaArrivesBeforeTheUpstreamSentTheRestAndTheStreamRebuildsTheUnstreamedMessage()
      throws Exception {
    HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(URI.create(model.url() + "/v1/messages"))
        .POST(HttpRequest.BodyPublishers.ofString(REQUEST.replace("\"max_tokens\": 64,",
            "\"max_tokens\": 64, \"stream\": true,"))).build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    List<EventStreamReader.Event> events = new ArrayList<>();
    List<Boolean> restSentAtFirstDelta = new ArrayList<>();
    try (InputStream in = response.body()) {
      ServerSentEvents.read(in, 1 << 20, WAIT, event -> {
        JsonNode data = event.json();
        events.add(new EventStreamReader.Event(event.name(), data));
        if (data.path("delta").path("type").asString("").equals("text_delta") && restSentAtFirstDelta.isEmpty()) {
          restSentAtFirstDelta.add(restSent.get());
          callerSawDelta.countDown();
        }
        return true;
      });
    }
    assertThat(restSentAtFirstDelta).as("the first text_delta came before the upstream sent the rest")
        .containsExactly(false);
    // pings may come between events while the upstream is silent (the machine may be slow): they carry nothing
    assertThat(events).as(events::toString).extracting(EventStreamReader.Event::name)
        .filteredOn(name -> !name.equals("ping")).containsExactly("message_start",
        "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
        "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
    assertThat(events.stream().filter(event -> event.name().equals("content_block_delta")).findFirst().orElseThrow()
        .data().path("delta").path("text").asString()).isEqualTo("Hello");
    ObjectNode streamed = EventStreamReader.anthropicMessage(events);

    var plain = model.post("/v1/messages", REQUEST, java.util.Map.of());
    assertThat(plain.status()).as(plain.text()).isEqualTo(200);
    assertThat(normalized(streamed)).isEqualTo(normalized(plain.json()));
    JsonNode toolUse = streamed.get("content").get(1);
    assertThat(toolUse.get("input").toString()).isEqualTo("{\"a\":1,\"b\":2}");
    assertThat(toolUse.get("generation_token_ids").toString()).isEqualTo("[5,6]");
    assertThat(streamed.get("stop_reason").asString()).isEqualTo("tool_use");
    assertThat(streamed.get("usage").get("input_tokens").asInt()).isEqualTo(11);
    assertThat(streamed.get("model").asString()).isEqualTo("claude-x");
  }

  @Test
  void whileTheUpstreamIsSilentTheCallerIsPingedAndTheMessageStillCompletes() throws Exception {
    holdForPing = true;
    AtomicBoolean restSentAtFirstPing = new AtomicBoolean(true);
    HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(URI.create(model.url() + "/v1/messages"))
        .POST(HttpRequest.BodyPublishers.ofString(REQUEST.replace("\"max_tokens\": 64,",
            "\"max_tokens\": 64, \"stream\": true,"))).build(), HttpResponse.BodyHandlers.ofInputStream());
    List<EventStreamReader.Event> events = new ArrayList<>();
    try (InputStream in = response.body()) {
      ServerSentEvents.read(in, 1 << 20, WAIT, event -> {
        events.add(new EventStreamReader.Event(event.name(), event.json()));
        if ("ping".equals(event.name()) && callerSawPing.getCount() > 0) {
          restSentAtFirstPing.set(restSent.get());
          callerSawPing.countDown();
        }
        return true;
      });
    }
    assertThat(restSentAtFirstPing.get()).as("a ping came while the upstream held back the rest").isFalse();
    assertThat(events.getLast().name()).isEqualTo("message_stop");
    ObjectNode streamed = EventStreamReader.anthropicMessage(events);
    assertThat(streamed.get("content").get(0).get("text").asString()).isEqualTo("Hello there.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"typescript", "python"})
  void theAnthropicSdksReadTheLiveStreamAsTheUnstreamedMessage(String sdk) {
    hold = false;
    ObjectNode scenario = Json.object();
    scenario.set("request", Json.parse(REQUEST));
    scenario.set("bad", Json.parse("{\"model\": \"m\", \"max_tokens\": 0, \"messages\": []}"));
    Path target = Path.of("target").toAbsolutePath();
    String base = model.url().toString();
    JsonNode result = sdk.equals("typescript") ? AnthropicSdks.typescript(target, base, Json.write(scenario))
        : AnthropicSdks.python(target, base, Json.write(scenario));
    assertThat(result.get("sdk").asString()).isEqualTo(sdk);
    JsonNode streamed = result.get("streamed");
    assertThat(normalized(streamed)).isEqualTo(normalized(result.get("plain")));
    assertThat(streamed.get("content").get(0).get("text").asString()).isEqualTo("Hello there.");
    assertThat(streamed.get("content").get(1).get("input").get("b").asInt()).isEqualTo(2);
    assertThat(streamed.get("content").get(1).get("generation_token_ids").toString()).isEqualTo("[5,6]");
    assertThat(streamed.get("stop_reason").asString()).isEqualTo("tool_use");
    assertThat(streamed.get("usage").get("output_tokens").asInt()).isEqualTo(4);
    assertThat(result.get("events").get("content_block_delta").asInt()).isEqualTo(3);
    assertThat(result.get("events").get("message_stop").asInt()).isEqualTo(1);
    assertThat(result.get("error").get("status").asInt()).isEqualTo(400);
  }

  @Test
  void anUpstreamThatRefusesKeepsItsStatusAndAnthropicsErrorBody() throws Exception {
    upstream.removeContext("/v1/responses");
    upstream.createContext("/v1/responses", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(401, 0);
      exchange.getResponseBody().write("{\"error\": {\"message\": \"bad key\"}}".getBytes());
      exchange.close();
    });
    var reply = model.post("/v1/messages", REQUEST.replace("\"max_tokens\": 64,", "\"max_tokens\": 64, \"stream\": true,"),
        java.util.Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("type").asString()).isEqualTo("error");
    assertThat(reply.json().get("error").get("type").asString()).isEqualTo("api_error");
    assertThat(reply.text()).contains("401").doesNotContain("sk-live-123");
  }

  private static ObjectNode normalized(JsonNode message) {
    ObjectNode copy = (ObjectNode) message.deepCopy();
    copy.remove("id");
    return copy;
  }
}
