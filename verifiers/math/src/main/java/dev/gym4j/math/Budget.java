package dev.gym4j.math;

/**
 * The work one verification may do, counted two ways. Steps are counted deterministically (a parse, an
 * evaluation, a comparison, 256 characters read by the regex engine each take one): past {@link #STEPS}
 * the work stops with {@link Exhausted}, the same on an idle machine and a loaded one. Wall time is the
 * last resort: past the deadline the work stops with {@link Exceeded}.
 */
final class Budget {
  /**
   * Steps one verification may take: enough to search 120,000 characters of reasoning dense with formulas
   * (plain prose goes much further) and check the answer found there (tens to hundreds of steps), and few
   * enough to end in about a fifth of the default second on an idle machine.
   */
  static final long STEPS = 10_000;

  /** Thrown when the deadline passes; the verification is then undecided. */
  static final class Exceeded extends RuntimeException {
    Exceeded() {
      super("verification budget exceeded", null, false, false);
    }
  }

  /** Thrown when the steps are spent: the answer is too large to check, whatever the machine's load. */
  static final class Exhausted extends RuntimeException {
    Exhausted() {
      super("verification steps exhausted", null, false, false);
    }
  }

  private final long deadline;
  private final long maxSteps;
  private long steps;

  private Budget(long deadline, long maxSteps) {
    this.deadline = deadline;
    this.maxSteps = maxSteps;
  }

  static Budget ofNanos(long nanos) {
    return new Budget(System.nanoTime() + nanos, STEPS);
  }

  static Budget unlimited() {
    return new Budget(Long.MAX_VALUE, Long.MAX_VALUE);
  }

  /** Steps taken so far. */
  long steps() {
    return steps;
  }

  void check() {
    if (++steps > maxSteps) {
      throw new Exhausted();
    }
    if (deadline != Long.MAX_VALUE && (steps & 0xF) == 0 && System.nanoTime() - deadline > 0) {
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
      if ((++reads & 0xFF) == 0) {
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
