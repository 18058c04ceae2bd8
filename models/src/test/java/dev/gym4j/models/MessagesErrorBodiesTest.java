package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Every failure on {@code /v1/messages} of a model server, and under it, has Anthropic's error body
 * {@code {"type": "error", "error": {"type", "message"}}} with the type of its status, as Anthropic's SDKs read it
 * (their reading is in AnthropicSdkConformanceTest); the other routes keep theirs. NeMo Gym read:
 * nemo_gym/base_responses_api_model.py ({@code messages}, whose failures are FastAPI's {@code detail}: see README),
 * responses_api_models/anthropic_model/app.py.
 */
class MessagesErrorBodiesTest {
  static final String OK = """
      {"model": "claude", "max_tokens": 16, "messages": [{"role": "user", "content": "%s"}]}""";

  @TempDir
  Path dir;
  ScriptedUpstream vllm;
  ModelHarness model;

  @BeforeEach
  void start() {
    vllm = ScriptedUpstream.start();
    vllm.otherwise(request -> request.toString().contains("FAIL_UPSTREAM") ? Answer.error(500, "{\"error\": \"boom\"}")
        : Answer.text("Hi."));
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: dummy
        model: policy
        return_token_id_information: false
        uses_reasoning_parser: false
        max_body_bytes: 4096
        """.formatted(vllm.baseUrl()));
  }

  @AfterEach
  void stop() {
    model.close();
    vllm.close();
  }

  private HttpReply send(String method, String path, String body) {
    return model.deployment.client().send(model.url().resolve(path), method, body.getBytes(), Map.of(), Map.of());
  }

  private static void assertAnthropicError(HttpReply reply, int status, String type, String message) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    JsonNode body = reply.json();
    assertThat(body.get("type").asString()).isEqualTo("error");
    assertThat(body.get("error").get("type").asString()).isEqualTo(type);
    assertThat(body.get("error").get("message").asString()).contains(message);
    assertThat(body.has("detail")).isFalse();
  }

  @Test
  void eachStatusOfTheRouteHasAnthropicsBody() {
    assertThat(send("POST", "/v1/messages", OK.formatted("hello")).status()).isEqualTo(200);
    assertAnthropicError(send("POST", "/v1/messages", "{\"model\": \"claude\", \"max_tokens\": 16}"), 400,
        "invalid_request_error", "messages: Field required");
    assertAnthropicError(send("POST", "/v1/messages", OK.formatted("x".repeat(5000))), 413, "request_too_large",
        "larger than 4096 bytes");
    assertAnthropicError(send("GET", "/v1/messages", ""), 405, "invalid_request_error", "Method Not Allowed");
    HttpReply upstream = send("POST", "/v1/messages", OK.formatted("FAIL_UPSTREAM"));
    assertAnthropicError(upstream, 502, "api_error", "500");
    assertThat(upstream.headers().keySet()).anyMatch(name -> name.equalsIgnoreCase(
        dev.gym4j.client.ServerClient.UPSTREAM_FAILURE_HEADER));
  }

  @Test
  void pathsUnderTheRouteAreAnthropicsNotFound() {
    assertAnthropicError(send("POST", "/v1/messages/count_tokens", OK.formatted("hi")), 404, "not_found_error",
        "Not Found");
    assertAnthropicError(send("GET", "/v1/messages/batches/msgbatch_1", ""), 404, "not_found_error", "Not Found");
  }

  @Test
  void otherRoutesKeepTheirOwnErrorBodies() {
    HttpReply elsewhere = send("POST", "/v1/messagesX", "{}");
    assertThat(elsewhere.status()).isEqualTo(404);
    assertThat(elsewhere.json().get("detail").asString()).isEqualTo("Not Found");
    HttpReply openAI = send("POST", "/v1/responses", "{\"input\": 5}");
    assertThat(openAI.status()).isEqualTo(422);
    assertThat(openAI.json().get("error").get("param").asString()).isEqualTo("input");
    assertThat(openAI.json().has("detail")).isTrue();
  }
}
