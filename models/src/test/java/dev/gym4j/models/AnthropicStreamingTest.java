package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testkit.EventUpstream;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * anthropic_model with {@code stream: true}: the upstream's {@code POST /v1/messages} is asked to stream, and its
 * events reach our caller as Responses events (or chat chunks) as they arrive: the upstream holds back the rest of
 * its stream until our caller has seen the first delta. The final Response is the non-streamed one for the same
 * upstream message. NeMo Gym read: responses_api_models/anthropic_model/app.py ({@code _messages_create} posts
 * without {@code stream}; its converter {@code anthropic_to_responses} is what both our paths end in), and
 * nemo_gym/anthropic_converter.py.
 */
class AnthropicStreamingTest {
  private static final String KEY = "sk-ant-stream-0123456789abcdef";
  /** A message with every block kind the stream must rebuild; the tool input's JSON is split across deltas. */
  private static final String MESSAGE = """
      {"id": "msg_01Up", "type": "message", "role": "assistant", "model": "claude-up",
       "content": [{"type": "thinking", "thinking": "The user wants Paris weather.", "signature": "sig-abc=="},
                   {"type": "text", "text": "Let me check "}, {"type": "text", "text": "the weather."},
                   {"type": "tool_use", "id": "toolu_01A", "name": "get_weather",
                    "input": {"city": "Paris", "units": ["c", "f"]}}],
       "stop_reason": "tool_use", "stop_sequence": null,
       "usage": {"input_tokens": 40, "output_tokens": 12, "cache_read_input_tokens": 3,
                 "cache_creation_input_tokens": 0}}""";
  private static final String REQUEST = """
      {"input": "Weather in Paris?", "instructions": "Be brief.",
       "tools": [{"type": "function", "name": "get_weather", "description": "Weather now",
                  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]""";

  @TempDir
  Path dir;
  /** Streams what a test gives it; it holds back the rest of each stream until our caller saw its first delta. */
  final EventUpstream upstream = EventUpstream.start("/v1/messages").answer(MESSAGE)
      .holdAfter(event -> event.contains("content_block_delta"));
  ModelHarness model;

  @BeforeEach
  void start() {
    model = harness("");
  }

  private ModelHarness harness(String global) {
    return ModelHarness.anthropic(dir, upstream.port(), KEY, global);
  }

  @AfterEach
  void stop() {
    model.close();
    upstream.close();
  }

  // ------------------------------------------------------------------ the upstream's stream, made from a message

  /** Anthropic's events for a message: each block's text, thinking and input JSON in pieces of at most 7 chars. */
  static List<String> streamOf(String messageJson) {
    ObjectNode message = (ObjectNode) Json.parse(messageJson);
    List<String> out = new ArrayList<>();
    ObjectNode start = message.deepCopy();
    start.putArray("content");
    start.putNull("stop_reason");
    ObjectNode usage = ((ObjectNode) message.get("usage")).deepCopy();
    usage.put("output_tokens", 1);
    start.set("usage", usage);
    out.add(event("message_start", Json.object().put("type", "message_start").set("message", start)));
    out.add(event("ping", Json.object().put("type", "ping")));
    JsonNode content = message.get("content");
    for (int i = 0; i < content.size(); i++) {
      ObjectNode block = (ObjectNode) content.get(i);
      ObjectNode shell = block.deepCopy();
      List<ObjectNode> deltas = new ArrayList<>();
      switch (block.get("type").asString()) {
        case "text" -> {
          shell.put("text", "");
          pieces(block.get("text").asString()).forEach(p -> deltas.add(Json.object().put("type", "text_delta")
              .put("text", p)));
        }
        case "thinking" -> {
          shell.put("thinking", "").put("signature", "");
          pieces(block.get("thinking").asString()).forEach(p -> deltas.add(Json.object()
              .put("type", "thinking_delta").put("thinking", p)));
          deltas.add(Json.object().put("type", "signature_delta").put("signature", block.get("signature").asString()));
        }
        case "tool_use" -> {
          shell.putObject("input");
          // as Anthropic sends it: spaced JSON, cut anywhere, even inside a string
          pieces(Json.write(block.get("input")).replace(",", ", ").replace(":", ": "))
              .forEach(p -> deltas.add(Json.object().put("type", "input_json_delta").put("partial_json", p)));
        }
        default -> { }
      }
      out.add(event("content_block_start", Json.object().put("type", "content_block_start").put("index", i)
          .set("content_block", shell)));
      for (ObjectNode delta : deltas) {
        out.add(event("content_block_delta", Json.object().put("type", "content_block_delta").put("index", i)
            .set("delta", delta)));
      }
      out.add(event("content_block_stop", Json.object().put("type", "content_block_stop").put("index", i)));
    }
    ObjectNode delta = Json.object().put("type", "message_delta");
    delta.putObject("delta").set("stop_reason", message.get("stop_reason"));
    ((ObjectNode) delta.get("delta")).set("stop_sequence", message.get("stop_sequence"));
    delta.putObject("usage").put("output_tokens", message.get("usage").get("output_tokens").asInt());
    out.add(event("message_delta", delta));
    out.add(event("message_stop", Json.object().put("type", "message_stop")));
    return out;
  }

