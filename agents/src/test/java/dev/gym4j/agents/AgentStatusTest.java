package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's /v1/responses passes on the model's failure status instead of a 500 (issue 14, item 7). */
class AgentStatusTest {
  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    deployment = Deployment.start(TestConfigs.load(dir, """
        client_initial_backoff_seconds: 0.01
        client_max_backoff_seconds: 0.02
        client_max_attempts: 2
        """ + TestConfigs.counterAgentYaml(model.baseUrl())), Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  private HttpReply responses(String body) {
    return deployment.client().post("agent", "/v1/responses", Json.parse(body), Map.of());
  }

  @Test
  void a_request_the_model_refuses_is_the_models_4xx() {
    // vllm_model takes template arguments only as a JSON object in a metadata string
    HttpReply reply = responses("{\"input\": \"hi\", \"metadata\": {\"chat_template_kwargs\": \"[1]\"}}");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("model_error");
    assertThat(reply.text()).contains("chat_template_kwargs").doesNotContain("Exception");
  }

  @Test
  void a_failing_upstream_is_a_502() {
    model.enqueue(Answer.error(500, "{\"error\": \"engine dead\"}"), Answer.error(500, "{\"error\": \"engine dead\"}"));
    HttpReply reply = responses("{\"input\": \"hi\"}");
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.text()).contains("engine dead").doesNotContain("Exception");
  }
}
