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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, item 10, end to end: a rollout whose session is evicted (max_sessions reached) fails as
 * {@code verify_error}; it is never scored from an empty session. The counter task below would score 1.0
 * on an empty session (expected_count 0), so a reward would be a fake one.
 */
class SessionEvictionTest {
  private static final String ROW = """
      {"responses_create_params": {"input": "leave it at zero",
        "tools": [{"type": "function", "name": "increment_counter", "parameters": {"type": "object"}}]},
       "initial_count": 0, "expected_count": 0}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  @Test
  void a_rollout_whose_session_was_evicted_fails_instead_of_being_scored_issue_14() {
    model = ScriptedUpstream.start();
    deployment = Deployment.start(TestConfigs.load(dir, TestConfigs.counterAgentYaml(model.baseUrl())
        .replace("test_counter: {domain: other}", "test_counter: {domain: other, max_sessions: 1}")),
        Implementations.load(), Set.of());
    // while the rollout waits for its model, another rollout starts on the full environment
    model.otherwise(request -> {
      HttpReply other = deployment.client().post("counter", "/seed_session", Json.parse("{}"), Map.of());
      assertThat(other.status()).isEqualTo(200);
      return Answer.text("left it at zero");
    });

    HttpReply reply = deployment.client().post("agent", "/run", Json.parse(ROW), Map.of());

    // the environment's 409 is passed on (issue 14, item 7), as a typed failure, never a reward
    assertThat(reply.status()).as(reply.text()).isEqualTo(409);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("verify_error");
    assertThat(reply.json().get("detail").asString()).contains("max_sessions");
    assertThat(reply.json().has("reward")).isFalse();
  }
}
