package dev.gym4j.environments.spartqa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/spartqa/app.py (main, 2026-08-22) and its recorded rollouts. */
class SpartqaTest extends RecordedFieldsTest {
  private static final List<String> LABELS = Answers.candidateLabels(List.of("the red box", "a small shape",
      "a big blue triangle in block B"));

  @Override
  protected String environment() {
    return "spartqa";
  }

  @Override
  protected List<String> verifyFields() {
    return Spartqa.FIELDS;
  }

  // each expected pair is what NeMo Gym's _extract_answer and match_label give for the same text (CPython 3.12)
  @Test
  void extractionAndResolutionAsNemoGym() {
    assertResolves("<think>Final answer: a</think>The final answer is: the red box", "the red box", "the red box");
    assertResolves("Thinking Process:\n1. foo\n2. bar\n**both**", "both", "both of them");
    assertResolves("**Final Answer:** \"none of them\"", "none of them", "none of them");
    assertResolves("Final answer: <candidate answer>\nanswer - the blue ball.", "the blue ball.", null);
    assertResolves("- * the big square", "the big square", null);
    assertResolves("I pick it.\n\n\n> **Selected answer**: a small shape\nFinal answer:   \n", "a small shape",
        "a small shape");
    assertResolves("<|channel>thought lots of stuff<channel|>Answer is - neither", "neither", "none of them");
    assertResolves("The answer would be: both objects. Final answer: BOTH", "both objects. Final answer: BOTH", null);
  }

  @Test
  void aNestedLabelYieldsAndTwoLabelsAreAmbiguous() {
    assertThat(Answers.match("a big blue triangle in block B",
        Answers.candidateLabels(List.of("a triangle in block B", "a big blue triangle in block B"))))
        .isEqualTo("a big blue triangle in block B");
    assertThat(Answers.match("the red box or a small shape", Answers.candidateLabels(List.of("the red box",
        "a small shape")))).isNull();
  }

  @Test
  void blankLinesAndUnclosedThinkTagsAreReadInLinearTime() {
    // a guard against a hang, not a speed test: the regexes as NeMo Gym writes them take hours on these texts
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      assertThat(Answers.extract("x" + "\n".repeat(300_000) + "Final answer: both")).isEqualTo("both");
      assertThat(Answers.extract("<think>".repeat(100_000) + "\nanswer: none")).isEqualTo("none");
    });
  }

  @Test
  void optionsMayComeFromVerifierMetadataAndAreCheckedForType() {
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"verifier_metadata\": {\"target\": \"a cat\", \"options\": [\"a cat\", \"a dog\"]}, "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": \"Final answer: cat\"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("exact").asBoolean()).isTrue();
    assertThat(verdict.get("target").asString()).isEmpty();
    var bad = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"target\": \"x\", \"options\": [1], \"response\": {\"output\": []}}"), Map.of());
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.text()).contains("options");
  }

  @Test
  void aggregateMetricsAddNemoGymsRates() {
    JsonNode rows = Json.parse("{\"verify_responses\": [{\"reward\": 1.0, \"exact\": true, \"parsed\": true, "
        + "\"predicted_label\": \"both of them\", \"target\": \"both of them\"}, {\"reward\": 0.0, \"exact\": false, "
        + "\"parsed\": true, \"predicted_label\": \"\", \"target\": \"Both of them\"}, {\"reward\": 1.0, "
        + "\"exact\": false, \"parsed\": false, \"predicted_label\": \"x\", \"target\": \"x\"}]}");
    JsonNode metrics = harness().post("/aggregate_metrics", rows, Map.of()).json();
    assertThat(metrics.at("/agent_metrics/mean_reward").asDouble()).isEqualTo(2.0 / 3);
    assertThat(metrics.at("/agent_metrics/exact_match_rate").asDouble()).isEqualTo(1.0 / 3);
    assertThat(metrics.at("/agent_metrics/parse_rate").asDouble()).isEqualTo(2.0 / 3);
    assertThat(metrics.at("/agent_metrics/label_resolve_rate").asDouble()).isEqualTo(2.0 / 3);
    assertThat(metrics.at("/agent_metrics/accuracy_both_of_them").asDouble()).isEqualTo(0.5);
    assertThat(metrics.at("/agent_metrics/accuracy_none_of_them").isMissingNode()).isTrue();
    assertThat(metrics.get("key_metrics").propertyNames()).containsExactly("mean_reward", "exact_match_rate");
  }

  private static void assertResolves(String response, String extracted, String label) {
    String prediction = Answers.extract(response);
    assertThat(prediction).as(response).isEqualTo(extracted);
    assertThat(Answers.match(prediction, LABELS)).as(response).isEqualTo(label);
  }
}
