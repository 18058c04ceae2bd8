package dev.gym4j.environments.swe_pivot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Against NeMo Gym's resources_servers/swe_pivot/app.py (main, 2026-08-22) and its recorded rollouts. */
class SwePivotTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "swe_pivot";
  }

  @Override
  protected List<String> verifyFields() {
    return SwePivot.FIELDS;
  }

  /**
   * verify_cases.jsonl: expected actions, model calls and configs with the verify response NeMo Gym's
   * swe_pivot gives them (CPython 3.12): every failure reason, both reward modes, each tool category,
   * arguments that are not an object.
   */
  @Test
  void everyLevelAsNemoGym() {
    List<JsonNode> cases = Json.readLines(Path.of("src", "test", "resources", "verify_cases.jsonl"));
    try (var continuous = EnvironmentHarness.start("swe_pivot",
        "++swe_pivot.resources_servers.swe_pivot.reward_mode=continuous")) {
      for (JsonNode c : cases) {
        ObjectNode request = ((ObjectNode) c.get("request")).deepCopy();
        request.set("responses_create_params", Json.parse("{\"input\": \"q\"}"));
        ObjectNode response = request.putObject("response");
        response.set("output", c.get("output"));
        var harness = c.path("config").path("reward_mode").asString("binary").equals("continuous") ? continuous
            : harness();
        JsonNode verdict = harness.post("/verify", request, Map.of()).json();
        for (var field : c.get("verdict").properties()) {
          JsonNode expected = field.getValue();
          JsonNode actual = verdict.path(field.getKey());
          String where = c.get("output").toString() + " " + field.getKey();
          if (expected.isNumber()) {
            assertThat(actual.asDouble(Double.NaN)).as(where).isCloseTo(expected.asDouble(), within(1e-12));
          } else {
            assertThat(actual).as(where).isEqualTo(expected);
          }
        }
      }
    }
    assertThat(cases).hasSize(17);
  }

  @Test
  void toolCategoriesTakeCamelCaseNames() {
    assertThat(Actions.category("StrReplaceEditor")).isEqualTo("edit");
    assertThat(Actions.category("EXECUTE_BASH")).isEqualTo("bash");
    assertThat(Actions.category("frobnicate")).isEqualTo("unknown");
    assertThat(Actions.pathsInCommand("cd /repo && pytest tests/x.py --flag=./a/b \"../q\"")).containsExactly("/repo",
        "tests/x.py", "./a/b", "../q");
  }
}
