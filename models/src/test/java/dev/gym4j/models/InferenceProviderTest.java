package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * inference_provider against a scripted OpenAI-compatible chat endpoint (NeMo Gym:
 * responses_api_models/inference_provider/app.py): Responses in, chat out and back, reasoning as think blocks,
 * provider errors as typed failures.
 */
class InferenceProviderTest {
  @TempDir
  Path dir;
  ScriptedUpstream provider;
  ModelHarness model;

  @BeforeEach
  void startUpstream() {
    provider = ScriptedUpstream.start();
  }

  @AfterEach
  void stop() {
    if (model != null) {
      model.close();
    }
    provider.close();
  }

  private void start(String extra) {
    model = new ModelHarness(dir, "inference_provider", """
        base_url: %s
        api_key: sk-provider-77
        model: meta-llama/Llama-3.3-70B-Instruct
        """.formatted(provider.baseUrl()) + extra);
  }

  @Test
  void responsesGoOutAsChatWithTheServersModelKeyAndDefaults() {
    start("extra_body: {temperature: 0.3, top_p: 0.9}\n");
    provider.enqueue(Answer.text("Bonjour."));
    Response response = model.responses("{\"input\": [{\"role\": \"user\", \"content\": \"Say hello in French\"}], "
        + "\"temperature\": 0.7, \"model\": \"ignored\"}");
    var received = provider.received().getFirst();
    assertThat(received.path()).isEqualTo("/v1/chat/completions");
    assertThat(received.headers().get("Authorization")).isEqualTo("Bearer sk-provider-77");
    ObjectNode body = received.body();
    assertThat(body.get("model").asString()).isEqualTo("meta-llama/Llama-3.3-70B-Instruct");
    assertThat(body.get("temperature").asDouble()).isEqualTo(0.7);
    assertThat(body.get("top_p").asDouble()).isEqualTo(0.9);
    assertThat(body.at("/messages/0/content").asString()).isEqualTo("Say hello in French");
    assertThat(body.has("logprobs")).as("no token ids are asked for").isFalse();
    assertThat(response.outputText()).isEqualTo("Bonjour.");
    assertThat(response.json().get("model").asString()).isEqualTo("meta-llama/Llama-3.3-70B-Instruct");
    assertThat(response.json().get("created_at").asLong()).isPositive();
  }

  @Test
  void withTheReasoningParserReasoningBecomesAReasoningItemAndLeavesHistory() {
    start("uses_reasoning_parser: true\n");
    provider.enqueue(Answer.text("42").withReasoning("6 times 7"));
    Response response = model.responses("""
        {"input": [{"role": "user", "content": "first"},
                   {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                    "text": "<think>old thoughts</think>old answer"}]},
                   {"role": "user", "content": "6*7?"}]}""");
    assertThat(response.json().at("/output/0/type").asString()).isEqualTo("reasoning");
    assertThat(response.json().at("/output/0/summary/0/text").asString()).isEqualTo("6 times 7");
    assertThat(response.outputText()).isEqualTo("42");
    String history = provider.received().getFirst().body().at("/messages/1/content").asString();
    assertThat(history).isEqualTo("old answer");

    provider.enqueue(Answer.text("43").withReasoning("then add one"));
    HttpReply chat = model.post("/v1/chat/completions", "{\"messages\": [{\"role\": \"user\", \"content\": \"q\"}]}");
    assertThat(chat.json().at("/choices/0/message/content").asString()).isEqualTo("<think>then add one</think>43");
    assertThat(chat.json().at("/choices/0/message").has("reasoning_content")).isFalse();
  }

  @Test
  void toolCallsComeBackAsFunctionCalls() {
    start("");
    provider.enqueue(Answer.toolCall("get_weather", "{\"city\": \"Oslo\"}"));
    Response response = model.responses("{\"input\": \"weather in Oslo?\", \"tools\": [{\"type\": \"function\", "
        + "\"name\": \"get_weather\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": "
        + "{\"type\": \"string\"}}}}]}");
    assertThat(response.json().at("/output/0/type").asString()).isEqualTo("function_call");
    assertThat(response.json().at("/output/0/name").asString()).isEqualTo("get_weather");
    assertThat(provider.received().getFirst().body().at("/tools/0/function/name").asString()).isEqualTo("get_weather");
  }

  @Test
  void providerErrorsAndAnswersWithoutAMessageAreTypedFailuresThatNameNoKey() {
    start("");
    provider.enqueue(Answer.error(401, "{\"error\": {\"message\": \"bad key sk-provider-77\"}}"));
    HttpReply refused = model.post("/v1/responses", "{\"input\": \"q\"}");
    assertThat(refused.status()).isEqualTo(502);
    assertThat(refused.text()).doesNotContain("sk-provider-77");

    provider.enqueue(Answer.error(200, "{\"id\": \"x\", \"object\": \"chat.completion\", \"created\": 1, \"model\": "
        + "\"m\", \"choices\": []}"));
    HttpReply empty = model.post("/v1/responses", "{\"input\": \"q\"}");
    assertThat(empty.status()).isEqualTo(502);

    provider.enqueue(Answer.error(200, "<html>gateway</html>"));
    assertThat(model.post("/v1/responses", "{\"input\": \"q\"}").status()).isEqualTo(502);
  }

  @Test
  void aNonPositiveConcurrencyIsRefusedAtStart() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> start("num_concurrent_requests: 0\n"))
        .hasMessageContaining("num_concurrent_requests must be a positive integer");
    model = null;
  }

  @Test
  void theUpstreamsModelsRouteIsItsHealth() {
    start("");
    HttpReply health = model.deployment.client().get("policy_model", "/upstream_health");
    assertThat(Json.parse(health.text()).get("status").asString()).isEqualTo("ok");
  }
}
