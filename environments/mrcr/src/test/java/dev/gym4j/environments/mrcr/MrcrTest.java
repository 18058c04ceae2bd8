package dev.gym4j.environments.mrcr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/mrcr/app.py (main, 2026-08-22) and its recorded rollouts. */
class MrcrTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "mrcr";
  }

  @Override
  protected List<String> verifyFields() {
    return Mrcr.FIELDS;
  }

  @Test
  void thePrefixGatesTheRatio() {
    // ratio from CPython's difflib on the same strings
    assertThat(Mrcr.grade("ab12 the cat sat on the mat", "ab12 the cat sat on a mat", "ab12"))
        .isEqualTo(0.9090909090909091);
    assertThat(Mrcr.grade("the cat ab12", "ab12 the cat", "ab12")).isZero();
    assertThat(Mrcr.grade("ab12 x", "x", "ab12")).as("an answer without the prefix is compared whole").isEqualTo(0.6666666666666666);
  }

  @Test
  void aPrefixAfterLeadingWhitespaceStillMatches() {
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"expected_answer\": \"zz1 hi\", \"random_string_to_prepend\": \"zz1\", \"n_needles\": 2, \"n_tokens\": 9, "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": \"\\n  zz1 hi\\n\"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("prefix_matched").asBoolean()).isTrue();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void aMissingNeedleCountIsA422() {
    var reply = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"expected_answer\": \"a\", \"random_string_to_prepend\": \"z\", \"n_tokens\": 9, "
        + "\"response\": {\"output\": []}}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("n_needles");
  }
}
