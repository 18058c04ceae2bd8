package dev.gym4j.environments.ruler2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/ruler2/app.py (main, 2026-08-22) and its recorded rollouts; the
 * values below are what that app.py's functions give for the same texts (CPython 3.12, with a plain
 * Levenshtein distance standing in for the editdistance package).
 */
class Ruler2Test extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "ruler2";
  }

  @Override
  protected List<String> verifyFields() {
    return Ruler2.FIELDS;
  }

  @Test
  void softMatchByMatchType() {
    assertThat(SoftMatch.score("all", "The keys are 1234 and 5678 maybe", List.of("1234", "5679 maybe", "nine ten")))
        .isEqualTo(0.3333333333333333);
    assertThat(SoftMatch.score("part", "Document 1: title\nbody line\n\nAnswer: Paris is big\nDocument 2: x\n\nend",
        List.of("paris is", "london"))).isEqualTo(1.0);
    assertThat(SoftMatch.score("2steps", "step one mentions 42\n\nfinal: 41 and 7", List.of("42", "41")))
        .isEqualTo(0.5);
    assertThat(SoftMatch.soft("alpha beta gamma", "alpha beta delta")).isEqualTo(1.0 - 1.0 / 3);
  }

  @Test
  void documentHeadersRunToTheNextBlankLine() {
    assertThat(SoftMatch.cutDocumentHeaders("a Document 3: one\ntwo\n\nb Document 4:\n\nc Document 5: z"))
        .isEqualTo("a b c Document 5: z");
  }

  @Test
  void multichoiceLetters() {
    assertThat(Letters.extract("The final answer is (C).")).isEqualTo("C");
    assertThat(Letters.extract("so \\boxed{\\text{B}} hmm")).isEqualTo("B");
    assertThat(Letters.extract("Answer: b")).isEqualTo("B");
    assertThat(Letters.extract("The final answer is maybe")).isNull();
    assertThat(Letters.extract("pick ب")).isNull();
    assertThat(Letters.extract("\\boxed{A or B and C}x")).isEqualTo("C");
    assertThat(Letters.extract("**Answer**: d\nThe final answer is xyz")).isEqualTo("D");
    assertThat(Ruler2.defaultParse("  a\u0001b\tc  ")).isEqualTo("a\nb\nc");
  }

  @Test
  void multichoiceRowsAndAnUnknownMatchType() {
    JsonNode verdict = harness().post("/verify", row("\"multichoice\"", "\"all\"", " b "), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("extracted_answer").asString()).isEqualTo("B");
    assertThat(verdict.get("task").isNull()).isTrue();
    var bad = harness().post("/verify", row("\"ruler2\"", "\"some\"", "x"), Map.of());
    assertThat(bad.status()).isEqualTo(422);
    assertThat(bad.text()).contains("match_type");
  }

  private static JsonNode row(String evalType, String matchType, String expected) {
    return Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"eval_type\": " + evalType
        + ", \"match_type\": " + matchType + ", \"expected_answer\": " + Json.write(expected) + ", \"response\": "
        + "{\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", "
        + "\"text\": \"The final answer is B\"}]}]}}");
  }
}
