package dev.gym4j.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The 42 answer pairs whose verdicts were computed by running NeMo Gym's math_with_judge library check
 * (math-verify 0.8.0): ours must agree on every one.
 */
class RecordedPairsTest {
  private static final MathVerifier VERIFIER = new MathVerifier();

  static Stream<Arguments> pairs() throws IOException {
    try (InputStream in = RecordedPairsTest.class.getResourceAsStream("/math_answer_pairs.json")) {
      JsonNode pairs = Json.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      List<Arguments> out = new ArrayList<>();
      int number = 1;
      for (JsonNode pair : pairs) {
        out.add(Arguments.of(number++, pair.get("expected_answer").asString(), pair.get("model_text").asString(),
            pair.get("math_with_judge_library_reward").asDouble() == 1.0));
      }
      return out.stream();
    }
  }

  @ParameterizedTest(name = "#{0}: {1} vs {2}")
  @MethodSource("pairs")
  void verdictEqualsTheRecordedOne(int number, String expected, String modelText, boolean recorded) {
    Verdict verdict = VERIFIER.verifyExpected(expected, modelText);
    assertThat(verdict.outcome()).as("pair %d, extracted %s", number, verdict.extractedAnswer())
        .isEqualTo(recorded ? Verdict.Outcome.MATCH : Verdict.Outcome.NO_MATCH);
  }
}
