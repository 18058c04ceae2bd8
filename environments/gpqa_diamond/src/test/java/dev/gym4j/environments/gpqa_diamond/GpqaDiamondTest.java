package dev.gym4j.environments.gpqa_diamond;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;

class GpqaDiamondTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "gpqa_diamond";
  }

  @Test
  void theLetterComesFromTheLastBoxThenTheLastAnswerLine() {
    assertThat(GpqaDiamond.readLetter("\\boxed{A} no, \\boxed{ C }")).isEqualTo("C");
    assertThat(GpqaDiamond.readLetter("\\boxed{\\text{option B}}")).isEqualTo("B");
    assertThat(GpqaDiamond.readLetter("Answer: b\nthen **Answer**: D")).isEqualTo("D");
    assertThat(GpqaDiamond.readLetter("Answer: Dog")).isNull();
    assertThat(GpqaDiamond.readLetter("no answer")).isNull();
  }

  @Test
  void withOptionsTheLetterMustBeOneOfThem() {
    var verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"options\": [{\"A\": \"1\"}, {\"B\": \"2\"}], \"expected_answer\": \"E\", \"grading_mode\": \"lenient_boxed\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": \"Answer: E\"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("extracted_answer").isNull()).isTrue();
    assertThat(verdict.get("reward").asDouble()).isZero();
  }
}
