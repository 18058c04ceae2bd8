package dev.gym4j.environments.math_proof_judgement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/math_proof_judgement/app.py (main, 2026-08-22) and its recorded
 * rollouts; the verdicts and metrics below are what that app.py's functions give (CPython 3.12).
 */
class MathProofJudgementTest extends RecordedFieldsTest {
  private static final String ROWS = "{\"verify_responses\": ["
      + "{\"_ng_task_index\": 0, \"expected_judgement\": \"Judgement: Yes\", \"extracted_judgement\": \"Yes\"}, "
      + "{\"_ng_task_index\": 0, \"expected_judgement\": \"Judgement: Yes\", \"extracted_judgement\": \"No\"}, "
      + "{\"_ng_task_index\": 0, \"expected_judgement\": \"Judgement: Yes\", \"extracted_judgement\": null}, "
      + "{\"_ng_task_index\": 1, \"expected_judgement\": \"Judgement: No\", \"extracted_judgement\": \"Yes\"}, "
      + "{\"_ng_task_index\": 1, \"expected_judgement\": \"Judgement: No\", \"extracted_judgement\": \"Yes\"}, "
      + "{\"_ng_task_index\": 1, \"expected_judgement\": \"Judgement: No\", \"extracted_judgement\": \"No\"}, "
      + "{\"_ng_task_index\": 2, \"expected_judgement\": \"Judgement: Yes\", \"extracted_judgement\": \"No\"}]}";
  private static final String METRICS = "{\"pass@1[avg-of-1]/precision\": 50.0, \"pass@1[avg-of-1]/recall\": 50.0, "
      + "\"pass@1[avg-of-1]/f1\": 50.0, \"pass@1[avg-of-2]/precision\": 25.0, \"pass@1[avg-of-2]/recall\": 25.0, "
      + "\"pass@1[avg-of-2]/f1\": 25.0, \"pass@1[avg-of-3]/precision\": 50.0, \"pass@1[avg-of-3]/recall\": "
      + "16.666666666666668, \"pass@1[avg-of-3]/f1\": 16.666666666666668, \"pass@1/precision\": 50.0, "
      + "\"pass@1/recall\": 50.0, \"pass@1/f1\": 50.0, \"pass@2/precision\": 50.0, \"pass@2/recall\": 50.0, "
      + "\"pass@2/f1\": 50.0, \"pass@3/precision\": 100.0, \"pass@3/recall\": 50.0, \"pass@3/f1\": 66.66666666666666, "
      + "\"majority@1/precision\": 50.0, \"majority@1/recall\": 50.0, \"majority@1/f1\": 50.0, "
      + "\"majority@2/precision\": 50.0, \"majority@2/recall\": 50.0, \"majority@2/f1\": 50.0, "
      + "\"majority@3/precision\": 50.0, \"majority@3/recall\": 50.0, \"majority@3/f1\": 50.0, "
      + "\"total_positives\": 2.0}";

  @Override
  protected String environment() {
    return "math_proof_judgement";
  }

  @Override
  protected List<String> verifyFields() {
    return MathProofJudgement.FIELDS;
  }

  @Test
  void theFirstJudgementCounts() {
    assertThat(MathProofJudgement.parse("**Judgement**: yes indeed")).isTrue();
    assertThat(MathProofJudgement.parse("judgement :  ** No")).isFalse();
    assertThat(MathProofJudgement.parse("Judgement: maybe")).isNull();
    assertThat(MathProofJudgement.parse("no verdict")).isNull();
    assertThat(MathProofJudgement.parse("x Judgement: No then Judgement: Yes")).isFalse();
  }

  @Test
  void classificationMetricsAsNemoSkills() {
    JsonNode metrics = harness().post("/aggregate_metrics", Json.parse(ROWS), Map.of()).json().get("agent_metrics");
    for (var expected : Json.parse(METRICS).properties()) {
      assertThat(metrics.path(expected.getKey()).asDouble(Double.NaN)).as(expected.getKey())
          .isCloseTo(expected.getValue().asDouble(), within(1e-9));
    }
  }
}
