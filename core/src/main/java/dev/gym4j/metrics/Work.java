package dev.gym4j.metrics;

/**
 * The point where long metric computations look whether they should stop: their thread was interrupted, because
 * the caller of {@code /aggregate_metrics} left or the request's time ran out. Stopping throws {@link Stopped}, which
 * the route turns into its answer (none for a caller gone, a 413 for time). Off a server thread nobody interrupts,
 * and the check costs one read of the thread's flag.
 */
public final class Work {
  private Work() {}

  /** Throws {@link Stopped} when the current thread was interrupted (its interrupt status is left set). */
  public static void check() {
    if (Thread.currentThread().isInterrupted()) {
      throw new Stopped();
    }
  }

  /** A computation stopped before its end; no stack trace, since it is no error of the code. */
  public static final class Stopped extends RuntimeException {
    Stopped() {
      super("the metrics computation was stopped", null, false, false);
    }
  }
}
