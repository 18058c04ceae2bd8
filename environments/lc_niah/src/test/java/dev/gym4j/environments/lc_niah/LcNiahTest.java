package dev.gym4j.environments.lc_niah;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/lc_niah/app.py (main, 2026-08-22) and its recorded rollouts. */
class LcNiahTest extends RecordedFieldsTest {
  private static final String REASONING = "I think the Graph has edges A -> B and B -> C. So the parents of C are B.";
  private static final String INPUT = "Here is the graph: A -> B\nB -> C\nD -> C\nfind the parents of C. "
      + "The graph has edges a -> b";

  @Override
  protected String environment() {
    return "lc_niah";
  }

  @Override
  protected List<String> verifyFields() {
    return LcNiah.FIELDS;
  }

  @Test
  void overlapSignalsAsPythonComputesThem() {
    // values from CPython 3.12 running NeMo Gym's three overlap functions on the same strings
    assertThat(LcNiah.seqMatch(REASONING, INPUT)).isEqualTo(0.4074074074074074);
    assertThat(LcNiah.longestCommonSubstring(REASONING, INPUT)).isEqualTo(0.3698630136986301);
    assertThat(LcNiah.ngramOverlap(REASONING, INPUT, 3)).isEqualTo(0.3333333333333333);
    assertThat(LcNiah.ngramOverlap(REASONING, INPUT, 16)).as("fewer than 16 words").isZero();
    assertThat(LcNiah.seqMatch("  ", INPUT)).as("no reasoning, no penalty").isZero();
  }

  @Test
  void theInputTextIsEveryMessageTextOnItsOwnLine() {
    JsonNode input = Json.parse("[{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": "
        + "[{\"type\": \"input_text\", \"text\": \"A\"}, {\"type\": \"input_text\", \"text\": \"\"}, "
        + "{\"type\": \"input_text\", \"text\": \"B\"}]}, {\"type\": \"function_call_output\", \"output\": \"x\"}]");
    assertThat(LcNiah.inputText(input)).isEqualTo("S\nA\nB");
    assertThat(LcNiah.inputText(Json.parse("\"plain\""))).isEqualTo("plain");
  }

  @Test
  void theGradingRulesComeFromTheConfig() {
    JsonNode row = Json.readLines(fixture("example_rollouts.jsonl")).get(4);
    try (var base = EnvironmentHarness.start("lc_niah", "++lc_niah.resources_servers.lc_niah.overlap_grading_rule=base");
         var minus = EnvironmentHarness.start("lc_niah",
             "++lc_niah.resources_servers.lc_niah.overlap_grading_rule=minus",
             "++lc_niah.resources_servers.lc_niah.overlap_metric_rule=ngram16")) {
      assertThat(base.verify(row).get("reward").asDouble()).isEqualTo(0.8);
      JsonNode verdict = minus.verify(row);
      assertThat(verdict.get("reasoning_overlap").asDouble()).isEqualTo(row.get("overlap_ngram16").asDouble());
      assertThat(verdict.get("reward").asDouble()).isEqualTo(0.8 - row.get("overlap_ngram16").asDouble());
    }
  }
}
