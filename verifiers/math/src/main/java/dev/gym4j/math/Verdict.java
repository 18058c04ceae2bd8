package dev.gym4j.math;

/**
 * The result of one verification: the outcome, the answer found in the prediction (null when none), and
 * for {@link Outcome#UNDECIDED} or a missing answer, why.
 */
public record Verdict(Outcome outcome, String extractedAnswer, String detail) {
  public enum Outcome {
    MATCH,
    NO_MATCH,
    /** The budget ran out (or the verifier failed) before a decision: neither right nor wrong. */
    UNDECIDED
  }

  public boolean matched() {
    return outcome == Outcome.MATCH;
  }
}
