package dev.gym4j.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class EditDistanceTest {
  @Test
  void wordEditsAreCountedOnceEach() {
    List<String> reference = List.of("the", "cat", "sat", "on", "the", "mat");
    assertThat(EditDistance.levenshtein(reference, reference)).isZero();
    assertThat(EditDistance.levenshtein(reference, List.of("the", "cat", "sit", "on", "mat"))).isEqualTo(2);
    assertThat(EditDistance.levenshtein(List.of(), reference)).isEqualTo(6);
    assertThat(EditDistance.levenshtein(reference, List.of())).isEqualTo(6);
    assertThat(EditDistance.levenshtein(List.of("a", "b", "c"), List.of("b", "c", "a"))).isEqualTo(2);
    assertThat(EditDistance.levenshtein(List.of("kitten"), List.of("sitting"))).as("whole words, not letters")
        .isEqualTo(1);
  }
}