  private static List<String> pieces(String text) {
    List<String> pieces = new ArrayList<>();
    for (int i = 0; i < text.length(); i += 7) {
      pieces.add(text.substring(i, Math.min(text.length(), i + 7)));
    }
    return pieces;
  }

  static String event(String name, ObjectNode data) {
    return EventUpstream.event(name, data);
  }

  // ------------------------------------------------------------------ our caller

  private HttpResponse<InputStream> post(String path, String body) throws Exception {
    return model.stream(path, body);
  }

  /** Our stream's events (data, with {@code [DONE]} as a string); checks that the first delta came early. */
  private List<JsonNode> read(HttpResponse<InputStream> response) throws IOException {
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> read = new ArrayList<>();
    Optional<Boolean> restSent = upstream.readReleasingAt(response.body(), event -> isDelta(json(event)),
        event -> read.add(json(event)));
    assertThat(String.join("", read.stream().map(JsonNode::toString).toList())).doesNotContain(KEY);
    restSent.ifPresent(sent -> assertThat(sent).as("the first delta came before the upstream sent the rest")
        .isFalse());
    return read;
  }

  private static JsonNode json(ServerSentEvents.Event event) {
    return event.data().equals("[DONE]") ? Json.toTree("[DONE]") : event.json();
  }

  /** A Responses delta event, or a chat chunk with content or reasoning. */
  private static boolean isDelta(JsonNode json) {
    return json.path("type").asString("").endsWith(".delta")
        || !json.path("choices").path(0).path("delta").path("content").asString("").isEmpty()
        || !json.path("choices").path(0).path("delta").path("reasoning_content").asString("").isEmpty();
  }

  private static List<String> types(List<JsonNode> events) {
    return events.stream().map(event -> event.path("type").asString("")).toList();
  }

  private static String joined(List<JsonNode> events, String type, String field) {
    return String.join("", events.stream().filter(event -> event.path("type").asString("").equals(type))
        .map(event -> event.path(field).asString("")).toList());
  }

  /** A Response without what differs from call to call: its id, time and its reasoning and message item ids. */
  private static ObjectNode normalized(JsonNode response) {
    ObjectNode copy = (ObjectNode) response.deepCopy();
    copy.remove("id");
    copy.remove("created_at");
    copy.get("output").forEach(item -> {
      if (!item.path("type").asString("").equals("function_call")) {
        ((ObjectNode) item).remove("id");
      }
    });
    return copy;
  }

  // ------------------------------------------------------------------ tests

