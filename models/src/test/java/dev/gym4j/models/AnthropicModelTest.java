package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.gym4j.client.HttpReply;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * anthropic_model against an in-process fake of Anthropic's Messages API. NeMo Gym read:
 * responses_api_models/anthropic_model/app.py (config keys, headers, URL) on its anthropic_model branch, and
 * nemo_gym/anthropic_converter.py ({@code responses_to_anthropic}, {@code anthropic_to_responses}).
 */
class AnthropicModelTest {
  static final String KEY = "sk-ant-test-0123456789abcdef";

  @TempDir
  Path dir;
  FakeAnthropic anthropic;
  ModelHarness model;

  @BeforeEach
  void start() {
    anthropic = new FakeAnthropic(KEY);
    model = new ModelHarness(dir, "anthropic_model", """
        anthropic_base_url: %s
        anthropic_api_key: %s
        anthropic_model: claude-sonnet-4-6
        max_tokens: 4096
        thinking_budget_tokens: 1024
        """.formatted(anthropic.baseUrl(), KEY));
  }

  @AfterEach
  void stop() {
    model.close();
    anthropic.close();
  }

  private static final String TURN = """
      {"instructions": "Be brief.", "temperature": 0.5, "tool_choice": "required",
       "tools": [{"type": "function", "name": "get_weather", "description": "Weather now",
                  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
       "input": [{"role": "developer", "content": "Use tools."},
                 {"role": "user", "content": "Weather in Paris?"},
                 {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Ask."}],
                  "encrypted_content": "sig-1"},
                 {"type": "function_call", "call_id": "toolu_1", "name": "get_weather",
                  "arguments": "{\\"city\\": \\"Paris\\"}"},
                 {"type": "function_call_output", "call_id": "toolu_1", "output": "18C"}]}""";

  @Test
  void aResponsesCallBecomesOneMessagesCall() {
    anthropic.answer("""
        [{"type": "thinking", "thinking": "It is sunny.", "signature": "sig-2"},
         {"type": "text", "text": "Sunny, "}, {"type": "text", "text": "18C."},
         {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Lyon"}}]""",
        "tool_use", 40, 12);
    Response response = model.responses(TURN);

    ObjectNode sent = anthropic.received.getLast();
    assertThat(sent.get("model").asString()).isEqualTo("claude-sonnet-4-6");
    assertThat(sent.get("max_tokens").asInt()).isEqualTo(4096);
    assertThat(sent.get("temperature").asDouble()).isEqualTo(0.5);
    assertThat(sent.get("thinking").get("type").asString()).isEqualTo("enabled");
    assertThat(sent.get("thinking").get("budget_tokens").asInt()).isEqualTo(1024);
    assertThat(sent.get("system").findValuesAsString("text")).containsExactly("Be brief.", "Use tools.");
    JsonNode messages = sent.get("messages");
    assertThat(messages).hasSize(3);
    assertThat(messages.get(1).get("role").asString()).isEqualTo("assistant");
    assertThat(messages.get(1).get("content").get(0).get("signature").asString()).isEqualTo("sig-1");
    assertThat(messages.get(1).get("content").get(1).get("input").get("city").asString()).isEqualTo("Paris");
    assertThat(messages.get(2).get("content").get(0).get("tool_use_id").asString()).isEqualTo("toolu_1");
    assertThat(sent.get("tools").get(0).get("input_schema").get("type").asString()).isEqualTo("object");
    assertThat(sent.get("tool_choice").get("type").asString()).isEqualTo("any");
    assertThat(anthropic.headers.getLast().get("anthropic-version")).isEqualTo("2023-06-01");
    assertThat(anthropic.headers.getLast()).doesNotContainKey("authorization");

    JsonNode output = response.json().get("output");
    assertThat(output).hasSize(3);
    assertThat(output.get(0).get("type").asString()).isEqualTo("reasoning");
    assertThat(output.get(0).get("summary").get(0).get("text").asString()).isEqualTo("It is sunny.");
    assertThat(output.get(0).get("encrypted_content").asString()).isEqualTo("sig-2");
    assertThat(output.get(1).get("content").get(0).get("text").asString()).isEqualTo("Sunny, 18C.");
    assertThat(output.get(2).get("call_id").asString()).isEqualTo("toolu_2");
    assertThat(output.get(2).get("arguments").asString()).isEqualTo("{\"city\":\"Lyon\"}");
    assertThat(response.status()).isEqualTo("completed");
    assertThat(response.usage().orElseThrow().inputTokens()).isEqualTo(40);
    assertThat(response.usage().orElseThrow().totalTokens()).isEqualTo(52);
    assertThat(response.json().get("usage").get("input_tokens_details").get("cached_tokens").asInt()).isEqualTo(3);
  }

