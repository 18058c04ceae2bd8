package dev.gym4j.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;

import dev.gym4j.json.Json;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;

/**
 * A {@code text/event-stream} answer, written event by event as its source makes them. Each event is flushed
 * to the socket before the source goes on, so a slow reader holds the source back instead of making us buffer:
 * at most one event waits in memory. A reader that takes nothing for the write deadline (or that left) ends the
 * stream; the source's next {@link Sink#send} throws an {@link IOException} and the source must stop its work.
 *
 * <p>Its API is that of {@code ServerSentEvents.Stream} (branch wire21), so that one can replace the other:
 * {@code EventStream.stream(source)} is {@code ServerSentEvents.stream(source)}.
 */
public final class EventStream {
  /** How long one event may take to reach the socket before the reader counts as gone. */
  static final Duration WRITE_DEADLINE = Duration.ofSeconds(60);

  /** Where a source sends its events; each send is on the wire (or failed) when it returns. */
  public interface Sink {
    /** Sends {@code event: <name>} and {@code data: <the JSON of data>}. */
    void send(String name, Object data) throws IOException;
  }

  /** Makes the events of one answer; runs on the request's thread after the 200 and the headers are sent. */
  @FunctionalInterface
  public interface Source {
    void writeTo(Sink sink) throws Exception;
  }

  private final Source source;
  private final Duration writeDeadline;

  private EventStream(Source source, Duration writeDeadline) {
    this.source = source;
    this.writeDeadline = writeDeadline;
  }

  /** A handler's answer that is an event stream (status 200). */
  public static EventStream stream(Source source) {
    return new EventStream(source, WRITE_DEADLINE);
  }

  static EventStream stream(Source source, Duration writeDeadline) {
    return new EventStream(source, writeDeadline);
  }

  void writeTo(ServerResponse res) {
    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    res.header(HeaderNames.CACHE_CONTROL, "no-cache");
    try (OutputStream out = res.outputStream()) {
      source.writeTo((name, data) -> write(out, ("event: " + name.replace("\n", "") + "\ndata: " + Json.write(data)
          + "\n\n").getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      // after the 200 a failure can only end the connection; the source reports what it can as an event first
      throw new CloseConnectionException("the event stream ended early");
    }
  }

  private void write(OutputStream out, byte[] event) throws IOException {
    // a write blocked past its deadline is interrupted, which closes the socket under it
    ScheduledFuture<?> deadline = Deadlines.interruptAfter(writeDeadline);
    try {
      out.write(event);
      out.flush();
    } catch (RuntimeException e) {
      // Helidon wraps a failed socket write in an unchecked exception
      throw new IOException("the reader is gone or took nothing for " + writeDeadline.toSeconds() + " s", e);
    } finally {
      Deadlines.cancel(deadline);
    }
  }
}
