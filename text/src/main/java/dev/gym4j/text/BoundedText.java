package dev.gym4j.text;

import java.time.Duration;

/**
 * Text that refuses to be read past a deadline. A {@link java.util.regex.Pattern} run over it stops with
 * {@link TimeBudgetExceeded} instead of backtracking for minutes on adversarial model output (a megabyte
 * of brackets), so a verifier's regexes always finish in bounded time.
 */
public final class BoundedText implements CharSequence {
  private final CharSequence text;
  private final long deadlineNanos;
  private int reads;

  private BoundedText(CharSequence text, long deadlineNanos) {
    this.text = text;
    this.deadlineNanos = deadlineNanos;
  }

  public static BoundedText of(CharSequence text, Duration budget) {
    return new BoundedText(text, System.nanoTime() + budget.toNanos());
  }

  @Override
  public char charAt(int index) {
    // reading the clock costs more than a character: look at it every few thousand reads
    if ((++reads & 0xFFF) == 0 && System.nanoTime() - deadlineNanos > 0) {
      throw new TimeBudgetExceeded();
    }
    return text.charAt(index);
  }

  @Override
  public int length() {
    return text.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return new BoundedText(text.subSequence(start, end), deadlineNanos);
  }

  @Override
  public String toString() {
    return text.toString();
  }

  /** The text took longer than its budget to match. */
  public static final class TimeBudgetExceeded extends RuntimeException {
    public TimeBudgetExceeded() {
      super("matching took longer than its time budget", null, false, false);
    }
  }
}
