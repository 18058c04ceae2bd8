package dev.gym4j.environments.swerl_llm_judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/swerl_llm_judge/app.py (main, 2026-08-22) and its recorded rollouts. */
class SwerlLlmJudgeTest extends RecordedFieldsTest {
  private static final Set<String> ABCD = Set.of("A", "B", "C", "D");

  @Override
  protected String environment() {
    return "swerl_llm_judge";
  }

  @Override
  protected List<String> verifyFields() {
    return SwerlLlmJudge.FIELDS;
  }

  @Test
  void lenientTakesTheFirstStandaloneLetterOfTheLastBlock() {
    assertThat(SwerlLlmJudge.lenient("<solution>A</solution> then <SOLUTION> [c] is it </solution>", ABCD))
        .isEqualTo("C");
    assertThat(SwerlLlmJudge.lenient("<solution>Answer B</solution>", ABCD)).isEqualTo("B");
    assertThat(SwerlLlmJudge.lenient("<solution>E</solution>", ABCD)).isNull();
    assertThat(SwerlLlmJudge.lenient("<solution>  </solution>", ABCD)).isNull();
  }

  @Test
  void strictWantsOnlyALetter() {
    assertThat(SwerlLlmJudge.strict("<solution> [b] </solution>", ABCD)).isEqualTo("B");
    assertThat(SwerlLlmJudge.strict("<solution>Answer B</solution>", ABCD)).isNull();
  }

  @Test
  void optionKeysAndExpectedLetters() {
    assertThat(SwerlLlmJudge.allowedLetters(Json.parse("[{\"a\": \"x\", \"B\": \"y\"}, {\"long\": \"z\"}]")))
        .containsExactly("A");
    assertThat(SwerlLlmJudge.expectedLetters(Json.parse("[\" b \", \"B\", \"CD\", 3]"))).containsExactly("B");
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"options\": [{\"A\": \"x\"}, {\"B\": \"y\"}], \"expected_answer\": [\"A\", \"B\"], \"grading_mode\": "
        + "\"strict\", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": \"<solution>B</solution>\"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("expected_answer")).isEqualTo(Json.parse("[\"A\", \"B\"]"));
    var bad = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"grading_mode\": \"loose\", \"response\": {\"output\": []}}"), Map.of());
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.text()).contains("grading_mode");
  }
}
