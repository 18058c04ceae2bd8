package dev.gym4j.math;

/**
 * The time one verification may take. Long loops and the regex engine check it, so a pathological answer
 * stops with {@link Exceeded} instead of hanging the caller.
 */
final class Budget {
  /** Thrown when the budget is spent; the verification is then undecided. */
  static final class Exceeded extends RuntimeException {
    Exceeded() {
      super("verification budget exceeded", null, false, false);
    }
  }

  private final long deadline;

  private Budget(long deadline) {
    this.deadline = deadline;
  }

  static Budget ofNanos(long nanos) {
    return new Budget(System.nanoTime() + nanos);
  }

  static Budget unlimited() {
    return new Budget(Long.MAX_VALUE);
  }

  void check() {
    if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
      throw new Exceeded();
    }
  }

  /** Text whose reads check the budget: java.util.regex cannot be interrupted any other way. */
  CharSequence watch(CharSequence text) {
    return new Watched(text, this);
  }

  private static final class Watched implements CharSequence {
    private final CharSequence text;
    private final Budget budget;
    private int reads;

    Watched(CharSequence text, Budget budget) {
      this.text = text;
      this.budget = budget;
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      if ((++reads & 0x3FF) == 0) {
        budget.check();
      }
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Watched(text.subSequence(start, end), budget);
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }
}
