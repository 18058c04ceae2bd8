package dev.gym4j.environments.imo_gradingbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/imo_gradingbench/app.py (main, 2026-08-22) and its recorded rollouts. */
class ImoGradingbenchTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "imo_gradingbench";
  }

  @Override
  protected List<String> verifyFields() {
    return ImoGradingbench.FIELDS;
  }

  @Test
  void theGradeIsTheLastWordWithoutMarkdown() {
    assertThat(ImoGradingbench.grade("The proof is fine.\n**Almost**.")).isEqualTo("almost");
    assertThat(ImoGradingbench.grade("grade: (incorrect)!")).isEqualTo("incorrect");
    assertThat(ImoGradingbench.grade("correct, I think")).isNull();
    assertThat(ImoGradingbench.grade("   ")).isNull();
    assertThat(ImoGradingbench.expectedGrade(" Partial ")).isEqualTo("partial");
  }

  @Test
  void bucketsPointsAndMeanAbsoluteError() {
    JsonNode verdict = verify("partial", "so... correct");
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("binary_match").asBoolean()).isFalse();
    assertThat(verdict.get("score_diff").asDouble()).isEqualTo(6.0);
    assertThat(verify("unknown", "correct").get("score_diff").isNull()).isTrue();
    JsonNode metrics = harness().post("/aggregate_metrics", Json.parse("{\"verify_responses\": ["
        + "{\"_ng_task_index\": 0, \"reward\": 0.0, \"score_diff\": 6.0}, {\"_ng_task_index\": 0, \"reward\": 1.0, "
        + "\"score_diff\": 0.0}, {\"_ng_task_index\": 1, \"reward\": 0.0, \"score_diff\": null}, "
        + "{\"_ng_task_index\": 1, \"reward\": 0.0, \"score_diff\": 1.0}]}"), Map.of()).json();
    assertThat(metrics.at("/agent_metrics/pass@1[avg-of-1]~1mae").asDouble()).isEqualTo(6.0);
    assertThat(metrics.at("/agent_metrics/pass@1[avg-of-2]~1mae").asDouble()).isEqualTo(7.0 / 3);
    assertThat(metrics.at("/agent_metrics/pass@2~1mae").asDouble()).isEqualTo(0.5);
    assertThat(metrics.at("/agent_metrics/mae_count").asDouble()).isEqualTo(3.0);
    assertThat(metrics.at("/key_metrics/mae").asDouble()).isEqualTo(7.0 / 3);
  }

  private JsonNode verify(String expected, String text) {
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"expected_answer\": "
        + Json.write(expected) + ", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(text) + "}]}]}}"), Map.of()).json();
  }
}
