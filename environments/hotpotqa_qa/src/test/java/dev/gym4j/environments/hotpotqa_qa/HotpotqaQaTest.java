package dev.gym4j.environments.hotpotqa_qa;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import org.junit.jupiter.api.Test;

/**
 * Against NeMo Gym's resources_servers/hotpotqa_qa/app.py and scoring.py (main, 2026-08-22) and its recorded
 * rollouts; the expected values below are what that scoring.py gives for the same inputs (CPython 3.12).
 */
class HotpotqaQaTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "hotpotqa_qa";
  }

  @Override
  protected List<String> verifyFields() {
    return HotpotqaQa.FIELDS;
  }

  @Test
  void theAnswerComesFromFencedJsonFirstThenTheLastObject() {
    assertThat(Scoring.parseGeneration("Reasoning... ```json\n{\"answer\": \"Paris\"}\n``` then {\"answer\": \"Lyon\"}"))
        .isEqualTo("Paris");
    assertThat(Scoring.parseGeneration("x {\"answer\": 1e-05} y")).isEqualTo("1e-05");
    assertThat(Scoring.parseGeneration("{\"answer\": [\"a\", 2, null, true]}  {\"other\": 1}"))
        .isEqualTo("['a', 2, None, True]");
    assertThat(Scoring.parseGeneration("no json here, just Ulysses S. Grant"))
        .isEqualTo("no json here, just Ulysses S. Grant");
    assertThat(Scoring.parseGeneration("{\"answer\": \"a\"} {\"unbalanced\": ")).isEqualTo("a");
    assertThat(Scoring.parseGeneration("```\n{\"answer\": {\"k\": 1.5}}```")).isEqualTo("{'k': 1.5}");
    assertThat(Scoring.parseGeneration("")).isEmpty();
  }

  @Test
  void groundTruthAlternativesAndFilter() {
    assertThat(Scoring.alternatives("The Beatles (band)"))
        .containsExactlyInAnyOrder("Beatles", "Beatles (band)", "The Beatles", "The Beatles (band)", "band");
    assertThat(Scoring.alternatives("1,234,567")).containsExactlyInAnyOrder("1,234,567", "1234567");
    assertThat(Scoring.alternatives("U.S.A.")).containsExactlyInAnyOrder("U.S.A", "U.S.A.", "USA");
    assertThat(Scoring.alternatives("twenty-first")).containsExactlyInAnyOrder("21st", "twenty first", "twenty-first");
    assertThat(Scoring.alternatives("Simon & Garfunkel"))
        .containsExactlyInAnyOrder("Simon & Garfunkel", "Simon and Garfunkel");
    assertThat(Scoring.alternatives("\"Hey Jude.\""))
        .containsExactlyInAnyOrder("\"Hey Jude\"", "\"Hey Jude.\"", "Hey Jude.");
    assertThat(Scoring.removeReason("John Fitzgerald Kennedy Jr")).isEqualTo("multi_word_name");
    assertThat(Scoring.removeReason("A Tale of Two Cities by Charles Dickens")).isEmpty();
    assertThat(Scoring.removeReason("x".repeat(41))).isEqualTo("gt_too_long");
  }

  @Test
  void strictMatchingWantsWordsAndAnEarlyPosition() {
    assertThat(Scoring.isCorrectStrict(Set.of("US"), "the us army")).isTrue();
    assertThat(Scoring.isCorrect(Set.of("US"), "business")).isTrue();
    assertThat(Scoring.isCorrectStrict(Set.of("US"), "business")).isFalse();
    String late = "x".repeat(50) + " and then Paris" + "y".repeat(30);
    assertThat(Scoring.isCorrect(Set.of("Paris"), late)).isTrue();
    assertThat(Scoring.isCorrectStrict(Set.of("Paris"), late)).isFalse();
    assertThat(Scoring.isCorrectStrict(Set.of("Paris"), "Paris " + "y".repeat(90))).isTrue();
  }

  @Test
  void squadNormalisationAndF1() {
    assertThat(Scoring.normalizeAnswer("The  Cat's, an apple!")).isEqualTo("cats apple");
    assertThat(Scoring.f1("the cat sat on the mat", "a cat on a mat")).isEqualTo(0.8571428571428571);
    assertThat(Scoring.f1("yes", "yes it is")).isZero();
  }
}
