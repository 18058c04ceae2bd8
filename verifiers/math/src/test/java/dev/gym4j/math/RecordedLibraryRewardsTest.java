package dev.gym4j.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.wire.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Every recorded NeMo Gym rollout whose math-verify verdict was kept ({@code library_reward}): the math
 * environments built on math_with_judge's library check. Ours must reach the same verdict on each.
 */
class RecordedLibraryRewardsTest {
  private static final MathVerifier VERIFIER = new MathVerifier();
  private static final List<String> ENVIRONMENTS = List.of("math_with_judge", "math_with_autograder",
      "physics_judge", "polymath", "ugphysics_judge");

  static Stream<Arguments> rows() {
    List<Arguments> rows = new ArrayList<>();
    for (String environment : ENVIRONMENTS) {
      Path file = Fixtures.environment(environment).resolve("example_rollouts.jsonl");
      assertThat(Files.exists(file)).as(file.toString()).isTrue();
      int line = 1;
      for (JsonNode row : Json.readLines(file)) {
        rows.add(Arguments.of(environment, line++, row.get("expected_answer").asString(),
            Response.of(row.get("response")).outputTextParts(), row.get("library_reward").asDouble() == 1.0));
      }
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0} line {1}: expected {2}")
  @MethodSource("rows")
  void libraryVerdictMatchesTheRecording(String environment, int line, String expected, String text, boolean matched) {
    Verdict verdict = VERIFIER.verifyExpected(expected, text);
    assertThat(verdict.matched()).as("%s line %d, extracted %s (%s)", environment, line, verdict.extractedAnswer(),
        verdict.detail()).isEqualTo(matched);
  }
}
