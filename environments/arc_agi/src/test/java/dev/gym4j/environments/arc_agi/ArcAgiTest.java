package dev.gym4j.environments.arc_agi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/arc_agi/app.py (main, 2026-08-22) and its recorded rollouts; the
 * grids below are what that app.py's {@code _parse_grid} gives for the same texts (CPython 3.12).
 */
class ArcAgiTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "arc_agi";
  }

  @Override
  protected List<String> verifyFields() {
    return ArcAgi.FIELDS;
  }

  @Test
  void gridsAsNemoGymsRegexesFindThem() {
    assertGrid("so \\boxed{[[1, 2],\n [3, 4]]}", "[[1, 2], [3, 4]]");
    assertGrid("[[1]] and [[2]]", "[[1]]");
    assertGrid("first [[1,2]] x [ [3] ] ]", "[[1, 2]]");
    assertGrid("\\boxed{[[]]} then [[5]]", "[[5]]");
    assertGrid("\\boxed{[[1]] } [[7]]", "[[1]]");
    assertGrid("[[1]][[2]]", null);
    assertGrid("[[1, [2]]] then [[3]]", "[[3]]");
    assertGrid("[[], [1]]", null);
    assertGrid("[[1]] ]", null);
  }

  @Test
  void aLongRunOfBracketsIsReadInOnePass() {
    // a guard against a hang, not a speed test: the backtracking regexes take hours on this text
    assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThat(Grids.parse("[ [" + "1,[".repeat(200_000) + " x")).isNull());
  }

  @Test
  void aWrongGridScoresZeroButIsReported() {
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"expected_output\": [[1, 2]], \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": \"\\\\boxed{[[1, 3]]}\"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("extraction_successful").asBoolean()).isTrue();
    assertThat(verdict.get("predicted_output")).isEqualTo(Json.parse("[[1, 3]]"));
    var bad = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"expected_output\": [1, 2], \"response\": {\"output\": []}}"), Map.of());
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.text()).contains("expected_output");
  }

  private static void assertGrid(String text, String grid) {
    assertThat(Grids.parse(text)).as(text).isEqualTo(grid == null ? null : Json.parse(grid));
  }
}
