package dev.gym4j.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected values are what CPython 3.12's difflib.SequenceMatcher gives for the same strings. */
class SequenceMatcherTest {
  @Test
  void ratioAndLongestMatchAsDifflib() {
    assertThat(SequenceMatcher.ratio("abcd", "bcde")).isEqualTo(0.75);
    assertThat(SequenceMatcher.ratio("", "")).isEqualTo(1.0);
    assertThat(SequenceMatcher.ratio("private Thread currentThread;", "private volatile Thread currentThread;"))
        .isEqualTo(0.8656716417910447);
    assertThat(new SequenceMatcher("private Thread currentThread;", "private volatile Thread currentThread;", false)
        .findLongestMatch(0, 29, 0, 38).size()).isEqualTo(23);
  }

  @Test
  void codePointsNotUtf16Units() {
    assertThat(SequenceMatcher.ratio("héllo wörld 😀 again", "hello world 😀 again!")).isEqualTo(0.8717948717948718);
    assertThat(new SequenceMatcher("héllo wörld 😀 again", "hello world 😀 again!", true).matchingBlocks()).hasSize(3);
  }

  @Test
  void belowTwoHundredNothingIsPopular() {
    var matcher = new SequenceMatcher(gen(150, "abcdefg", 3, 1), gen(180, "abcdefgh", 2, 5), true);
    assertThat(matcher.ratio()).isEqualTo(0.24848484848484848);
    assertThat(matcher.matchingBlocks()).hasSize(41)
        .startsWith(new SequenceMatcher.Match(0, 0, 1), new SequenceMatcher.Match(1, 4, 1));
    assertThat(SequenceMatcher.ratio(gen(120, "the quick brown fox", 3, 11), gen(199, "the lazy dog jumps", 5, 7)))
        .isEqualTo(0.31974921630094044);
  }

  @Test
  void fromTwoHundredCommonCodePointsStartNoMatchUnlessAutojunkIsOff() {
    String a = gen(300, "ab c", 1, 3);
    String b = gen(500, "abc d", 7, 1);
    assertThat(SequenceMatcher.ratio(a, b)).isEqualTo(0.0025);
    assertThat(new SequenceMatcher(a, b, false).ratio()).isEqualTo(0.5);
    assertThat(new SequenceMatcher(a, b, false).findLongestMatch(0, 300, 0, 500))
        .isEqualTo(new SequenceMatcher.Match(1, 0, 2));
    String c = gen(1000, "the quick brown fox", 3, 11);
    String d = gen(2000, "the lazy dog jumps", 5, 7);
    assertThat(SequenceMatcher.ratio(c, d)).isEqualTo(0.0006666666666666666);
    assertThat(new SequenceMatcher(c, d, false).ratio()).isEqualTo(0.282);
  }

  /** The same deterministic strings the Python side built: alphabet[(i*i*m + k*i) % len]. */
  private static String gen(int n, String alphabet, int m, int k) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      out.append(alphabet.charAt((i * i * m + k * i) % alphabet.length()));
    }
    return out.toString();
  }
}