  @Test
  void maxTokensMakesAnIncompleteResponse() {
    anthropic.answer("[{\"type\": \"text\", \"text\": \"cut\"}]", "max_tokens", 5, 4096);
    Response response = model.responses("{\"input\": \"write a novel\", \"max_output_tokens\": 64}");
    assertThat(anthropic.received.getLast().get("max_tokens").asInt()).isEqualTo(64);
    assertThat(response.status()).isEqualTo("incomplete");
    assertThat(response.json().get("incomplete_details").get("reason").asString()).isEqualTo("max_output_tokens");
  }

  @Test
  void chatCompletionsAreServedToo() {
    anthropic.answer("""
        [{"type": "thinking", "thinking": "Need a tool.", "signature": "s"},
         {"type": "tool_use", "id": "toolu_9", "name": "get_weather", "input": {"city": "Rome"}}]""",
        "tool_use", 20, 8);
    HttpReply reply = model.post("/v1/chat/completions", """
        {"model": "any", "max_tokens": 100, "messages": [{"role": "system", "content": "Be brief."},
          {"role": "user", "content": "Weather in Rome?"}],
         "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]}""");
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    ObjectNode sent = anthropic.received.getLast();
    assertThat(sent.get("system").get(0).get("text").asString()).isEqualTo("Be brief.");
    assertThat(sent.get("max_tokens").asInt()).isEqualTo(100);
    assertThat(sent.get("tools").get(0).get("name").asString()).isEqualTo("get_weather");
    JsonNode choice = reply.json().get("choices").get(0);
    assertThat(choice.get("finish_reason").asString()).isEqualTo("tool_calls");
    assertThat(choice.get("message").get("reasoning_content").asString()).isEqualTo("Need a tool.");
    assertThat(choice.get("message").get("tool_calls").get(0).get("function").get("arguments").asString())
        .isEqualTo("{\"city\":\"Rome\"}");
    assertThat(reply.json().get("usage").get("total_tokens").asInt()).isEqualTo(28);
  }

  @Test
  void messagesThroughAnthropicModelKeepThinkingSignaturesAndRedactedThinking() {
    anthropic.answer("[{\"type\": \"redacted_thinking\", \"data\": \"opaque\"}, {\"type\": \"text\", \"text\": \"Hi\"}]",
        "end_turn", 3, 2);
    HttpReply first = model.post("/v1/messages", """
        {"model": "claude", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}""");
    assertThat(first.status()).as(first.text()).isEqualTo(200);
    JsonNode content = first.json().get("content");
    assertThat(content.get(0).get("type").asString()).isEqualTo("redacted_thinking");
    assertThat(content.get(0).get("data").asString()).isEqualTo("opaque");
    assertThat(content.get(1).get("text").asString()).isEqualTo("Hi");

    anthropic.answer("[{\"type\": \"text\", \"text\": \"Again\"}]", "end_turn", 3, 2);
    HttpReply second = model.post("/v1/messages", """
        {"model": "claude", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"},
          {"role": "assistant", "content": %s}, {"role": "user", "content": "again"}]}""".formatted(content));
    assertThat(second.status()).as(second.text()).isEqualTo(200);
    JsonNode replayed = anthropic.received.getLast().get("messages").get(1).get("content");
    assertThat(replayed.get(0).get("type").asString()).isEqualTo("redacted_thinking");
    assertThat(replayed.get(0).get("data").asString()).isEqualTo("opaque");
    assertThat(replayed.get(1).get("text").asString()).isEqualTo("Hi");
  }

