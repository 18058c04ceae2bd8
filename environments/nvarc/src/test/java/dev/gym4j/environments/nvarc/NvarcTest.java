package dev.gym4j.environments.nvarc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/nvarc/app.py and problem.py (main, 2026-08-22) and its recorded
 * rollouts; the grids below are what that code's {@code _parse_grid} gives (CPython 3.12).
 */
class NvarcTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "nvarc";
  }

  /** The transductive rows of example_rollouts.jsonl (lines 1–3), unchanged. */
  @Override
  protected List<String> rolloutFiles() {
    return List.of("example_rollouts_transductive.jsonl");
  }

  @Override
  protected List<String> notReproduced() {
    String reason = ": inductive mode, the model's Python transform() must run (NeMo Gym runs it in a subprocess; "
        + "gym4j answers 422 naming agent_mode)";
    return List.of("example_rollouts.jsonl line 4" + reason, "example_rollouts.jsonl line 5" + reason);
  }

  @Override
  protected List<String> verifyFields() {
    return Nvarc.FIELDS;
  }

  @Test
  void gridsAsBoardFromText() {
    assertGrid("<think>1 2</think> \\boxed{\n1 2\n3 4\n} done", "[[1, 2], [3, 4]]");
    assertGrid("1, 2, 3\n4, 5, 6", "[[1, 2, 3], [4, 5, 6]]");
    assertGrid("row: 1 2 10\nrow: 3 4 x", "[[1, 2], [3, 4]]");
    assertGrid("\\boxed{1 2}\n\\boxed{3 4}", null);
    assertGrid("1 2\n3", null);
    assertGrid("no grid", null);
    assertGrid("[[1,2],[3,4]]", null);
    assertGrid("1２ 3", "[[3]]");
  }

  @Test
  void inductiveRowsAreRefusedNamingTheField() {
    List<JsonNode> recorded = EnvironmentHarness.joined(Json.readLines(fixture("example_rollouts.jsonl")),
        Json.readLines(fixture("example.jsonl")));
    for (JsonNode row : recorded.subList(3, 5)) {
      assertThat(row.get("agent_mode").asString()).isEqualTo("inductive");
      ObjectNode request = ((ObjectNode) row).deepCopy();
      request.remove(List.of("reward", "_ng_task_index", "_ng_rollout_index"));
      var reply = harness().post("/verify", request, Map.of());
      assertThat(reply.status()).isEqualTo(422);
      assertThat(reply.text()).contains("agent_mode").contains("sandbox");
    }
  }

  @Test
  void anInductiveDeploymentDoesNotStart() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnvironmentHarness.start("nvarc",
        "++nvarc_transductive_resources_server.resources_servers.nvarc.agent_mode=inductive").close())
        .hasMessageContaining("agent_mode");
  }

  private static void assertGrid(String text, String grid) {
    assertThat(Boards.parse(text) == null ? null : Json.toTree(Boards.parse(text))).as(text)
        .isEqualTo(grid == null ? null : Json.parse(grid));
  }
}
