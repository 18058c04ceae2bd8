package dev.gym4j.environments.mcqa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class McqaTest extends RecordedRolloutsTest {
  private static final String OPTIONS = "[{\"A\": \"Karyotyping\"}, {\"B\": \"Polymerase Chain Reaction (PCR)\"}, "
      + "{\"C\": \"Whole-genome sequencing\"}, {\"D\": \"Chromosome painting\"}]";

  @Override
  protected String environment() {
    return "mcqa";
  }

  @Override
  protected List<String> rolloutFiles() {
    return List.of("example_rollouts.jsonl", "example_rollouts_with_template_metadata.jsonl");
  }

  @Override
  protected String taskFile(String rolloutFile) {
    return rolloutFile.contains("template") ? "example_with_template_metadata.jsonl" : "example.jsonl";
  }

  @Override
  protected double expectedReward(String file, int line, JsonNode recorded) {
    // INDEX.md: row 3's box is "\boxed{\nC: An individual…}"; the 2025 regex gave 0.0, the current rule reads C
    if (file.equals("example_rollouts.jsonl") && line == 3) {
      return 1.0;
    }
    return super.expectedReward(file, line, recorded);
  }

  private JsonNode verify(String mode, String answer, String extra) {
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"options\": "
        + OPTIONS + ", \"expected_answer\": \"b\", \"grading_mode\": \"" + mode + "\"" + extra + ", \"response\": "
        + "{\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", "
        + "\"text\": " + Json.write(Json.toTree(answer)) + "}]}]}}"), Map.of()).json();
  }

  private String letter(String mode, String answer) {
    JsonNode extracted = verify(mode, answer, "").get("extracted_answer");
    return extracted.isNull() ? null : extracted.asString();
  }

  @Test
  void strictTakesTheLastBalancedBoxWithOneCapitalOrALabel() {
    String strict = "strict_single_letter_boxed";
    assertThat(letter(strict, "\\boxed{A} then \\boxed{B}")).isEqualTo("B");
    assertThat(letter(strict, "\\boxed{(B)}")).isEqualTo("B");
    assertThat(letter(strict, "\\boxed{\\text{B}}")).isEqualTo("B");
    assertThat(letter(strict, "\\boxed{\nB: Polymerase {chain} reaction\n}")).isEqualTo("B");
    assertThat(letter(strict, "\\boxed{b}")).isNull();
    assertThat(letter(strict, "\\boxed{E}")).as("not an option").isNull();
    assertThat(letter(strict, "\\boxed{AB}")).isNull();
    assertThat(letter(strict, "B")).isNull();
    JsonNode verdict = verify(strict, "\\boxed{B}", "");
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("expected_answer").asString()).isEqualTo("B");
  }

  @Test
  void lenientModesAcceptOptionTextAndAnswerLines() {
    assertThat(letter("lenient_boxed", "\\boxed{polymerase  chain reaction (pcr)}")).isEqualTo("B");
    assertThat(letter("lenient_answer_colon", "Answer: b")).isEqualTo("B");
    assertThat(letter("lenient_answer_colon", "answer: Chromosome painting")).isEqualTo("D");
    assertThat(letter("lenient_answer_colon_md", "**Answer:** C\n\n**Answer:** A or B")).isEqualTo("C");
  }

  @Test
  void aDatasetRegexWinsAndForeignLettersMapToLatin() {
    String regex = ", \"template_metadata\": {\"output_regex\": \"Final Choice:\\\\s*(\\\\S+)\"}";
    assertThat(verify("strict_single_letter_boxed", "final choice: b", regex).get("extracted_answer").asString())
        .isEqualTo("B");
    assertThat(verify("strict_single_letter_boxed", "Final Choice: ب", regex).get("extracted_answer").asString())
        .isEqualTo("B");
    assertThat(verify("strict_single_letter_boxed", "Final Choice: Ｂ", regex).get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void megabyteAnswersAreReadWithoutStalling() {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
      assertThat(letter("strict_single_letter_boxed", "\\boxed{".repeat(100_000) + "[".repeat(500_000))).isNull();
      assertThat(letter("lenient_answer_colon_md", "Answer: " + "A or ".repeat(100_000))).isNull();
    });
  }

  @Test
  void anUnknownModeIsA422() {
    var reply = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"grading_mode\": \"vibes\", \"response\": {\"output\": []}}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
  }
}