  @Test
  void upstreamErrorsAreTypedFailuresThatNeverShowTheKey() {
    anthropic.error(400, "invalid_request_error", "bad request for key " + KEY);
    HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.text()).contains("invalid_request_error").doesNotContain(KEY);

    anthropic.error(529, "overloaded_error", "Overloaded");
    HttpReply overloaded = model.post("/v1/messages", """
        {"model": "claude", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}""");
    assertThat(overloaded.status()).isEqualTo(502);
    assertThat(overloaded.json().get("type").asString()).isEqualTo("error");
    assertThat(overloaded.json().get("error").get("message").asString()).contains("529").contains("Overloaded");
  }

  @Test
  void hostileAnswersAreTheUpstreamsFailureNotAReward() {
    anthropic.raw(200, "text/html", "<html>proxy login, x-api-key: " + KEY + "</html>", 0);
    HttpReply html = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(html.status()).isEqualTo(502);
    assertThat(html.text()).doesNotContain(KEY);

    anthropic.answer("[{\"type\": \"server_tool_use\", \"id\": \"x\"}]", "end_turn", 1, 1);
    HttpReply unknown = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(unknown.status()).isEqualTo(502);
    assertThat(unknown.text()).contains("server_tool_use");

    anthropic.raw(200, "application/json", """
        {"type": "message", "role": "assistant", "content": [], "stop_reason": "end_turn",
         "usage": {"input_tokens": -1, "output_tokens": 1}}""", 0);
    HttpReply negative = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(negative.status()).isEqualTo(502);
    assertThat(negative.text()).contains("non-negative integer");

    anthropic.answer("[{\"type\": \"tool_use\", \"id\": \"t\", \"name\": \"f\", \"input\": [1, 2]}]", "tool_use", 1, 1);
    assertThat(model.post("/v1/responses", "{\"input\": \"hi\"}").status()).isEqualTo(502);
  }

  @Test
  void whatAnthropicCannotTakeIsA422NamingTheField() {
    HttpReply reply = model.post("/v1/responses", """
        {"input": [{"type": "web_search_call", "id": "ws_1", "status": "completed"}]}""");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("input").contains("type");
    assertThat(anthropic.received).isEmpty();
  }

  @Test
  void aStopSequenceSurvivesTheRoundTrip() {
    anthropic.raw(200, "application/json", """
        {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude", "stop_reason": "stop_sequence",
         "stop_sequence": "END", "content": [{"type": "text", "text": "until "}],
         "usage": {"input_tokens": 2, "output_tokens": 1}}""", 0);
    HttpReply reply = model.post("/v1/messages", """
        {"model": "claude", "max_tokens": 5, "messages": [{"role": "user", "content": "go"}]}""");
    assertThat(reply.json().get("stop_reason").asString()).isEqualTo("stop_sequence");
  }

  @Test
  void anUpstreamPastTheDeadlineIsA504TimeoutError() throws Exception {
    model.close();
    model = new ModelHarness(dir, "anthropic_model", """
        anthropic_base_url: %s
        anthropic_api_key: %s
        anthropic_model: claude-sonnet-4-6
        max_tokens: 64
        """.formatted(anthropic.baseUrl(), KEY), "client_request_timeout_seconds: 1\n");
    anthropic.raw(200, "application/json", "{}", 5_000);
    // the deployment's own client gives up after 1 s too: ask with one that waits for the 504
    try (var client = java.net.http.HttpClient.newHttpClient()) {
      var reply = client.send(java.net.http.HttpRequest.newBuilder(model.url().resolve("/v1/messages"))
          .timeout(java.time.Duration.ofSeconds(60)).POST(java.net.http.HttpRequest.BodyPublishers.ofString("""
              {"model": "claude", "max_tokens": 5, "messages": [{"role": "user", "content": "go"}]}""")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(reply.statusCode()).isEqualTo(504);
      assertThat(dev.gym4j.json.Json.parse(reply.body()).get("error").get("type").asString()).isEqualTo("timeout_error");
    }
  }
}
