package dev.gym4j.math;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 11: answers that escape scoring. Deep or huge answers score 0 deterministically: the
 * verifier bounds its work by size and by counted steps, never a crash or an "undecided" that would drop
 * the sample. The verifier here has ten minutes, so the verdict and its reason show that a size or step
 * limit decided, not the clock (which would decide differently on a loaded machine).
 */
class BoundedWorkTest {
  private static final MathVerifier DEFAULT = new MathVerifier();
  private static final MathVerifier PATIENT =
      new MathVerifier(MathVerifier.Options.DEFAULTS.withBudget(Duration.ofMinutes(10)));

  private static void scoresZeroWhateverTheTimeBudget(String expected, String answer) {
    Verdict verdict = PATIENT.verifyExpected(expected, answer);
    assertThat(verdict.outcome()).as(String.valueOf(verdict.detail())).isEqualTo(Verdict.Outcome.NO_MATCH);
    assertThat(verdict.detail()).contains("too large to check");
  }

  @Test
  void twentyThousandAndOneTermsScoreZeroInsteadOfOverflowingTheStack() {
    // was: StackOverflowError, reported as undecided, and the rollout failed
    scoresZeroWhateverTheTimeBudget("20001", "\\boxed{" + "1+".repeat(20_000) + "1}");
    scoresZeroWhateverTheTimeBudget("20001", "$" + "1+".repeat(20_000) + "1$");
  }

  @Test
  void deepNestingScoresZero() {
    scoresZeroWhateverTheTimeBudget("1", "\\boxed{" + "{".repeat(5_000) + "1" + "}".repeat(5_000) + "}");
    scoresZeroWhateverTheTimeBudget("1", "\\boxed{" + "\\sqrt{".repeat(1_000) + "1" + "}".repeat(1_000) + "}");
    scoresZeroWhateverTheTimeBudget("2", "\\boxed{" + "2^{".repeat(400) + "1" + "}".repeat(400) + "}");
  }

  @Test
  void twoHundredThousandDigitsScoreZeroByTheSizeLimitNotByTheClock() {
    // was: 0 on an idle machine, undecided under load
    String digits = "9".repeat(200_000);
    scoresZeroWhateverTheTimeBudget("5", "\\boxed{" + digits + "}");
    scoresZeroWhateverTheTimeBudget("5", "The answer is " + digits);
    scoresZeroWhateverTheTimeBudget(digits, "\\boxed{" + digits + "}");
  }

  @Test
  void aHugeTextRunsOutOfStepsAndScoresZero() {
    scoresZeroWhateverTheTimeBudget("2", "Answer: " + "1 + 1 = 2, ".repeat(300_000) + "\\boxed{2}");
  }

  /**
   * Issue 32 added reading paths (text symbols up to the first closing brace, function applications, unit
   * words at the end, commands split at a known prefix, degree postfixes): hostile answers built against each
   * are decided, by the limits or by a plain reading, never left undecided or crashing. Each scan these paths
   * make is bounded (a window of tokens or characters), so this is work linear in the answer's length.
   */
  @Test
  void hostileAnswersAgainstTheNotationPathsAreDecided() {
    String[] hostile = {
        "\\boxed{" + "\\text{".repeat(3_000) + "}",                 // texts that never close
        "\\boxed{" + "\\text{a".repeat(2_500) + "}".repeat(2_500) + "}",
        "\\boxed{" + "f(".repeat(2_000) + "x" + ")".repeat(2_000) + "}", // nested applications
        "\\boxed{" + "x(".repeat(3_000) + "}",
        "\\boxed{5" + " ".repeat(19_000) + "cm}",                          // a long run before a unit
        "\\boxed{" + "5 cm ".repeat(3_000) + "}",
        "\\boxed{" + "\\pib".repeat(4_000) + "}",                        // commands split at a prefix
        "\\boxed{" + "1^\\circ".repeat(3_000) + "}",                    // degree postfixes
        "\\boxed{" + "{1 \\over ".repeat(1_500) + "2" + "}".repeat(1_500) + "}",
        "The answer is " + "7/".repeat(9_000) + "18.",
    };
    for (String answer : hostile) {
      Verdict verdict = PATIENT.verifyExpected("1", answer);
      assertThat(verdict.outcome()).as(answer.substring(0, 40) + ": " + verdict.detail())
          .isNotEqualTo(Verdict.Outcome.UNDECIDED);
    }
  }

  @Test
  void theLimitsLeaveRealAnswersAlone() {
    assertThat(DEFAULT.verifyExpected("50", "\\boxed{" + "1+".repeat(49) + "1}").matched()).isTrue();
    // a long reasoning text, as from 32k tokens of output
    String longReasoning = "We add the numbers one at a time, $1 + 2 = 3$, and so on. ".repeat(2_100);
    assertThat(longReasoning.length()).isGreaterThan(120_000);
    Verdict verdict = DEFAULT.verifyExpected("7", longReasoning + "So the answer is $\\boxed{7}$.");
    assertThat(verdict.matched()).as(String.valueOf(verdict.detail())).isTrue();
    String number = "1" + "0".repeat(4_000);
    assertThat(DEFAULT.verifyExpected("10^{4000}", "\\boxed{" + number + "}").matched()).isTrue();
  }
}
