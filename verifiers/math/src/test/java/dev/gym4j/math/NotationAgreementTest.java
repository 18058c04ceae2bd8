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
 * Agreement with math-verify 0.8.0 (latex2sympy2_extended 1.10.2) on answers written in many notations: golds
 * from NeMo Gym's math datasets and the benchmarks our math environments run, predictions written the ways
 * models write them and in wrong-answer forms, one notation category a pair. The set and its reference verdicts
 * (notation_agreement_pairs.jsonl) were made by src/test/python/agreement_set.py, which labels each pair with
 * math-verify called as NeMo Gym main's math_with_judge calls it, judge off (resources_servers/math_with_judge/
 * app.py, {@code _run_math_verify}: gold {@code \boxed{strip_math_delimiters(gold)}} read as LaTeX, prediction
 * read as expressions and LaTeX).
 */
class NotationAgreementTest {
  private static final double REQUIRED_OVERALL = 0.995;
  private static final double REQUIRED_PER_CATEGORY = 0.98;

  record Pair(String category, String source, String gold, String pred, boolean reference) {}

  static List<Pair> pairs() throws IOException {
    try (InputStream in = NotationAgreementTest.class.getResourceAsStream("/notation_agreement_pairs.jsonl")) {
      List<Pair> pairs = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          JsonNode row = Json.parse(line);
          pairs.add(new Pair(row.get("category").asString(), row.get("source").asString(),
              row.get("gold").asString(), row.get("pred").asString(), row.get("reward").asInt() == 1));
        }
      }
      return pairs;
    }
  }

  @Test
  void agreesWithMathVerifyInEveryNotation() throws IOException {
    List<Pair> pairs = pairs();
    assertThat(pairs).hasSizeGreaterThanOrEqualTo(2000);
    // both verdicts are well represented, so agreement cannot come from always answering one way
    assertThat(pairs.stream().filter(Pair::reference).count()).isGreaterThan(pairs.size() / 4);
    assertThat(pairs.stream().filter(p -> !p.reference()).count()).isGreaterThan(pairs.size() / 4);

    // a generous clock, so that a loaded machine cannot turn a verdict into "undecided": the size and step
    // limits, which do not depend on the machine, still bound every verification
    MathVerifier verifier = new MathVerifier(MathVerifier.Options.DEFAULTS.withBudget(Duration.ofSeconds(30)));
    Map<String, int[]> byCategory = new TreeMap<>();
    List<String> disagreements = new ArrayList<>();
    int agreed = 0;
    for (Pair pair : pairs) {
      Verdict verdict = verifier.verifyExpected(pair.gold(), pair.pred());
      int[] counts = byCategory.computeIfAbsent(pair.category(), c -> new int[2]);
      counts[1]++;
      if (verdict.matched() == pair.reference()) {
        agreed++;
        counts[0]++;
      } else {
        disagreements.add(pair.category() + "  reference " + (pair.reference() ? 1 : 0) + "  gold=" + pair.gold()
            + "  pred=" + pair.pred().replace("\n", "\\n") + "  extracted=" + verdict.extractedAnswer());
      }
    }
    double overall = (double) agreed / pairs.size();
    StringBuilder report = new StringBuilder(String.format("notation agreement with math-verify: %d of %d = %.2f %%%n",
        agreed, pairs.size(), 100 * overall));
    byCategory.forEach((category, counts) -> report.append(String.format("  %-22s %4d of %4d = %6.2f %%%n", category,
        counts[0], counts[1], 100.0 * counts[0] / counts[1])));
    disagreements.forEach(line -> report.append("  differs: ").append(line).append('\n'));
    System.out.println(report);

    assertThat(overall).as("overall agreement (report above)").isGreaterThanOrEqualTo(REQUIRED_OVERALL);
    byCategory.forEach((category, counts) -> assertThat((double) counts[0] / counts[1])
        .as("agreement in category %s (report above)", category).isGreaterThanOrEqualTo(REQUIRED_PER_CATEGORY));
  }
}
