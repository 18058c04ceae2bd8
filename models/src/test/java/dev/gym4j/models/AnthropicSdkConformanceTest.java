package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.gym4j.testkit.AnthropicSdks;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The official Anthropic SDKs (TypeScript from npm, Python from pip) as real clients of a model server's
 * {@code POST /v1/messages}, streaming and not, with thinking, a tool call and token ids: each SDK's typed objects
 * are read back field by field. Clients that ran: see the parameter of each test (both must run in CI,
 * {@code GYM4J_CI=1}). NeMo Gym read: nemo_gym/base_responses_api_model.py ({@code messages}),
 * nemo_gym/anthropic_converter.py.
 */
class AnthropicSdkConformanceTest {
  static final String SCENARIO = """
      {"request": {"model": "claude-policy", "max_tokens": 256, "system": "Be brief.",
                   "tools": [{"name": "get_weather", "description": "Weather now",
                              "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
                   "messages": [{"role": "user", "content": "Weather in Paris?"}]},
       "bad": {"model": "claude-policy", "max_tokens": 256, "messages": [{"role": "robot", "content": "hi"}]},
       "errors": [{"call": "count_tokens", "request": {"model": "claude-policy",
                                                      "messages": [{"role": "user", "content": "hi"}]}},
                  {"call": "create", "request": {"model": "claude-policy", "max_tokens": 8,
                                                 "messages": [{"role": "user", "content": "%s"}]}},
                  {"call": "create", "request": {"model": "claude-policy", "max_tokens": 8,
                                                 "messages": [{"role": "user", "content": "FAIL_UPSTREAM"}]}}]}"""
      .formatted("x".repeat(40_000));

  @TempDir
  Path dir;
  ScriptedUpstream vllm;
  ModelHarness model;

  @BeforeEach
  void start() {
    vllm = ScriptedUpstream.start();
    vllm.otherwise(request -> request.toString().contains("FAIL_UPSTREAM") ? Answer.error(500, "{\"error\": \"boom\"}")
        : Answer.text("Sunny.").withReasoning("Check the weather.").withToolCall("get_weather",
            "{\"city\": \"Paris\"}"));
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: dummy
        model: policy
        return_token_id_information: true
        uses_reasoning_parser: true
        max_body_bytes: 32768
        """.formatted(vllm.baseUrl()));
  }

  @AfterEach
  void stop() {
    model.close();
    vllm.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"typescript", "python"})
  void theSdkReadsEveryFieldStreamedOrNot(String sdk) {
    Path target = Path.of("target").toAbsolutePath();
    String base = model.url().toString();
    JsonNode result = sdk.equals("typescript") ? AnthropicSdks.typescript(target, base, SCENARIO)
        : AnthropicSdks.python(target, base, SCENARIO);
    assertThat(result.get("sdk").asString()).isEqualTo(sdk);
    JsonNode plain = result.get("plain");
    assertMessage(plain);
    JsonNode streamed = result.get("streamed");
    assertMessage(streamed);
    assertThat(normalized(streamed)).isEqualTo(normalized(plain));
    assertThat(result.get("events").get("message_start").asInt()).isEqualTo(1);
    assertThat(result.get("events").get("content_block_start").asInt()).isEqualTo(3);
    assertThat(result.get("events").get("message_stop").asInt()).isEqualTo(1);
    JsonNode error = result.get("error");
    assertThat(error.get("class").asString()).isEqualTo("BadRequestError");
    assertThat(error.get("status").asInt()).isEqualTo(400);
    assertThat(error.get("type").asString()).isEqualTo("invalid_request_error");
    assertThat(error.get("message").asString()).startsWith("messages.0.role:");
    // every other failure of the route, read through the SDK: its status, Anthropic's error type and our message
    JsonNode errors = result.get("errors");
    assertSdkError(errors.get(0), 404, "not_found_error", "Not Found");
    assertSdkError(errors.get(1), 413, "request_too_large", "larger than 32768 bytes");
    assertSdkError(errors.get(2), 502, "api_error", "answered 500");
  }

  static void assertSdkError(JsonNode error, int status, String type, String message) {
    assertThat(error.get("status").asInt()).as(error.toString()).isEqualTo(status);
    assertThat(error.get("type").asString()).isEqualTo(type);
    assertThat(error.get("message").asString()).contains(message);
  }

  static void assertMessage(JsonNode message) {
    assertThat(message.get("id").asString()).startsWith("msg_");
    assertThat(message.get("type").asString()).isEqualTo("message");
    assertThat(message.get("role").asString()).isEqualTo("assistant");
    assertThat(message.get("model").asString()).isEqualTo("claude-policy");
    assertThat(message.get("stop_reason").asString()).isEqualTo("tool_use");
    assertThat(message.get("stop_sequence").isNull()).isTrue();
    assertThat(message.get("usage").get("input_tokens").asInt()).isPositive();
    assertThat(message.get("usage").get("output_tokens").asInt()).isPositive();
    JsonNode content = message.get("content");
    assertThat(content).hasSize(3);
    assertThat(content.get(0).get("type").asString()).isEqualTo("thinking");
    assertThat(content.get(0).get("thinking").asString()).isEqualTo("Check the weather.");
    assertThat(content.get(0).get("signature").asString()).isEmpty();
    assertThat(content.get(1).get("type").asString()).isEqualTo("text");
    assertThat(content.get(1).get("text").asString()).isEqualTo("Sunny.");
    assertThat(content.get(2).get("type").asString()).isEqualTo("tool_use");
    assertThat(content.get(2).get("id").asString()).startsWith("chatcmpl-tool-");
    assertThat(content.get(2).get("name").asString()).isEqualTo("get_weather");
    assertThat(content.get(2).get("input").get("city").asString()).isEqualTo("Paris");
    // the token ids of the model call ride on the last block made from its output
    assertThat(content.get(2).get("generation_token_ids").size()).isPositive();
  }

  /** A message without what differs from call to call: its id and the tool call's id. */
  static ObjectNode normalized(JsonNode message) {
    ObjectNode copy = (ObjectNode) message.deepCopy();
    copy.remove("id");
    copy.get("content").forEach(block -> ((ObjectNode) block).remove("id"));
    return copy;
  }
}
