package dev.gym4j.collect;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Collection progress on stderr: a bar redrawn in place on a terminal, plain lines every 10 % (at most
 * once every 5 s, and at least every minute) otherwise, so logs stay readable. When a rollout has been
 * running for {@link #SLOW} or more, the line says how long against its deadline, and is printed even while
 * nothing finishes (every second on a terminal, every {@link #SLOW} otherwise), so a hang is never silent.
 */
final class Progress {
  static final Duration SLOW = Duration.ofSeconds(30);
  /** {@link #SLOW}, shortened by tests. */
  static volatile Duration slow = SLOW;
  private final int total;
  private final PrintStream out;
  private final boolean terminal;
  private final long startNanos = System.nanoTime();
  final AtomicInteger done = new AtomicInteger();
  final AtomicInteger failed = new AtomicInteger();
  final AtomicInteger inFlight = new AtomicInteger();
  private long lastLineNanos = System.nanoTime();
  private int lastDecile = -1;
  private final Duration deadline;
  private final Map<Long, Long> runningSince = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final Thread watcher;

  Progress(int total, PrintStream out, boolean terminal, Duration deadline) {
    this.total = total;
    this.out = out;
    this.terminal = terminal;
    this.deadline = deadline;
    this.watcher = Thread.ofVirtual().name("progress-watcher").start(this::watch);
  }

  /** A rollout starts; give the id to {@link #end}. */
  long begin() {
    long id = ids.incrementAndGet();
    runningSince.put(id, System.nanoTime());
    return id;
  }

  void end(long id) {
    runningSince.remove(id);
  }

  private void watch() {
    Duration every = terminal ? Duration.ofSeconds(1) : slow;
    try {
      while (true) {
        Thread.sleep(every);
        if (slowest().compareTo(slow) >= 0) {
          synchronized (this) {
            out.print((terminal ? "\r" : "") + line(done.get() + failed.get()) + (terminal ? "" : "\n"));
            out.flush();
            lastLineNanos = System.nanoTime();
          }
        }
      }
    } catch (InterruptedException e) {
      // finish() stops the watcher
    }
  }

  private Duration slowest() {
    long now = System.nanoTime();
    return Duration.ofNanos(runningSince.values().stream().mapToLong(start -> now - start).max().orElse(0));
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
    watcher.interrupt();
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
        + " rollouts/min | ETA " + eta + slowNote();
  }

  private String slowNote() {
    Duration slowest = slowest();
    return slowest.compareTo(slow) < 0 ? "" : " | slowest rollout running " + format(slowest) + " of its "
        + format(deadline) + " deadline";
  }

  private static String format(Duration duration) {
    return String.format("%d:%02d:%02d", duration.toHours(), duration.toMinutesPart(), duration.toSecondsPart());
  }
}
