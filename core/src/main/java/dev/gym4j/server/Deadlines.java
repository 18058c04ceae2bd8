package dev.gym4j.server;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;

/**
 * Deadlines on reading from a client. A thread blocked reading a socket past its deadline is interrupted,
 * which closes the socket under it: the read fails and the connection ends.
 */
final class Deadlines {
  static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "gym4j-read-deadlines");
    thread.setDaemon(true);
    return thread;
  });

  private Deadlines() {}

  /**
   * A pending interrupt of one thread. Its state says whether the deadline passed: a scheduled task's own
   * {@code cancel} cannot, because it still succeeds while the task runs, after the interrupt may have landed.
   */
  static final class Deadline {
    private static final int ARMED = 0;
    private static final int FIRING = 1;
    private static final int FIRED = 2;
    private static final int CANCELLED = 3;

    private final AtomicInteger state = new AtomicInteger(ARMED);
    private final Thread thread;
    private ScheduledFuture<?> task;

    private Deadline(Thread thread) {
      this.thread = thread;
    }

    private void fire() {
      if (state.compareAndSet(ARMED, FIRING)) {
        thread.interrupt();
        state.set(FIRED);
      }
    }

    /** Whether the deadline passed: the thread was interrupted for it, or is being. */
    boolean passed() {
      int now = state.get();
      return now == FIRING || now == FIRED;
    }
  }

  /** Interrupts the calling thread after the timeout unless the returned deadline is cancelled first. */
  static Deadline interruptAfter(Duration timeout) {
    Deadline deadline = new Deadline(Thread.currentThread());
    deadline.task = TIMER.schedule(deadline::fire, timeout.toNanos(), TimeUnit.NANOSECONDS);
    return deadline;
  }

  /**
   * Cancels a deadline, on the thread it guards; clears an interrupt that fired after the read it guarded had
   * finished (waiting for one being delivered, so that none lands after this returns).
   */
  static void cancel(Deadline deadline) {
    if (deadline.state.compareAndSet(Deadline.ARMED, Deadline.CANCELLED)) {
      deadline.task.cancel(false);
      return;
    }
    while (deadline.state.get() == Deadline.FIRING) {
      Thread.onSpinWait();
    }
    Thread.interrupted();
  }

  /**
   * Limits the time from an HTTP/1.1 request line to the end of its headers. Helidon calls it on the
   * connection's thread, so the thread that reads the headers is the one interrupted.
   */
  static final class Headers1 implements Http1ConnectionListener {
    private final Duration timeout;
    private final ThreadLocal<Deadline> pending = new ThreadLocal<>();

    Headers1(Duration timeout) {
      this.timeout = timeout;
    }

    @Override
    public void prologue(ConnectionContext context, HttpPrologue prologue) {
      pending.set(interruptAfter(timeout));
    }

    @Override
    public void headers(ConnectionContext context, Headers headers) {
      AcceptedConnections.started(context.remotePeer(), context.localPeer());
      Deadline deadline = pending.get();
      if (deadline != null) {
        pending.remove();
        cancel(deadline);
      }
    }
  }
}
