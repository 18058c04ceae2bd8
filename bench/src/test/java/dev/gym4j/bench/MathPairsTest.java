package dev.gym4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.math.MathVerifier;
import org.junit.jupiter.api.Test;

/** The benchmark's pairs are meaningful work: the verifier gets every one of them right. */
class MathPairsTest {
  @Test
  void everyBenchmarkPairGetsItsIntendedVerdict() {
    MathVerifier verifier = new MathVerifier();
    List<MathPairs.Pair> pairs = new ArrayList<>(MathPairs.recorded());
    pairs.addAll(MathPairs.generated(1_000, 42));
    List<String> wrong = new ArrayList<>();
    for (MathPairs.Pair pair : pairs) {
      if (verifier.verifyExpected(pair.expected(), pair.modelText()).matched() != pair.matches()) {
        wrong.add(pair.expected() + " vs ..." + pair.modelText().substring(Math.max(0, pair.modelText().length() - 60)));
      }
    }
    assertThat(wrong).isEmpty();
    assertThat(pairs.stream().filter(MathPairs.Pair::matches).count()).isBetween(400L, 650L);
  }
}
