package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.AnthropicSdks;
import dev.gym4j.testkit.EventStreamReader;
import dev.gym4j.testkit.EventUpstream;
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

  private static final String STREAMED =
      REQUEST.replace("\"max_tokens\": 64,", "\"max_tokens\": 64, \"stream\": true,");

  @TempDir
  Path dir;
  /** Holds back the rest of its stream until our caller saw the first text_delta (or, in one test, a ping). */
  final EventUpstream upstream = EventUpstream.start("/v1/responses").answer(WHOLE).events(events())
      .holdAfter(event -> event.startsWith("event: response.output_text.delta"));
  ModelHarness model;

  @BeforeEach
  void start() {
    model = ModelHarness.openai(dir, upstream.port());
  }

  @AfterEach
  void stop() {
    model.close();
    upstream.close();
  }

  /** The Responses events of the message then the call, the text and the arguments in two deltas each. */
  private static List<String> events() {
    return Stream.of(
        "{\"type\": \"response.created\", \"response\": {" + HEAD + ", \"status\": \"in_progress\", \"output\": []}}",
        "{\"type\": \"response.output_item.added\", \"output_index\": 0, \"item\": {\"id\": \"msg_1\","
            + " \"type\": \"message\", \"role\": \"assistant\", \"status\": \"in_progress\", \"content\": []}}",
        "{\"type\": \"response.content_part.added\", \"item_id\": \"msg_1\", \"output_index\": 0,"
            + " \"content_index\": 0, \"part\": {\"type\": \"output_text\", \"text\": \"\", \"annotations\": []}}",
        textDelta("Hello"),
        textDelta(" there."),
        "{\"type\": \"response.output_item.done\", \"output_index\": 0, \"item\": " + MESSAGE + "}",
        "{\"type\": \"response.output_item.added\", \"output_index\": 1, \"item\": {\"id\": \"fc_1\","
            + " \"type\": \"function_call\", \"call_id\": \"call_1\", \"name\": \"add\", \"arguments\": \"\"}}",
        argumentsDelta("{\\\"a\\\": 1, "),
        argumentsDelta("\\\"b\\\": 2}"),
        "{\"type\": \"response.output_item.done\", \"output_index\": 1, \"item\": " + CALL + "}",
        "{\"type\": \"response.completed\", \"response\": " + WHOLE + "}")
        .map(LiveMessagesStreamTest::event).toList();
  }

  private static String textDelta(String text) {
    return "{\"type\": \"response.output_text.delta\", \"item_id\": \"msg_1\", \"output_index\": 0,"
        + " \"content_index\": 0, \"delta\": \"" + text + "\"}";
  }

  private static String argumentsDelta(String piece) {
    return "{\"type\": \"response.function_call_arguments.delta\", \"item_id\": \"fc_1\", \"output_index\": 1,"
        + " \"delta\": \"" + piece + "\"}";
  }

  private static String event(String data) {
    JsonNode json = Json.parse(data.getBytes(StandardCharsets.UTF_8));
    return EventUpstream.event(json.path("type").asString(), json);
  }

  @Test
  void theFirstTextDeltaArrivesBeforeTheUpstreamSentTheRestAndTheStreamRebuildsTheUnstreamedMessage()
      throws Exception {
    HttpResponse<InputStream> response = model.stream("/v1/messages", STREAMED);
    assertThat(response.statusCode()).isEqualTo(200);
    List<EventStreamReader.Event> events = new ArrayList<>();
    Optional<Boolean> restSent = upstream.readReleasingAt(response.body(),
        event -> event.json().path("delta").path("type").asString("").equals("text_delta"),
        event -> events.add(new EventStreamReader.Event(event.name(), event.json())));
    assertThat(restSent).as("the first text_delta came before the upstream sent the rest").contains(false);
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
    HttpResponse<InputStream> response = model.stream("/v1/messages", STREAMED);
    List<EventStreamReader.Event> events = new ArrayList<>();
    Optional<Boolean> restSent = upstream.readReleasingAt(response.body(), event -> event.name().equals("ping"),
        event -> events.add(new EventStreamReader.Event(event.name(), event.json())));
    assertThat(restSent).as("a ping came while the upstream held back the rest").contains(false);
    assertThat(events.getLast().name()).isEqualTo("message_stop");
    ObjectNode streamed = EventStreamReader.anthropicMessage(events);
    assertThat(streamed.get("content").get(0).get("text").asString()).isEqualTo("Hello there.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"typescript", "python"})
  void theAnthropicSdksReadTheLiveStreamAsTheUnstreamedMessage(String sdk) {
    upstream.holdAfter(event -> false);
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
    upstream.refuse(401, "{\"error\": {\"message\": \"bad key\"}}");
    var reply = model.post("/v1/messages", STREAMED);
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
