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
import tools.jackson.databind.JsonNode;

/**
 * A {@code text/event-stream} answer, written event by event as its producer makes them. Each event is flushed
 * to the socket before the producer goes on, so a slow reader holds the producer back instead of making us
 * buffer: at most one event waits in memory. A reader that takes no bytes for {@code writeTimeout} (or that
 * left) ends the stream; the producer sees {@link Gone} from {@link Sink#send} and must stop its work.
 *
 * <p>A handler returns one of these as its result (status 200); errors found before the first event are
 * ordinary error answers.
 */
public final class EventStream {
  /** How long one event may take to reach the socket before the reader counts as gone. */
  public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(60);

  /** Where a producer sends its events. */
  public interface Sink {
    /** Writes {@code event: <name>} and {@code data: <json>}, and flushes; throws {@link Gone} if the reader left. */
    void send(String name, JsonNode data);
  }

  /** Makes the events of one answer; runs on the request's thread. */
  public interface Producer {
    void produce(Sink sink);
  }

  /** The reader left or stopped reading: nothing more can be sent. */
  public static final class Gone extends RuntimeException {
    Gone(String message) {
      super(message, null, false, false);
    }
  }

  private final Producer producer;
  private final Duration writeTimeout;

  private EventStream(Producer producer, Duration writeTimeout) {
    this.producer = producer;
    this.writeTimeout = writeTimeout;
  }

  public static EventStream of(Producer producer) {
    return new EventStream(producer, WRITE_TIMEOUT);
  }

  public static EventStream of(Producer producer, Duration writeTimeout) {
    return new EventStream(producer, writeTimeout);
  }

  /** The wire form of one event. */
  public static byte[] encode(String name, JsonNode data) {
    return ("event: " + name + "\ndata: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8);
  }

  void writeTo(ServerResponse res) {
    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    res.header(HeaderNames.CACHE_CONTROL, "no-cache");
    try (OutputStream out = res.outputStream()) {
      producer.produce((name, data) -> write(out, encode(name, data)));
    } catch (Gone | IOException | java.io.UncheckedIOException e) {
      throw new CloseConnectionException("the event stream's reader left or stopped reading");
    }
  }

  private void write(OutputStream out, byte[] bytes) {
    // a write blocked past its deadline is interrupted, which closes the socket under it
    ScheduledFuture<?> deadline = Deadlines.interruptAfter(writeTimeout);
    try {
      out.write(bytes);
      out.flush();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new Gone("the reader left or stopped reading");
    } finally {
      Deadlines.cancel(deadline);
    }
  }
}
