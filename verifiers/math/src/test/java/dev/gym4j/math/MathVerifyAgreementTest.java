package dev.gym4j.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Agreement with math-verify 0.8.0 on its own test inputs, in NeMo Gym's configuration: the gold is
 * {@code \boxed{strip_math_delimiters(gold)}} read as LaTeX, the prediction is read as plain expressions and
 * LaTeX (NeMo Gym main, resources_servers/math_with_judge/app.py, {@code _run_math_verify}). The pairs are
 * the gold/prediction inputs of the parametrized tests in Math-Verify's tests/test_*.py, plus golds crossed
 * with other cases' predictions; each reference verdict was computed by that call (see NOTICE).
 */
class MathVerifyAgreementTest {
  private static final double REQUIRED = 0.996;

  record Pair(String source, String kind, String gold, String pred, boolean reference) {}

  static List<Pair> pairs() throws IOException {
    return pairs("/mathverify_test_pairs.jsonl");
  }

  static List<Pair> pairs(String resource) throws IOException {
    try (InputStream in = MathVerifyAgreementTest.class.getResourceAsStream(resource)) {
      List<Pair> pairs = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode row = Json.parse(line);
        pairs.add(new Pair(row.get("source").asString(), row.get("kind").asString(), row.get("gold").asString(),
            row.get("pred").asString(), row.get("reward").asInt() == 1));
      }
      return pairs;
    }
  }

  @Test
  void agreesWithMathVerifyOnItsOwnTestInputs() throws IOException {
    assertThat(agreement(pairs())).as("agreement with math-verify (disagreements above)")
        .isGreaterThanOrEqualTo(REQUIRED);
  }

  /** The share of pairs on which our verdict is math-verify's; prints it with the disagreements, grouped. */
  static double agreement(List<Pair> pairs) {
    // a generous clock, so that a loaded machine cannot turn a verdict into "undecided": the size and step
    // limits, which do not depend on the machine, still bound every verification
    MathVerifier verifier = new MathVerifier(MathVerifier.Options.DEFAULTS.withBudget(Duration.ofSeconds(30)));
    Map<String, List<String>> disagreements = new TreeMap<>();
    int agreed = 0;
    for (Pair pair : pairs) {
      Verdict verdict = verifier.verifyExpected(pair.gold(), pair.pred());
      if (verdict.matched() == pair.reference()) {
        agreed++;
      } else {
        String group = (pair.reference() ? "reference 1, ours " : "reference 0, ours ") + verdict.outcome();
        disagreements.computeIfAbsent(group, g -> new ArrayList<>()).add(pair.source() + "  gold=" + pair.gold()
            + "  pred=" + pair.pred().replace("\n", "\\n") + "  extracted=" + verdict.extractedAnswer());
      }
    }
    double agreement = (double) agreed / pairs.size();
    StringBuilder report = new StringBuilder(String.format("math-verify agreement: %d of %d = %.1f %%%n", agreed,
        pairs.size(), 100 * agreement));
    disagreements.forEach((group, lines) -> {
      report.append(group).append(" (").append(lines.size()).append("):\n");
      lines.forEach(line -> report.append("  ").append(line).append('\n'));
    });
    System.out.println(report);
    assertThat(pairs).hasSizeGreaterThan(500);
    return agreement;
  }
}
