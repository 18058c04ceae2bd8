package dev.gym4j.environments.proof_genselect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/proof_genselect/app.py (main, 2026-08-22) and its recorded rollouts,
 * joined by {@code _ng_task_index} to the materialized inputs they were made from.
 */
class ProofGenselectTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "proof_genselect";
  }

  @Override
  protected String taskFile() {
    return "example_rollouts_materialized_inputs.jsonl";
  }

  /** NeMo Gym's verify response is the plain base one: the request and the reward, nothing else. */
  @Override
  protected List<String> verifyFields() {
    return List.of();
  }

  @Test
  void theTagAfterTheLastThinkEnd() {
    assertThat(ProofGenselect.bestSolution("x</think> <best_solution> 2 </best_solution>", false)).isEqualTo(2);
    assertThat(ProofGenselect.bestSolution("<best_solution>1</best_solution></think>none", false)).isNull();
    assertThat(ProofGenselect.bestSolution("<best_solution>3</best_solution>", false)).isNull();
    assertThat(ProofGenselect.bestSolution("<best_solution>+02</best_solution>", false)).isEqualTo(2);
    assertThat(ProofGenselect.bestSolution("<best_solution>two</best_solution>", false)).isNull();
    assertThat(ProofGenselect.bestSolution("</best_solution><best_solution>1", false)).isEqualTo(1);
    assertThat(ProofGenselect.bestSolution("<best_solution>1</best_solution>", true)).isNull();
  }

  @Test
  void assertThinkEndComesFromTheConfig() {
    JsonNode row = EnvironmentHarness.joined(Json.readLines(fixture("example_rollouts.jsonl")),
        Json.readLines(fixture(taskFile()))).get(1);
    assertThat(row.get("reward").asDouble()).isEqualTo(1.0);
    try (var strict = EnvironmentHarness.start("proof_genselect",
        "++proof_genselect.resources_servers.proof_genselect.assert_think_end=true")) {
      // the recorded answer has its reasoning in a reasoning item, so its message holds no </think>
      assertThat(strict.verify(row).get("reward").asDouble()).isZero();
    }
  }
}
