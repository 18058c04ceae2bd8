package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * local_vllm_model_proxy (NeMo Gym: responses_api_models/local_vllm_model_proxy/app.py, configs/
 * local_vllm_model_proxy.yaml) beside a stand-in for the local_vllm_model whose vLLM server it shares, and the
 * GPU-only model servers' one-line refusal.
 */
class LocalVllmModelProxyTest {
  @TempDir
  Path dir;
  ScriptedUpstream vllm;
  Deployment deployment;

  @BeforeEach
  void startUpstream() {
    vllm = ScriptedUpstream.start();
  }

  @AfterEach
  void stop() {
    if (deployment != null) {
      deployment.close();
    }
    vllm.close();
  }

  private void start(String inner) {
    deployment = Deployment.start(TestConfigs.load(dir, ModelHarness.FAST_RETRIES + """
        gpt_oss:
          responses_api_models:
            test_local_vllm_model:
        %s
        policy_model_proxy:
          responses_api_models:
            local_vllm_model_proxy:
              return_token_id_information: false
              uses_reasoning_parser: true
              extra_body: {max_tokens: 10}
              model_server: {type: responses_api_models, name: gpt_oss}
        """.formatted(inner.indent(6).stripTrailing())), Implementations.load(), Set.of());
  }

  private HttpReply ask() {
    return deployment.client().post("policy_model_proxy", "/v1/responses", Json.parse("{\"input\": \"hi\"}"),
        Map.of());
  }

  @Test
  void theProxyServesThroughTheVllmServerItsModelServerNames() {
    start("inner: {base_url: \"%s\", api_key: inner-key, model: openai/gpt-oss-20b}".formatted(vllm.baseUrl()));
    vllm.enqueue(Answer.text("shared").withReasoning("thinking"));
    HttpReply reply = ask();
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    Response response = Response.of(reply.json());
    assertThat(response.outputText()).isEqualTo("shared");
    assertThat(response.json().at("/output/0/type").asString()).isEqualTo("reasoning");
    var received = vllm.received().getFirst();
    assertThat(received.body().get("model").asString()).isEqualTo("openai/gpt-oss-20b");
    assertThat(received.body().get("max_tokens").asInt()).isEqualTo(10);
    assertThat(received.headers().get("Authorization")).isEqualTo("Bearer inner-key");
  }

  @Test
  void untilTheModelServerIsUpACallIsAnUpstreamFailureThenItWorks() {
    start("fail_first: 2\ninner: {base_url: [\"%s\"], api_key: k, model: m}".formatted(vllm.baseUrl()));
    // the client retries a 503 within one call (3 attempts): the first call sees two 503s, then the answer
    vllm.enqueue(Answer.text("up now"));
    HttpReply reply = ask();
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    assertThat(Response.of(reply.json()).outputText()).isEqualTo("up now");
  }

  @Test
  void aModelServerThatAnswersNonsenseIsAnUpstreamFailureAndNoURLIsTakenFromIt() {
    start("garbage: true");
    HttpReply garbage = ask();
    assertThat(garbage.status()).isEqualTo(502);
    assertThat(garbage.text()).contains("is not JSON");
    deployment.close();
    deployment = null;
    start("inner: {base_url: \"file:///etc/passwd\", api_key: k, model: m}");
    HttpReply file = ask();
    assertThat(file.status()).isEqualTo(502);
    assertThat(file.text()).contains("lacks base_url (http URLs)");
    assertThat(vllm.calls()).isZero();
  }

  @Test
  void aProxyWithoutItsModelServersNameStopsAtStart() {
    assertThatThrownBy(() -> Deployment.start(TestConfigs.load(dir, """
        policy_model_proxy:
          responses_api_models:
            local_vllm_model_proxy:
              return_token_id_information: false
              uses_reasoning_parser: true
              model_server: {type: responses_api_models}
        """), Implementations.load(), Set.of())).hasMessageContaining("model_server.name");
  }

  /** NeMo Gym's own configs of the GPU-only servers, unchanged: each stops with one line naming what to use. */
  @Test
  void gpuModelServersStopWithOneLineNamingWhatToUseInstead() {
    for (String server : new String[] {"local_vllm_model", "genrm_model"}) {
      var config = new dev.gym4j.config.ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
          "+config_paths=[core/src/test/resources/nemo-gym-configs/responses_api_models/" + server + "/configs/"
              + server + ".yaml]", "++head_server.port=0", "+policy_model_name=Qwen/Qwen3-8B"));
      assertThatThrownBy(() -> Deployment.start(config, Implementations.load(), Set.of()))
          .hasMessageContaining(server + " starts vLLM").hasMessageContaining("use vllm_model")
          .hasMessageNotContaining("\n");
    }
  }

  /**
   * NeMo Gym's local_vllm_model_proxy.yaml, unchanged but for the model server it names (??? there): it starts beside
   * a model server still spinning up, and a call says which server it waits for.
   */
  @Test
  void nemoGymsProxyConfigStartsOnceItsModelServerIsNamed() {
    var config = new dev.gym4j.config.ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
        "+config_paths=[models/configs/local_vllm_model_proxy.yaml]", "++head_server.port=0",
        "++policy_model_proxy.responses_api_models.local_vllm_model_proxy.model_server.name=gpt_oss",
        "++gpt_oss.responses_api_models.test_local_vllm_model.fail_first=1000", "+client_initial_backoff_seconds=0.01",
        "+client_max_backoff_seconds=0.02", "+client_max_attempts=2"));
    try (Deployment started = Deployment.start(config, Implementations.load(), Set.of())) {
      HttpReply reply = started.client().post("policy_model_proxy", "/v1/responses", Json.parse("{\"input\": \"hi\"}"),
          Map.of());
      assertThat(reply.status()).isEqualTo(502);
      assertThat(reply.text()).contains("gpt_oss");
    }
  }
}
