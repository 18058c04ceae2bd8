package dev.gym4j.sandbox;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A long-lived sandboxed program (an interpreter kept between tool calls), opened by {@link Sandbox#open}. The
 * caller speaks to it through {@link #stdin()} and {@link #stdout()}, bounds each exchange itself, and closes it;
 * its wall-clock limit closes it in any case, and so does more standard error than its limit allows.
 */
public final class LiveProcess implements AutoCloseable {
  private final Sandbox sandbox;
  private final Sandbox.Launched launched;
  private final CappedOutput stderr;
  private final AtomicBoolean closed = new AtomicBoolean();

  LiveProcess(Sandbox sandbox, Sandbox.Launched launched, Limits limits) {
    this.sandbox = sandbox;
    this.launched = launched;
    this.stderr = new CappedOutput(launched.process().getErrorStream(), limits.stderrBytes(), this::close);
    Thread.ofVirtual().start(stderr);
    Thread.ofVirtual().start(() -> {
      try {
        if (!launched.process().waitFor(limits.wallClock().toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)) {
          close();
        }
      } catch (InterruptedException e) {
        close();
      }
    });
  }

  public OutputStream stdin() {
    return Sandbox.stdin(launched);
  }

  public InputStream stdout() {
    return Sandbox.stdout(launched);
  }

  /** What it wrote to standard error so far (cut at the limit). */
  public String stderr() {
    return stderr.text();
  }

  public boolean alive() {
    return !closed.get() && launched.process().isAlive();
  }

  /** Kills it and everything it started, and removes its files. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      sandbox.closed(this, launched);
    }
  }
}
