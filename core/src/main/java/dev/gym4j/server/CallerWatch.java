package dev.gym4j.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.helidon.http.http2.Http2Stream;
import io.helidon.http.http2.Http2StreamState;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Watches, while a handler runs, whether the client that sent the request is still there, and interrupts
 * the handler's thread when it is not. An interrupted model or agent call cancels its upstream request (the
 * JDK client closes an HTTP/1.1 exchange and resets an HTTP/2 stream), so a caller that gave up leaves no
 * work behind: no model call that runs for minutes for nobody.
 *
 * <p>How a caller is seen to leave: on HTTP/1.1 nobody reads the socket while the handler runs, so every
 * {@link #PERIOD} the watch reads it without blocking, and end of stream (the client closed, or shut down
 * its sending side, as nginx also reads it) means gone. A byte there instead is a pipelined next request;
 * it cannot be put back, so the watch stops and the connection is closed after this response
 * ({@link #tookInput()}), which the client sees as an unanswered pipelined request. On HTTP/2 the socket
 * belongs to the connection's reader: the watch sees the whole connection close, and a reset of the request's
 * own stream (what a client sends when it cancels one call on a shared connection). Helidon 4.5 tells a
 * handler nothing of a reset, so the stream's state is read from its response by reflection; should a later
 * Helidon rename that field, resets go unseen (CallerGoneTest fails) while connection closes still count.
 *
 * <p>One watch per request, closed by the handler's thread; the probes run on the deadline timer.
 */
final class CallerWatch implements AutoCloseable {
  /**
   * How often a watched caller is looked at: the longest orphan work after it leaves, within the timer's lag.
   * A second, not less: with 100,000 rollouts in flight several hundred thousand requests are watched at once,
   * and every look is a task on the timer that also serves every deadline of the process.
   */
  static final Duration PERIOD = Duration.ofSeconds(1);
  private static final CallerWatch NONE = new CallerWatch(null, false, null);
  private static final java.lang.reflect.Field H2_STREAM = h2Stream();

  private final SocketChannel channel;
  private final boolean readable;
  private final Http2Stream stream;
  private final Thread handler;
  private final ReentrantLock lock = new ReentrantLock();
  private ScheduledFuture<?> probes;
  private boolean closed;
  private volatile boolean gone;
  private volatile boolean tookInput;

  private CallerWatch(SocketChannel channel, boolean readable, Http2Stream stream) {
    this(channel, readable, stream, Thread.currentThread());
  }

  private CallerWatch(SocketChannel channel, boolean readable, Http2Stream stream, Thread handler) {
    this.handler = handler;
    this.channel = channel;
    this.readable = readable;
    this.stream = stream;
  }

  /** Starts watching the caller of {@code req}, on the thread that handles it and will answer {@code res}. */
  static CallerWatch start(ServerRequest req, ServerResponse res) {
    var channel = AcceptedConnections.channel(req.remotePeer(), req.localPeer());
    if (channel.isEmpty()) {
      return NONE;
    }
    boolean http1 = req.prologue().protocolVersion().startsWith("1.");
    CallerWatch watch = new CallerWatch(channel.get(), http1, http1 ? null : stream(res));
    watch.lock.lock();
    try {
      watch.probes = Deadlines.TIMER.scheduleWithFixedDelay(watch::probe, PERIOD.toNanos(), PERIOD.toNanos(),
          TimeUnit.NANOSECONDS);
    } finally {
      watch.lock.unlock();
    }
    return watch;
  }

  /**
   * A watch on a caller in this JVM ({@link InProcess}), which tells it by {@link #leave()} when it gives up
   * (its deadline passed, or it was interrupted) while {@code handler} serves it.
   */
  static CallerWatch inProcess(Thread handler) {
    return new CallerWatch(null, false, null, handler);
  }

  /** The caller in this JVM left: the handler's thread is interrupted, as a probe does for a caller gone. */
  void leave() {
    lock.lock();
    try {
      if (!closed && !gone) {
        gone = true;
        handler.interrupt();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the caller left while the handler ran (its thread was interrupted for it). */
  boolean gone() {
    return gone;
  }

  /** Whether a probe read a byte of the next request: the connection must close after this response. */
  boolean tookInput() {
    return tookInput;
  }

  private void probe() {
    // never blocks: the timer thread serves every deadline of the process
    if (!lock.tryLock()) {
      return;
    }
    try {
      if (closed) {
        return;
      }
      if (callerLeft()) {
        gone = true;
        probes.cancel(false);
        handler.interrupt();
      } else if (tookInput) {
        probes.cancel(false);
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean callerLeft() {
    if (!channel.isOpen()) {
      return true;
    }
    if (!readable) {
      // before the answer, a stream is closed only by the client's reset
      return stream != null && stream.streamState() == Http2StreamState.CLOSED;
    }
    try {
      // the handler's thread is the connection's reader and is busy in the handler: the socket is ours to peek
      channel.configureBlocking(false);
      try {
        int read = channel.read(ByteBuffer.allocate(1));
        tookInput = read > 0;
        return read < 0;
      } finally {
        channel.configureBlocking(true);
      }
    } catch (IOException e) {
      // reset by the peer, or closed under us: either way nobody is waiting for the answer
      return true;
    }
  }

  private static Http2Stream stream(ServerResponse res) {
    try {
      return H2_STREAM != null && H2_STREAM.getDeclaringClass().isInstance(res) ? (Http2Stream) H2_STREAM.get(res)
          : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static java.lang.reflect.Field h2Stream() {
    try {
      var field = Class.forName("io.helidon.webserver.http2.Http2ServerResponse").getDeclaredField("stream");
      field.setAccessible(true);
      return Http2Stream.class.isAssignableFrom(field.getType()) ? field : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Stops watching; clears an interrupt this watch caused, so it never reaches the connection's next use. */
  @Override
  public void close() {
    if (this == NONE) {
      return;
    }
    lock.lock();
    try {
      closed = true;
      if (probes != null) {
        probes.cancel(false);
      }
    } finally {
      lock.unlock();
    }
    if (gone) {
      Thread.interrupted();
    }
  }
}