  @Test
  void eventsArriveAsStreamedAndEndInTheUnstreamedResponse() throws Exception {
    upstream.events(streamOf(MESSAGE));
    List<JsonNode> streamed = read(post("/v1/responses", REQUEST + ", \"stream\": true}"));
    JsonNode plain = model.post("/v1/responses", REQUEST + "}").json();

    List<ScriptedUpstream.Received> received = upstream.received();
    assertThat(received.get(0).body().get("stream").asBoolean()).isTrue();
    assertThat(received.get(1).body().has("stream")).isFalse();
    assertThat(received).extracting(request -> request.headers().get("x-api-key")).containsOnly(KEY);
    assertThat(types(streamed)).startsWith("response.created", "response.in_progress", "response.output_item.added",
        "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta").endsWith(
        "response.function_call_arguments.done", "response.output_item.done", "response.completed");
    for (int i = 0; i < streamed.size(); i++) {
      assertThat(streamed.get(i).get("sequence_number").asInt()).isEqualTo(i);
    }
    assertThat(joined(streamed, "response.reasoning_summary_text.delta", "delta"))
        .isEqualTo("The user wants Paris weather.");
    assertThat(joined(streamed, "response.output_text.delta", "delta")).isEqualTo("Let me check the weather.");
    assertThat(streamed.stream().filter(e -> e.path("type").asString().equals("response.output_text.delta")).count())
        .as("text in pieces, as it came").isGreaterThan(2);
    assertThat(Json.parse(joined(streamed, "response.function_call_arguments.delta", "delta")))
        .isEqualTo(Json.parse("{\"city\": \"Paris\", \"units\": [\"c\", \"f\"]}"));

    JsonNode created = streamed.get(0).get("response");
    JsonNode completed = streamed.getLast().get("response");
    assertThat(completed.get("id")).isEqualTo(created.get("id"));
    assertThat(completed.get("created_at")).isEqualTo(created.get("created_at"));
    List<String> announced = streamed.stream().filter(e -> e.path("type").asString().equals(
        "response.output_item.added")).map(e -> e.path("item").path("id").asString()).toList();
    assertThat(completed.get("output").findValuesAsString("id")).containsExactlyElementsOf(announced);
    List<JsonNode> done = streamed.stream().filter(e -> e.path("type").asString().equals("response.output_item.done"))
        .map(e -> e.get("item")).toList();
    assertThat(done).containsExactlyElementsOf(completed.get("output"));

    assertThat(normalized(completed)).isEqualTo(normalized(plain));
    assertThat(completed.get("output").get(0).get("encrypted_content").asString()).isEqualTo("sig-abc==");
    assertThat(completed.get("output").get(1).get("content").get(0).get("text").asString())
        .isEqualTo("Let me check the weather.");
    assertThat(completed.get("output").get(2).get("arguments").asString())
        .isEqualTo("{\"city\":\"Paris\",\"units\":[\"c\",\"f\"]}");
    assertThat(completed.get("usage").get("output_tokens").asInt()).isEqualTo(12);
    assertThat(completed.get("usage").get("input_tokens_details").get("cached_tokens").asInt()).isEqualTo(3);
  }

  @Test
  void aCutAnswerEndsInResponseIncompleteAsUnstreamed() throws Exception {
    String answer = """
        {"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-up",
         "content": [{"type": "text", "text": "Once upon a time, there was"}],
         "stop_reason": "max_tokens", "stop_sequence": null, "usage": {"input_tokens": 5, "output_tokens": 9}}""";
    upstream.answer(answer).events(streamOf(answer));
    List<JsonNode> streamed = read(post("/v1/responses", "{\"input\": \"a story\", \"stream\": true}"));
    JsonNode plain = model.post("/v1/responses", "{\"input\": \"a story\"}").json();
    assertThat(types(streamed).getLast()).isEqualTo("response.incomplete");
    JsonNode last = streamed.getLast().get("response");
    assertThat(last.get("incomplete_details").get("reason").asString()).isEqualTo("max_output_tokens");
    assertThat(normalized(last)).isEqualTo(normalized(plain));
  }

