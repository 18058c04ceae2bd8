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

class OpenAIModelTest {
  @TempDir
  Path dir;
  ScriptedUpstream openai;
  ModelHarness model;

  @BeforeEach
  void start() {
    openai = ScriptedUpstream.start();
    model = new ModelHarness(dir, "openai_model", """
        openai_base_url: %s
        openai_api_key: sk-live-123
        openai_model: gpt-4.1
        extra_body: {max_output_tokens: 512, temperature: 0.2}
        openai_default_headers: {OpenAI-Organization: org-1}
        drop_input_reasoning_items: true
        max_concurrent_requests: 4
        """.formatted(openai.baseUrl()));
  }

  @AfterEach
  void stop() {
    model.close();
    openai.close();
  }

  @Test
  void responsesPassThroughWithTheServersModelKeyAndDefaults() {
    openai.enqueue(Answer.text("Paris is cold.").withReasoning("easy"));
    Response response = model.responses("""
        {"input": [{"role": "user", "content": "q"},
                   {"type": "reasoning", "id": "rs_old", "summary": []},
                   {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"}]}],
         "temperature": 0.9, "model": "whatever", "some_new_openai_field": {"kept": true}}""");
    var received = openai.received().getFirst();
    assertThat(received.path()).isEqualTo("/v1/responses");
    assertThat(received.headers().get("Authorization")).isEqualTo("Bearer sk-live-123");
    assertThat(received.headers().get("OpenAI-Organization")).isEqualTo("org-1");
    ObjectNode body = received.body();
    assertThat(body.get("model").asString()).isEqualTo("gpt-4.1");
    assertThat(body.get("temperature").asDouble()).isEqualTo(0.9);
    assertThat(body.get("max_output_tokens").asInt()).isEqualTo(512);
    assertThat(body.get("some_new_openai_field")).isEqualTo(Json.parse("{\"kept\": true}"));
    assertThat(body.get("input")).hasSize(2);
    assertThat(body.at("/input/1/role").asString()).isEqualTo("assistant");

    assertThat(response.outputText()).isEqualTo("Paris is cold.");
    assertThat(response.output().getFirst().json().has("status")).as("reasoning items lose their status").isFalse();
    assertThat(response.usage().orElseThrow().totalTokens()).isPositive();
  }

  @Test
  void chatCompletionsPassThrough() {
    openai.enqueue(Answer.toolCall("get_weather", "{\"city\":\"Oslo\"}"));
    HttpReply reply = model.post("/v1/chat/completions", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().at("/choices/0/message/tool_calls/0/function/arguments").asString())
        .isEqualTo("{\"city\":\"Oslo\"}");
    assertThat(openai.received().getFirst().path()).isEqualTo("/v1/chat/completions");
    assertThat(openai.received().getFirst().body().get("model").asString()).isEqualTo("gpt-4.1");
  }

  @Test
  void aRateLimitIsRetriedAndAnAuthErrorIsAGatewayErrorWithoutTheKey() {
    openai.enqueue(Answer.error(429, "{\"error\": {\"message\": \"slow down\"}}"), Answer.text("ok"));
    assertThat(model.responses("{\"input\": \"hi\"}").outputText()).isEqualTo("ok");
    openai.enqueue(Answer.error(401, "{\"error\": {\"message\": \"Incorrect API key provided\"}}"));
    HttpReply reply = model.post("/v1/responses", "{\"input\": \"hi\"}");
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.text()).contains("answered 401").doesNotContain("sk-live-123");
  }
}
