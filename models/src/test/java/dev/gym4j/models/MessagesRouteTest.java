package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import dev.gym4j.client.HttpReply;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EventStreamReader;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/messages} on a model server (vllm_model in training mode, in front of a scripted upstream): the
 * Anthropic request reaches the upstream as the same conversation, and the answer comes back as Anthropic blocks
 * with token ids, streamed or not. NeMo Gym read: nemo_gym/base_responses_api_model.py ({@code messages}) and
 * nemo_gym/anthropic_converter.py (the mapping and {@code anthropic_response_to_sse}).
 */
class MessagesRouteTest {
  static final String KEY = "sk-upstream-secret-0123456789";

  @TempDir
  Path dir;
  ScriptedUpstream vllm;
  ModelHarness model;

  @BeforeEach
  void start() {
    vllm = ScriptedUpstream.start();
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: %s
        model: policy
        return_token_id_information: true
        uses_reasoning_parser: true
        """.formatted(vllm.baseUrl(), KEY));
  }

  @AfterEach
  void stop() {
    model.close();
    vllm.close();
  }

  private static final String WEATHER = """
      {"model": "claude-any", "max_tokens": 256, "system": [{"type": "text", "text": "Be brief."}],
       "tools": [{"name": "get_weather", "description": "Weather now",
                  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
       "messages": [{"role": "user", "content": "Weather in Paris?"}]%s}""";

  @Test
  void thinkingTextAndTokenIdsComeBackAsBlocks() {
    vllm.enqueue(Answer.text("Hello there.").withReasoning("Greet back."));
    HttpReply reply = model.post("/v1/messages", WEATHER.formatted(""));
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    JsonNode message = reply.json();
    assertThat(message.get("type").asString()).isEqualTo("message");
    assertThat(message.get("role").asString()).isEqualTo("assistant");
    assertThat(message.get("model").asString()).isEqualTo("claude-any");
    assertThat(message.get("id").asString()).startsWith("msg_");
    JsonNode content = message.get("content");
    assertThat(content).hasSize(2);
    assertThat(content.get(0).get("type").asString()).isEqualTo("thinking");
    assertThat(content.get(0).get("thinking").asString()).isEqualTo("Greet back.");
    assertThat(content.get(1).get("type").asString()).isEqualTo("text");
    assertThat(content.get(1).get("text").asString()).isEqualTo("Hello there.");
    assertThat(content.get(1).get("generation_token_ids").size()).isPositive();
    assertThat(content.get(1).get("generation_log_probs").size())
        .isEqualTo(content.get(1).get("generation_token_ids").size());
    assertThat(content.get(1).get("prompt_token_ids").size()).isPositive();
    assertThat(message.get("stop_reason").asString()).isEqualTo("end_turn");
    assertThat(message.get("usage").get("input_tokens").asLong()).isPositive();
    assertThat(message.get("usage").get("output_tokens").asLong()).isPositive();

    ObjectNode sent = chatSent();
    assertThat(sent.get("messages").get(0).get("role").asString()).isEqualTo("system");
    assertThat(sent.get("messages").get(0).get("content").asString()).isEqualTo("Be brief.");
    assertThat(sent.get("messages").get(1).get("content").asString()).isEqualTo("Weather in Paris?");
    assertThat(sent.get("tools").get(0).get("function").get("name").asString()).isEqualTo("get_weather");
    assertThat(sent.get("max_tokens").asInt()).isEqualTo(256);
  }

  @Test
  void toolUseAndToolResultsRoundTrip() {
    vllm.enqueue(Answer.toolCall("get_weather", "{\"city\": \"Paris\"}"));
    JsonNode first = model.post("/v1/messages", WEATHER.formatted("")).json();
    JsonNode toolUse = first.get("content").get(0);
    assertThat(toolUse.get("type").asString()).isEqualTo("tool_use");
    assertThat(toolUse.get("name").asString()).isEqualTo("get_weather");
    assertThat(toolUse.get("input").get("city").asString()).isEqualTo("Paris");
    assertThat(first.get("stop_reason").asString()).isEqualTo("tool_use");

    // the next turn replays the assistant's blocks (token ids included) and gives the tool's result
    vllm.enqueue(Answer.text("Sunny."));
    String second = """
        {"model": "claude-any", "max_tokens": 256, "messages": [
          {"role": "user", "content": "Weather in Paris?"},
          {"role": "assistant", "content": %s},
          {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "%s",
            "content": [{"type": "text", "text": "18C, sunny"}]}]}]}""".formatted(first.get("content"),
        toolUse.get("id").asString());
    HttpReply reply = model.post("/v1/messages", second);
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    assertThat(reply.json().get("content").get(0).get("text").asString()).isEqualTo("Sunny.");
    JsonNode messages = chatSent().get("messages");
    JsonNode assistant = messages.get(1);
    assertThat(assistant.get("tool_calls").get(0).get("id").asString()).isEqualTo(toolUse.get("id").asString());
    assertThat(assistant.get("tool_calls").get(0).get("function").get("arguments").asString())
        .isEqualTo("{\"city\":\"Paris\"}");
    assertThat(assistant.get("generation_token_ids")).isEqualTo(toolUse.get("generation_token_ids"));
    assertThat(messages.get(2).get("role").asString()).isEqualTo("tool");
    assertThat(messages.get(2).get("content").asString()).isEqualTo("18C, sunny");
  }

  @Test
  void aCutAnswerStopsAtMaxTokens() {
    vllm.enqueue(Answer.text("cut sh").withFinishReason("length"));
    JsonNode message = model.post("/v1/messages", WEATHER.formatted("")).json();
    assertThat(message.get("stop_reason").asString()).isEqualTo("max_tokens");
  }

  @Test
  void theStreamRebuildsTheSameMessageInAnthropicsEventOrder() {
    vllm.enqueue(Answer.text("Sunny.").withReasoning("Look it up.").withToolCall("get_weather", "{\"city\":\"Paris\"}"));
    JsonNode plain = model.post("/v1/messages", WEATHER.formatted("")).json();
    vllm.enqueue(Answer.text("Sunny.").withReasoning("Look it up.").withToolCall("get_weather", "{\"city\":\"Paris\"}"));
    var reply = stream(WEATHER.formatted(", \"stream\": true"));
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
    // vllm_model streams live, item by item (token ids come with an item's end); a ping comes only while the
    // upstream is silent, and carries nothing
    List<EventStreamReader.Event> events = EventStreamReader.read(reply.body()).stream()
        .filter(event -> !event.name().equals("ping")).toList();
    assertThat(events).extracting(EventStreamReader.Event::name).containsExactly("message_start",
        "content_block_start", "content_block_delta", "content_block_stop",
        "content_block_start", "content_block_delta", "content_block_stop",
        "content_block_start", "content_block_delta", "content_block_stop",
        "message_delta", "message_stop");
    for (EventStreamReader.Event event : events) {
      assertThat(event.data().get("type").asString()).isEqualTo(event.name());
    }
    assertThat(events.get(2).data().get("delta").get("type").asString()).isEqualTo("thinking_delta");
    assertThat(events.get(5).data().get("delta").get("type").asString()).isEqualTo("text_delta");
    assertThat(events.get(8).data().get("delta").get("type").asString()).isEqualTo("input_json_delta");
    assertThat(events.get(10).data().get("delta").get("stop_reason").asString()).isEqualTo("tool_use");
    ObjectNode streamed = EventStreamReader.anthropicMessage(events);
    ObjectNode expected = ((ObjectNode) plain).deepCopy();
    expected.put("id", streamed.get("id").asString());
    // the scripted upstream names each tool call afresh
    ((ObjectNode) expected.get("content").get(2)).set("id", streamed.get("content").get(2).get("id"));
    // token ids differ only in what the scripted upstream generated for each call: compare their shape
    assertThat(withoutTokens(streamed)).isEqualTo(withoutTokens(expected));
    assertThat(streamed.get("content").get(2).get("generation_token_ids").size()).isPositive();
  }

  /** The last chat request the upstream got (training mode also calls /tokenize). */
  private ObjectNode chatSent() {
    return vllm.received().reversed().stream().filter(r -> r.path().endsWith("/chat/completions")).findFirst()
        .orElseThrow().body();
  }

  /** A streamed answer, read with the JDK client (ours keeps no headers of a success). */
  private java.net.http.HttpResponse<String> stream(String body) {
    try (var client = java.net.http.HttpClient.newHttpClient()) {
      return client.send(java.net.http.HttpRequest.newBuilder(model.url().resolve("/v1/messages"))
          .timeout(java.time.Duration.ofSeconds(30)).header("content-type", "application/json")
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  private static ObjectNode withoutTokens(ObjectNode message) {
    ObjectNode copy = message.deepCopy();
    copy.get("content").forEach(block -> ((ObjectNode) block).remove(List.of("prompt_token_ids",
        "generation_token_ids", "generation_log_probs")));
    return copy;
  }

  @Test
  void badInputIsA400InAnthropicsShapeNamingTheField() {
    HttpReply reply = model.post("/v1/messages", """
        {"model": "m", "max_tokens": 5, "messages": [{"role": "robot", "content": "hi"}]}""");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().get("type").asString()).isEqualTo("error");
    assertThat(reply.json().get("error").get("type").asString()).isEqualTo("invalid_request_error");
    assertThat(reply.json().get("error").get("message").asString()).startsWith("messages.0.role:");

    HttpReply missing = model.post("/v1/messages", "{\"model\": \"m\", \"messages\": []}");
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.json().get("error").get("message").asString()).startsWith("max_tokens:");

    HttpReply block = model.post("/v1/messages", """
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [{"type": "video"}]}]}""");
    assertThat(block.json().get("error").get("message").asString()).startsWith("messages.0.content.0.type:");
    assertThat(vllm.calls()).isZero();
  }

  @Test
  void anUpstreamFailureIsA502InAnthropicsShapeWithoutTheKey() {
    vllm.enqueue(Answer.error(400, "{\"error\": \"bad key " + KEY + "\"}"));
    HttpReply reply = model.post("/v1/messages", WEATHER.formatted(""));
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("error").get("type").asString()).isEqualTo("api_error");
    assertThat(reply.text()).doesNotContain(KEY);
    assertThat(reply.header("x-gym4j-upstream-failure")).isPresent();
  }

  @Test
  void anUpstreamThatRefusesAStreamIsA502WithAnthropicsErrorBody() {
    // vllm_model opens its upstream's stream before answering, so the refusal keeps an HTTP status
    vllm.enqueue(Answer.error(400, "{\"error\": \"bad key " + KEY + "\"}"));
    HttpReply reply = model.post("/v1/messages", WEATHER.formatted(", \"stream\": true"));
    assertThat(reply.status()).as(reply.text()).isEqualTo(502);
    JsonNode error = reply.json();
    assertThat(error.get("type").asString()).isEqualTo("error");
    assertThat(error.get("error").get("type").asString()).isEqualTo("api_error");
    assertThat(reply.text()).doesNotContain(KEY);
  }
}
