package dev.gym4j.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * gym4j's own conformance table (conformance_pairs.jsonl): pairs written for each rule of math-verify's
 * reading and comparison, positives and negatives, in NeMo Gym's configuration (the gold boxed after
 * strip_math_delimiters, the prediction read as expressions and LaTeX; NeMo Gym main,
 * resources_servers/math_with_judge/app.py). Each expected verdict is the one math-verify 0.8.0 gives
 * when called that way. A row with {@code known_difference} is one where gym4j differs on purpose or has
 * not caught up (listed in the README): the test checks that it still differs, so a fix is noticed.
 */
class ConformanceTest {
  private static final MathVerifier VERIFIER = new MathVerifier();

  static Stream<Arguments> pairs() throws IOException {
    try (InputStream in = ConformanceTest.class.getResourceAsStream("/conformance_pairs.jsonl")) {
      List<Arguments> rows = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          JsonNode row = Json.parse(line);
          rows.add(Arguments.of(row.get("rule").asString(), row.get("gold").asString(), row.get("pred").asString(),
              row.get("expected").asInt() == 1, row.path("known_difference").asString(null)));
        }
      }
      return rows.stream();
    }
  }

  @ParameterizedTest(name = "{0}: {1} vs {2} -> {3}")
  @MethodSource("pairs")
  void verdictIsMathVerifys(String rule, String gold, String pred, boolean expected, String knownDifference) {
    Verdict verdict = VERIFIER.verifyExpected(gold, pred);
    assertThat(verdict.outcome()).as("%s (extracted %s)", rule, verdict.extractedAnswer())
        .isNotEqualTo(Verdict.Outcome.UNDECIDED);
    if (knownDifference == null) {
      assertThat(verdict.matched()).as("%s (extracted %s)", rule, verdict.extractedAnswer()).isEqualTo(expected);
    } else {
      assertThat(verdict.matched()).as("known difference, now agrees: %s", knownDifference).isNotEqualTo(expected);
    }
  }
}
