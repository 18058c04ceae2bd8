package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerHost;
import dev.gym4j.wire.Response;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * litellm_model against a fake LiteLLM proxy that answers as one does, quirks included (NeMo Gym:
 * responses_api_models/litellm_model/app.py and its tests/test_app.py): the version report at start, a native
 * Responses answer with {@code reasoning.effort: "none"}, and answers downgraded to {@code chat.completion}.
 */
class LiteLLMModelTest {
  private static final String KEY = "sk-litellm-secret-42";
  @TempDir
  Path dir;
  private FakeProxy proxy;
  private ModelHarness model;

  @AfterEach
  void stop() {
    if (model != null) {
      model.close();
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  private ModelHarness start(String version) {
    proxy = new FakeProxy(200, version == null ? "{\"status\": \"healthy\"}"
        : "{\"status\": \"healthy\", \"litellm_version\": \"" + version + "\"}");
    return new ModelHarness(dir, "litellm_model", """
        openai_base_url: http://127.0.0.1:%d/v1
        openai_api_key: %s
        openai_model: proxied-model
        """.formatted(proxy.port(), KEY));
  }

  @Test
  void theVersionCheckSendsTheKeyBothWaysAndPassesSafeVersions() {
    for (String version : List.of("1.83.0", "v1.84.2-stable", "1.83.1-stable.patch.2", "2.0.0.post3")) {
      model = start(version);
      assertThat(proxy.healthHeaders.get("authorization")).isEqualTo("Bearer " + KEY);
      assertThat(proxy.healthHeaders.get("x-litellm-key")).isEqualTo(KEY);
      model.close();
      proxy.close();
      model = null;
    }
  }

  @Test
  void anUnsafeOrUnknownVersionStopsTheServerWithOneClearReasonAndNoKey() {
    Map<String, String> refused = Map.of(
        "1.82.7", "credential-stealing", "1.82.8", "credential-stealing", "1.80.9", "below the minimum safe version",
        "0.99.0", "below the minimum safe version", "1.83.0-evil", "cannot read", "latest", "cannot read");
    refused.forEach((version, reason) -> {
      assertThatThrownBy(() -> start(version)).as(version).hasStackTraceContaining(reason)
          .satisfies(e -> assertThat(stackText(e)).doesNotContain(KEY));
      proxy.close();
    });
    assertThatThrownBy(() -> start(null)).hasStackTraceContaining("did not report litellm_version");
    proxy.close();
    proxy = new FakeProxy(500, "{\"detail\": \"down, key " + KEY + "\"}");
    assertThatThrownBy(() -> new ModelHarness(dir, "litellm_model", """
        openai_base_url: http://127.0.0.1:%d/v1/
        openai_api_key: %s
        openai_model: m
        """.formatted(proxy.port(), KEY))).hasStackTraceContaining("it answered 500")
        .satisfies(e -> assertThat(stackText(e)).doesNotContain(KEY));
  }

  /** NeMo Gym's configs/litellm_model.yaml, unchanged, given the three policy_* values, starts and serves. */
  @Test
  void nemoGymsConfigStartsAsItIs() {
    proxy = new FakeProxy(200, "{\"litellm_version\": \"1.83.0\"}");
    var config = new dev.gym4j.config.ConfigLoader(List.of(dev.gym4j.testing.Fixtures.projectRoot()), Map.of())
        .load(List.of("+config_paths=[models/configs/litellm_model.yaml]", "++head_server.port=0",
            "+policy_base_url=http://127.0.0.1:" + proxy.port() + "/v1", "+policy_api_key=" + KEY,
            "+policy_model_name=proxied-model"));
    proxy.answers.add("{\"object\": \"chat.completion\", \"choices\": [{\"message\": {\"role\": \"assistant\", "
        + "\"content\": \"from the proxy\"}}]}");
    try (var deployment = dev.gym4j.run.Deployment.start(config, dev.gym4j.server.Implementations.load(),
        java.util.Set.of())) {
      HttpReply reply = deployment.client().post("policy_model", "/v1/responses", Json.parse("{\"input\": \"q\"}"),
          Map.of());
      assertThat(Response.of(reply.json()).outputText()).isEqualTo("from the proxy");
    }
  }

  @Test
  void reasoningEffortNoneBecomesNull() {
    model = start("1.83.0");
    proxy.answers.add("""
        {"id": "resp_1", "object": "response", "created_at": 5, "model": "proxied-model", "status": "completed",
         "reasoning": {"effort": "none", "summary": null}, "parallel_tool_calls": true, "tool_choice": "auto",
         "tools": [], "output": [{"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "hi", "annotations": []}]}]}""");
    Response response = model.responses("{\"input\": \"hello\"}");
    assertThat(response.json().at("/reasoning/effort").isNull()).isTrue();
    assertThat(response.outputText()).isEqualTo("hi");
    assertThat(proxy.received.getFirst().get("model").asString()).isEqualTo("proxied-model");
  }

  @Test
  void aChatCompletionAnswerBecomesAResponse() {
    model = start("1.83.0");
    proxy.answers.add("""
        {"id": "chatcmpl-9", "object": "chat.completion", "created": 1700000000, "model": "proxied-model",
         "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": "Let me look.",
           "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_weather",
                           "arguments": "{\\"city\\": \\"Paris\\"}"}}]}}],
         "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19,
                   "prompt_tokens_details": {"cached_tokens": 4}, "completion_tokens_details": {"reasoning_tokens": 2}}}""");
    Response response = model.responses("{\"input\": \"weather?\"}");
    JsonNode json = response.json();
    assertThat(json.get("id").asString()).isEqualTo("chatcmpl-9");
    assertThat(json.get("object").asString()).isEqualTo("response");
    assertThat(json.get("created_at").asLong()).isEqualTo(1700000000L);
    assertThat(json.at("/output/0/type").asString()).isEqualTo("message");
    assertThat(response.outputText()).isEqualTo("Let me look.");
    assertThat(json.at("/output/1/type").asString()).isEqualTo("function_call");
    assertThat(json.at("/output/1/call_id").asString()).isEqualTo("call_1");
    assertThat(json.at("/output/1/name").asString()).isEqualTo("get_weather");
    assertThat(json.get("parallel_tool_calls").asBoolean()).isFalse();
    assertThat(json.get("tool_choice").asString()).isEqualTo("auto");
    assertThat(json.at("/usage/input_tokens").asLong()).isEqualTo(12);
    assertThat(json.at("/usage/output_tokens").asLong()).isEqualTo(7);
    assertThat(json.at("/usage/total_tokens").asLong()).isEqualTo(19);
    assertThat(json.at("/usage/input_tokens_details/cached_tokens").asLong()).isEqualTo(4);
    assertThat(json.at("/usage/output_tokens_details/reasoning_tokens").asLong()).isEqualTo(2);
  }

  @Test
  void aChatCompletionWithoutAUsableMessageIsAnEmptyAnswer() {
    model = start("1.83.0");
    proxy.answers.add("{\"id\": \"x\", \"object\": \"chat.completion\", \"choices\": [{\"message\": \"not an object\"}], "
        + "\"usage\": {\"input_tokens\": 3, \"output_tokens\": 0}}");
    proxy.answers.add("{\"object\": \"chat.completion\"}");
    for (int i = 0; i < 2; i++) {
      Response response = model.responses("{\"input\": \"q\"}");
      assertThat(response.output()).hasSize(1);
      assertThat(response.outputText()).isEmpty();
      assertThat(response.json().at("/output/0/role").asString()).isEqualTo("assistant");
    }
  }

  @Test
  void aFailingProxyIsAGatewayErrorThatNamesNoKey() {
    model = start("1.83.0");
    proxy.status = 500;
    proxy.answers.add("{\"error\": {\"message\": \"upstream blew up; auth was Bearer " + KEY + "\"}}");
    HttpReply reply = model.post("/v1/responses", "{\"input\": \"q\"}");
    assertThat(reply.status()).isBetween(500, 504);
    assertThat(reply.text()).doesNotContain(KEY);
  }

  private static String stackText(Throwable e) {
    var out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }

  /** A LiteLLM proxy on a port of its own: its readiness report, and /v1/responses answers in order. */
  private static final class FakeProxy implements AutoCloseable {
    final Queue<String> answers = new ConcurrentLinkedQueue<>();
    final List<JsonNode> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile Map<String, String> healthHeaders = Map.of();
    volatile int status = 200;
    private final WebServer server;

    FakeProxy(int healthStatus, String health) {
      HttpRouting.Builder routing = HttpRouting.builder()
          .get("/health/readiness/details", (req, res) -> {
            Map<String, String> headers = new java.util.HashMap<>();
            req.headers().forEach(h -> headers.put(h.name().toLowerCase(java.util.Locale.ROOT), h.get()));
            healthHeaders = headers;
            res.status(Status.create(healthStatus)).send(health);
          })
          .post("/v1/responses", (req, res) -> {
            received.add(Json.parse(req.content().as(String.class)));
            String answer = answers.poll();
            res.status(Status.create(answer == null ? 500 : status)).header("Content-Type", "application/json")
                .send(answer == null ? "{\"error\": {\"message\": \"nothing scripted\"}}" : answer);
          });
      server = ServerHost.builder("127.0.0.1", 0).routing(routing).build().start();
    }

    int port() {
      return server.port();
    }

    @Override
    public void close() {
      server.stop();
    }
  }
}