  @Test
  void aStopSequenceAndRedactedThinkingEndAsUnstreamed() throws Exception {
    String answer = """
        {"id": "msg_3", "type": "message", "role": "assistant", "model": "claude-up",
         "content": [{"type": "redacted_thinking", "data": "opaque=="}, {"type": "text", "text": "Counting: 1, 2,"}],
         "stop_reason": "stop_sequence", "stop_sequence": " 3", "usage": {"input_tokens": 7, "output_tokens": 6}}""";
    upstream.answer(answer).events(streamOf(answer));
    List<JsonNode> streamed = read(post("/v1/responses", "{\"input\": \"count\", \"stream\": true}"));
    JsonNode plain = model.post("/v1/responses", "{\"input\": \"count\"}").json();
    JsonNode last = streamed.getLast().get("response");
    assertThat(streamed.getLast().get("type").asString()).isEqualTo("response.completed");
    assertThat(last.get("stop_sequence").asString()).isEqualTo(" 3");
    assertThat(last.get("output").get(0).get("encrypted_content").asString()).isEqualTo("opaque==");
    assertThat(normalized(last)).isEqualTo(normalized(plain));
  }

  @Test
  void chatChunksArriveAsStreamedWithTheUnstreamedFinishAndUsage() throws Exception {
    upstream.events(streamOf(MESSAGE));
    String chat = """
        {"model": "any", "messages": [{"role": "user", "content": "Weather in Paris?"}],
         "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]""";
    List<JsonNode> chunks = read(post("/v1/chat/completions", chat
        + ", \"stream\": true, \"stream_options\": {\"include_usage\": true}}"));
    JsonNode plain = model.post("/v1/chat/completions", chat + "}").json();
    JsonNode message = plain.get("choices").get(0).get("message");

    assertThat(chunks.getLast().asString("")).isEqualTo("[DONE]");
    List<JsonNode> data = chunks.subList(0, chunks.size() - 1);
    assertThat(data).allSatisfy(chunk -> {
      assertThat(chunk.get("object").asString()).isEqualTo("chat.completion.chunk");
      assertThat(chunk.get("id")).isEqualTo(data.get(0).get("id"));
    });
    assertThat(data.get(0).get("choices").get(0).get("delta").get("role").asString()).isEqualTo("assistant");
    StringBuilder content = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    StringBuilder arguments = new StringBuilder();
    List<String> callIds = new ArrayList<>();
    String finish = null;
    for (JsonNode chunk : data) {
      JsonNode choice = chunk.get("choices").path(0);
      JsonNode delta = choice.path("delta");
      content.append(delta.path("content").asString(""));
      reasoning.append(delta.path("reasoning_content").asString(""));
      for (JsonNode call : delta.path("tool_calls")) {
        assertThat(call.get("index").asInt()).isZero();
        if (call.has("id")) {
          callIds.add(call.get("id").asString());
        }
        arguments.append(call.path("function").path("arguments").asString(""));
      }
      if (choice.path("finish_reason").isString()) {
        finish = choice.get("finish_reason").asString();
      }
    }
    assertThat(content.toString()).isEqualTo(message.get("content").asString());
    assertThat(reasoning.toString()).isEqualTo(message.get("reasoning_content").asString());
    assertThat(callIds).containsExactly(message.get("tool_calls").get(0).get("id").asString());
    assertThat(Json.parse(arguments.toString()))
        .isEqualTo(Json.parse(message.get("tool_calls").get(0).get("function").get("arguments").asString()));
    assertThat(finish).isEqualTo("tool_calls").isEqualTo(plain.get("choices").get(0).get("finish_reason").asString());
    JsonNode usage = data.getLast();
    assertThat(usage.get("choices")).isEmpty();
    assertThat(usage.get("usage")).isEqualTo(plain.get("usage"));
  }

