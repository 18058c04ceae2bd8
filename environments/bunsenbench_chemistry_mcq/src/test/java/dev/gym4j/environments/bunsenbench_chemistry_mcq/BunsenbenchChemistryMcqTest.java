package dev.gym4j.environments.bunsenbench_chemistry_mcq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/bunsenbench_chemistry_mcq/app.py (main, 2026-08-22) and its recorded
 * rollouts; the expected letters and modes below are what that app.py's functions give (CPython 3.12).
 */
class BunsenbenchChemistryMcqTest extends RecordedFieldsTest {
  private static final List<Map.Entry<String, String>> OPTIONS = List.of(Map.entry("A", "H₂O"),
      Map.entry("B", "CO&#8322;"), Map.entry("C", "NaCl (table salt)"), Map.entry("D", "μg"));
  private static final ChemistryAnswers ANSWERS = new ChemistryAnswers(OPTIONS, Set.of("A", "B", "C", "D"));

  @Override
  protected String environment() {
    return "bunsenbench_chemistry_mcq";
  }

  @Override
  protected List<String> verifyFields() {
    return BunsenbenchChemistryMcq.FIELDS;
  }

  /**
   * The recordings predate {@code bunsen_id} in the verify response; the current code writes the row's
   * {@code metadata.bunsen_id} there.
   */
  @Override
  protected JsonNode expectedField(String file, int line, String field, JsonNode recorded) {
    return field.equals("bunsen_id") ? recorded.at("/metadata/bunsen_id") : recorded.path(field);
  }

  @Test
  void lettersAndOptionTextsAsNemoGymReadsThem() {
    assertThat(ANSWERS.extract("<choice>CO2</choice>")).isEqualTo("B");
    assertThat(ANSWERS.extract("I think the answer is C.\n\nAnswer: **B**")).isEqualTo("B");
    assertThat(ANSWERS.extract("\\boxed{\\text{D}} but <answer>H2O</answer>")).isEqualTo("A");
    assertThat(ANSWERS.extract("Option c")).isEqualTo("C");
    assertThat(ANSWERS.extract("<choices><choice>A</choice></choices> hmm")).isNull();
    assertThat(ANSWERS.extract("(B) is right\nfinal: who knows")).isNull();
    assertThat(ANSWERS.extract("ug")).isEqualTo("D");
    assertThat(ANSWERS.extract("Answer: E")).isNull();
    assertThat(ANSWERS.extract("the correct answer is NaCl (table salt)")).isEqualTo("C");
    assertThat(ANSWERS.extract("1. Answer: A)")).isEqualTo("A");
  }

  @Test
  void theExpectedAnswerMayBeAnOptionsText() {
    Set<String> allowed = Set.of("A", "B", "C", "D");
    assertThat(BunsenbenchChemistryMcq.goldLetter("CO₂", OPTIONS, allowed)).isEqualTo("B");
    assertThat(BunsenbenchChemistryMcq.goldLetter("(c)", OPTIONS, allowed)).isEqualTo("C");
    assertThat(BunsenbenchChemistryMcq.goldLetter("zinc", OPTIONS, allowed)).isEqualTo("ZINC");
  }

  @Test
  void errorModesExplainAMissingAnswer() {
    assertThat(mode("I'm sorry, but I can't help with that.", null)).isEqualTo("refusal");
    assertThat(mode("<think> long", null)).isEqualTo("early_termination");
    assertThat(mode("<choice>Gold</choice>", null)).isEqualTo("malformed_choice");
    assertThat(mode("blah", "incomplete")).isEqualTo("early_termination");
    assertThat(mode("blah", null)).isEqualTo("format_violation");
    assertThat(mode("<choice>H2O</choice>", null)).isEqualTo("wrong_answer");
  }

  @Test
  void theVerifyResponseCarriesTheExpectedLetterAndErrorModeMetrics() {
    JsonNode verdict = verify("<choice>CO2</choice>", null);
    assertThat(verdict.get("expected_answer").asString()).isEqualTo("B");
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("uuid").isNull()).isTrue();
    JsonNode metrics = harness().post("/aggregate_metrics", Json.parse("{\"verify_responses\": [{\"reward\": 1.0, "
        + "\"error_mode\": \"correct\"}, {\"reward\": 0.0, \"extracted_answer\": null}]}"), Map.of()).json();
    assertThat(metrics.at("/agent_metrics/error_modes~1correct").asDouble()).isEqualTo(50.0);
    assertThat(metrics.at("/agent_metrics/error_modes~1format_violation~1count").asDouble()).isEqualTo(1.0);
    assertThat(metrics.at("/key_metrics/error_modes~1refusal").asDouble()).isZero();
  }

  private String mode(String text, String status) {
    return verify(text, status).get("error_mode").asString();
  }

  private JsonNode verify(String text, String status) {
    ObjectNode row = (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"expected_answer\": "
        + "\"CO₂\", \"options\": [{\"A\": \"H₂O\"}, {\"B\": \"CO&#8322;\"}, {\"C\": \"NaCl\"}, {\"D\": \"μg\"}], "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": " + Json.write(text) + "}]}]}}");
    if (status != null) {
      ((ObjectNode) row.get("response")).put("status", status);
    }
    var reply = harness().post("/verify", row, Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }
}
