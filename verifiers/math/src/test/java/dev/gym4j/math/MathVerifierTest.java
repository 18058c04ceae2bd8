package dev.gym4j.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MathVerifierTest {
  private static final MathVerifier VERIFIER = new MathVerifier();

  private static boolean same(String expected, String modelText) {
    Verdict verdict = VERIFIER.verifyExpected(expected, modelText);
    assertThat(verdict.outcome()).as(verdict.toString()).isNotEqualTo(Verdict.Outcome.UNDECIDED);
    return verdict.matched();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(delimiter = '|', textBlock = """
      \\frac{1}{3}        | so $\\dfrac13$.
      \\frac{1}{3}        | \\boxed{\\tfrac{1}{3}}
      \\frac{2}{3}        | \\boxed{\\cfrac{2}{3}}
      \\sqrt{3}           | \\boxed{\\sqrt3}
      3                   | \\boxed{\\left( 3 \\right)}
      12                  | \\boxed{12\\text{ cm}^2}
      1000000             | \\boxed{1,000,000}
      1000                | The total is 1 000 dollars.
      2.5                 | The answer is 2,5
      28\\%               | \\boxed{0.28}
      28                  | The answer is 28%.
      45                  | \\boxed{45^{\\circ}}
      x = 2               | \\boxed{2}
      7                   | \\boxed{7}.
      \\frac{\\sqrt{2}}{2}  | \\boxed{\\frac{1}{\\sqrt{2}}}
      2\\sqrt{2}          | \\boxed{\\sqrt{8}}
      \\sqrt{2}           | \\boxed{1.414214}
      \\sqrt[3]{27}       | \\boxed{3}
      \\pi/2              | \\boxed{\\frac{\\pi}{2}}
      2\\pi               | \\boxed{2 \\pi}
      e^2                 | \\boxed{\\exp(2)}
      \\sin^2 x + \\cos^2 x | \\boxed{1}
      \\log_2 8           | \\boxed{3}
      \\ln(e^3)           | \\boxed{3}
      (x-1)(x+1)          | \\boxed{x^2-1}
      \\frac{x^2-1}{x-1}  | \\boxed{x+1}
      a^2 b               | \\boxed{b a^2}
      [1, 3)              | \\boxed{[1,3)}
      (-\\infty, 2]       | \\boxed{(-\\infty, 2]}
      x > 2               | \\boxed{(2, \\infty)}
      \\{3, 1, 2\\}       | \\boxed{\\{1, 2, 3\\}}
      (1, 2, 3)           | \\boxed{(1, 2, 3)}
      \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix} | \\boxed{\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}}
      y = 2x + 1          | \\boxed{y = 1 + 2x}
      x \\le 3            | \\boxed{3 \\ge x}
      5!                  | \\boxed{120}
      \\binom{5}{2}       | \\boxed{10}
      2^{10}              | the final answer is 1024
      -\\frac{1}{2}       | \\boxed{-0.5}
      10^{-3}             | \\boxed{0.001}
      """)
  void equivalentNotations(String expected, String modelText) {
    assertThat(same(expected, modelText)).isTrue();
  }

  @ParameterizedTest(name = "{0} != {1}")
  @CsvSource(delimiter = '|', textBlock = """
      \\frac{1}{3}     | \\boxed{0.33}
      5                | \\boxed{\\mathrm{5\\,kg}}
      45               | \\boxed{45°}
      \\sqrt{2}        | \\boxed{1.41421}
      [1, 3)           | \\boxed{[1, 3]}
      (1, 2, 3)        | \\boxed{(3, 2, 1)}
      \\{1, 2\\}       | \\boxed{\\{1, 2, 3\\}}
      x^2 + 1          | \\boxed{x^2 - 1}
      x + 1            | \\boxed{y + 1}
      2                | \\boxed{-2}
      \\sin x          | \\boxed{\\cos x}
      x > 2            | \\boxed{x \\ge 2}
      \\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix} | \\boxed{\\begin{pmatrix}2\\\\1\\end{pmatrix}}
      \\infty          | \\boxed{-\\infty}
      """)
  void differentAnswers(String expected, String modelText) {
    assertThat(same(expected, modelText)).isFalse();
  }

  @Test
  void thePredictionsAnswerIsReportedAsFound() {
    assertThat(VERIFIER.verifyExpected("\\frac{1}{2}", "\\boxed{\\frac{2}{4}}").extractedAnswer()).isEqualTo("1/2");
    assertThat(VERIFIER.verifyExpected("3", "no numbers here").extractedAnswer()).isNull();
  }

  @Test
  void aRelativeToleranceReplacesExactComparisonWhenAsked() {
    MathVerifier tolerant = new MathVerifier(MathVerifier.Options.DEFAULTS.withRelativeTolerance(1e-3));
    assertThat(tolerant.verifyExpected("\\pi", "\\boxed{3.1416}").matched()).isTrue();
    assertThat(tolerant.verifyExpected("\\pi", "\\boxed{3.15}").matched()).isFalse();
    assertThat(VERIFIER.verifyExpected("\\pi", "\\boxed{3.1416}").matched()).isFalse();
  }

  @Test
  void hugeButFiniteAnswersAreComparedNotApproximatedAway() {
    assertThat(same("2^{4000} + 1", "\\boxed{2^{4000}}")).isFalse();
    assertThat(same("2^{4000} + 1", "\\boxed{1 + 2^{4000}}")).isTrue();
    assertThat(same("(1+\\sqrt{2})^{500}", "\\boxed{(1+\\sqrt{2})^{499}(1+\\sqrt{2})}")).isTrue();
  }

  @Test
  void aVerificationOverBudgetIsUndecidedNotWrong() {
    // the clock is the last resort, behind the size and step limits (BoundedWorkTest): a text well within
    // them still stops when the time is up
    MathVerifier hurried = new MathVerifier(MathVerifier.Options.DEFAULTS.withBudget(Duration.ofNanos(1)));
    String text = "We add the numbers one at a time, $1 + 2 = 3$, and so on. ".repeat(200) + "\\boxed{2}";
    assertThat(VERIFIER.verifyExpected("2", text).matched()).isTrue();
    Verdict verdict = hurried.verifyExpected("2", text);
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.UNDECIDED);
    assertThat(verdict.detail()).startsWith("undecided within");
  }

  @Test
  void towersOfExponentsAreUndecidedOrWrongButNeverHang() {
    Verdict verdict = VERIFIER.verifyExpected("2", "\\boxed{9^{9^{9^{9}}}}");
    assertThat(verdict.matched()).isFalse();
  }

  @Test
  void randomTextNeverThrows() {
    Random random = new Random(42);
    String alphabet = "0123456789+-*/^_{}()[]\\$.,=<>!% abcxyz\\frac\\sqrt\\boxed\\left\\right\\text\\pi";
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder();
      for (int j = random.nextInt(60); j > 0; j--) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      Verdict verdict = VERIFIER.verifyExpected(text.toString(), text.toString());
      assertThat(verdict.outcome()).isNotNull();
      assertThat(String.valueOf(verdict.detail())).as(text.toString()).doesNotStartWith("verifier error");
    }
  }
}
