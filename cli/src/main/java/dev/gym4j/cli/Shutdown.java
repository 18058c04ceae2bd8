package dev.gym4j.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Keeps a command up until Ctrl-C or SIGTERM, then closes what it runs within a bounded time. */
final class Shutdown {
  /** How long stopping may take before the process exits anyway. */
  static final long GRACE_SECONDS = 5;

  private Shutdown() {}

  /**
   * Blocks until the JVM is asked to stop, then closes {@code running} and prints {@code farewell}. The
   * JVM halts as soon as its shutdown hooks end, so the farewell is printed by the hook itself. Interrupting
   * the waiting thread closes {@code running} at once and rethrows.
   */
  static void awaitSignal(AutoCloseable running, java.io.PrintWriter out, String farewell)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      Thread closer = Thread.ofVirtual().start(() -> {
        try {
          running.close();
        } catch (Exception e) {
          System.err.println("error while stopping: " + e);
        }
      });
      try {
        if (!closer.join(java.time.Duration.ofSeconds(GRACE_SECONDS))) {
          System.err.println("servers did not stop within " + GRACE_SECONDS + " s; exiting anyway");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      out.println(farewell);
      out.flush();
      stopped.countDown();
    }, "gym4j-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    // the JVM keeps running on Helidon's threads; this thread only waits for the hook to finish
    try {
      stopped.await(Long.MAX_VALUE, TimeUnit.DAYS);
    } catch (InterruptedException e) {
      // run in-process (a test, an embedding program) and interrupted: stop here, not at JVM exit
      Runtime.getRuntime().removeShutdownHook(hook);
      try {
        running.close();
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      out.println(farewell);
      out.flush();
      throw e;
    }
  }
}
