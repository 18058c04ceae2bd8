package dev.gym4j.environments.string_match;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class StringMatchTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "string_match";
  }

  @Test
  void gradingRulesInOrder() {
    assertThat(Answers.grade("Paris", "\"paris.\"")).isEqualTo(1.0);
    assertThat(Answers.grade("0.5", "$.50")).isEqualTo(1.0);
    assertThat(Answers.grade("1,234", "1234")).isEqualTo(1.0);
    assertThat(Answers.grade("x^2", "\\(\\mathrm{x^2}\\)")).isEqualTo(1.0);
    assertThat(Answers.grade("apples, pears and plums", "apples pears plums")).isEqualTo(1.0);
    // dropping "and" shortens this one by more than 10 %, so the list rule leaves it alone, as in Python
    assertThat(Answers.grade("red, green and blue", "red green blue")).isZero();
    assertThat(Answers.grade("new york", "NY")).isEqualTo(1.0);
    assertThat(Answers.grade("100", "99.5")).isEqualTo(0.98);
    // a number with a unit is caught by the soft numeric rule first, as in NeMo Gym
    assertThat(Answers.grade("90°", "90")).isEqualTo(0.98);
    assertThat(Answers.grade("12 kg", "12")).isEqualTo(0.98);
    assertThat(Answers.grade("x kg", "x")).isEqualTo(1.0);
    assertThat(Answers.grade("100", "90")).isZero();
    assertThat(Answers.grade("Paris", "London")).isZero();
  }

  @Test
  void theWordListRuleRemovesAndAndOrEvenInsideWordsUnlessItShortensTooMuch() {
    assertThat(Answers.lists("order")).isEqualTo("order");
    assertThat(Answers.lists("sandwich board")).as("would shorten by over 10 %").isEqualTo("sandwich board");
    assertThat(Answers.lists("ferrets; badgers and moles")).isEqualTo("ferrets badgers moles");
  }

  @Test
  void thousandsCommasGoAsPythonsRegexRemovesThem() {
    assertThat(Answers.removeThousandsCommas("1,234,567 and 8,9")).isEqualTo("1234,567 and 89");
    assertThat(Answers.removeThousandsCommas("a,1 2, 3")).isEqualTo("a,1 2, 3");
  }

  @Test
  void megabyteAnswersOfBracketsOrDigitsAreGradedWithoutStalling() {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
      assertThat(Answers.grade("42", "[".repeat(1_000_000))).isZero();
      assertThat(Answers.grade("42", "1".repeat(1_000_000))).isZero();
      assertThat(Answers.extract("\\boxed{".repeat(100_000), "final_answer")).isNull();
    });
  }

  @Test
  void extractionModes() {
    assertThat(Answers.extract("so... Final Answer: Lyon.", "final_answer")).isEqualTo("Lyon");
    assertThat(Answers.extract("answer： 42\nthen \\boxed{7}", "final_answer")).isEqualTo("42");
    assertThat(Answers.extract("only \\boxed{\\text{Rome}}", "final_answer")).isEqualTo("Rome");
    assertThat(Answers.extract("a \\boxed{x} b \\boxed{{y}}", "boxed")).isEqualTo("{y}");
    assertThat(Answers.extract("line one\n  Last one  \n\n", "last_line")).isEqualTo("Last one");
    assertThat(Answers.extract("   ", "full_response")).isNull();
  }

  @Test
  void caseSensitiveIsExactAndAMissingAnswerIsA422() {
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"expected_answer\": \"Paris\", \"case_sensitive\": true, \"extraction_mode\": \"full_response\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": \" paris \"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("extracted_answer").asString()).isEqualTo("paris");
    var missing = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"response\": {\"output\": []}}"), Map.of());
    assertThat(missing.status()).isEqualTo(422);
  }
}
