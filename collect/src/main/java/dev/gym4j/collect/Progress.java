package dev.gym4j.collect;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Collection progress on stderr: a bar redrawn in place on a terminal, plain lines every 10 % (at most
 * once every 5 s, and at least every minute) otherwise, so logs stay readable.
 */
final class Progress {
  private final int total;
  private final PrintStream out;
  private final boolean terminal;
  private final long startNanos = System.nanoTime();
  final AtomicInteger done = new AtomicInteger();
  final AtomicInteger failed = new AtomicInteger();
  final AtomicInteger inFlight = new AtomicInteger();
  private long lastLineNanos = System.nanoTime();
  private int lastDecile = -1;

  Progress(int total, PrintStream out, boolean terminal) {
    this.total = total;
    this.out = out;
    this.terminal = terminal;
  }

  synchronized void tick() {
    int finished = done.get() + failed.get();
    if (terminal) {
      out.print("\r" + line(finished));
      out.flush();
      return;
    }
    int decile = total == 0 ? 10 : finished * 10 / total;
    long now = System.nanoTime();
    boolean stepped = decile > lastDecile && now - lastLineNanos > Duration.ofSeconds(5).toNanos();
    if (stepped || finished == total || now - lastLineNanos > Duration.ofMinutes(1).toNanos()) {
      out.println(line(finished));
      lastDecile = decile;
      lastLineNanos = now;
    }
  }

  synchronized void finish() {
    if (terminal) {
      out.println("\r" + line(done.get() + failed.get()));
    }
  }

  private String line(int finished) {
    double minutes = Math.max((System.nanoTime() - startNanos) / 60e9, 1e-9);
    double rate = finished / minutes;
    String eta = rate <= 0 || finished >= total ? "-" : format(Duration.ofSeconds((long) ((total - finished) / rate * 60)));
    int width = 30;
    int filled = total == 0 ? width : finished * width / total;
    return "[" + "=".repeat(filled) + " ".repeat(width - filled) + "] " + done.get() + " done, " + failed.get()
        + " failed, " + inFlight.get() + " in flight of " + total + " | " + String.format("%.1f", rate)
        + " rollouts/min | ETA " + eta;
  }

  private static String format(Duration duration) {
    return String.format("%d:%02d:%02d", duration.toHours(), duration.toMinutesPart(), duration.toSecondsPart());
  }
}