  @Test
  void anUpstreamThatRefusesBeforeItsStreamIsA502WithItsStatusAndNoKey() throws Exception {
    upstream.refuse(401, Json.write(FakeAnthropic.errorBody("authentication_error", "invalid key " + KEY)));
    HttpResponse<InputStream> response = post("/v1/responses", "{\"input\": \"hi\", \"stream\": true}");
    assertThat(response.statusCode()).isEqualTo(502);
    String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(Json.parse(body).get("error").get("message").asString()).contains("401")
        .contains("authentication_error");
    assertThat(body).doesNotContain(KEY);
    HttpResponse<InputStream> chat = post("/v1/chat/completions", """
        {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": true}""");
    assertThat(chat.statusCode()).isEqualTo(502);
    assertThat(new String(chat.body().readAllBytes(), StandardCharsets.UTF_8)).contains("401").doesNotContain(KEY);
  }

  @Test
  void anUpstreamErrorEventMidStreamIsOurErrorEvent() throws Exception {
    List<String> script = new ArrayList<>(streamOf(MESSAGE).subList(0, 5));
    script.add(event("error", FakeAnthropic.errorBody("overloaded_error", "Overloaded; key " + KEY)));
    upstream.events(script);
    List<JsonNode> streamed = read(post("/v1/responses", REQUEST + ", \"stream\": true}"));
    JsonNode error = streamed.getLast();
    assertThat(error.get("type").asString()).isEqualTo("error");
    assertThat(error.get("code").asString()).isEqualTo("upstream_error");
    assertThat(error.get("message").asString()).contains("overloaded_error").contains("Overloaded");
    assertThat(error.get("sequence_number").asInt()).isEqualTo(streamed.size() - 1);
    assertThat(types(streamed)).doesNotContain("response.completed");
  }

  @Test
  void aStreamThatBreaksOrEndsEarlyIsAnErrorEventNeverACompletedResponse() throws Exception {
    upstream.events(streamOf(MESSAGE).subList(0, 6));
    List<JsonNode> ended = read(post("/v1/responses", REQUEST + ", \"stream\": true}"));
    assertThat(ended.getLast().get("type").asString()).isEqualTo("error");
    assertThat(ended.getLast().get("message").asString()).contains("before message_stop");

    List<String> broken = new ArrayList<>(streamOf(MESSAGE).subList(0, 6));
    broken.add("data: {not json\n\n");
    upstream.events(broken);
    List<JsonNode> chunks = read(post("/v1/chat/completions", """
        {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": true}"""));
    assertThat(chunks.getLast().get("error").get("code").asString()).isEqualTo("upstream_error");
    assertThat(chunks).noneMatch(chunk -> chunk.isString());

    List<String> unknown = new ArrayList<>(streamOf(MESSAGE).subList(0, 2));
    unknown.add(event("content_block_start", (ObjectNode) Json.parse("""
        {"type": "content_block_start", "index": 0, "content_block": {"type": "server_tool_use", "id": "x"}}""")));
    upstream.events(unknown);
    List<JsonNode> invalid = read(post("/v1/responses", REQUEST + ", \"stream\": true}"));
    assertThat(invalid.getLast().get("message").asString()).contains("invalid answer").contains("server_tool_use");
  }

  @Test
  void aSilentUpstreamMeetsTheIdleDeadline() throws Exception {
    model.close();
    model = harness("client_request_timeout_seconds: 1\n");
    upstream.events(streamOf(MESSAGE).subList(0, 4)).silentAtEnd();
    List<JsonNode> streamed = read(post("/v1/responses", REQUEST + ", \"stream\": true}"));
    assertThat(streamed.getLast().get("type").asString()).isEqualTo("error");
    assertThat(streamed.getLast().get("message").asString()).contains("no event within");
  }
}
