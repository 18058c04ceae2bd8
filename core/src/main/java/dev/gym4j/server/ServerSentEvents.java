package dev.gym4j.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.gym4j.json.Json;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import tools.jackson.databind.JsonNode;

/**
 * Server-sent events ({@code text/event-stream}), both ways: a handler answers with a {@link Stream}, whose
 * source writes events one by one as they are ready, and a client reads an upstream's events with
 * {@link #read}.
 *
 * <p>Backpressure: every event is written and flushed straight to the socket, on the handler's thread, so a
 * slow reader slows the source down instead of piling events up in memory; at most the socket's buffers
 * hold what the reader has not taken. Each write has a deadline (the server's body timeout): a reader that
 * takes nothing for that long has the connection closed, and the source's next send fails with an
 * {@link IOException}.
 *
 * <p>Reading is bounded the same way: an event over {@code maxEventBytes} fails the read, and so does an
 * upstream silent for longer than the idle deadline.
 */
public final class ServerSentEvents {
  private static final byte[] NEWLINE = {'\n'};

  private ServerSentEvents() {}

  /** One event: its name ({@code event:} field, null when absent) and its data (the {@code data:} lines joined). */
  public record Event(String name, String data) {
    /** The data parsed as JSON. */
    public JsonNode json() {
      return Json.parse(data.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Where a source writes its events; each send is on the wire (or failed) when it returns. */
  public interface Sink {
    /** Sends an event whose data is the JSON of {@code data}; a null name sends no {@code event:} line. */
    void send(String name, Object data) throws IOException;

    /** Sends an event with raw text data, such as Chat Completions' closing {@code [DONE]}. */
    void sendText(String name, String data) throws IOException;
  }

  /** Writes a stream's events; runs on the request's thread after the 200 and the headers are sent. */
  @FunctionalInterface
  public interface Source {
    void writeTo(Sink sink) throws Exception;
  }

  /** A handler's answer that is an event stream, status 200. */
  public record Stream(Source source) {}

  public static Stream stream(Source source) {
    return new Stream(source);
  }

  /** Sends the headers, then runs the source, each event flushed under {@code writeDeadline}. */
  static void write(ServerResponse res, Stream stream, Duration writeDeadline) throws Exception {
    res.status(Status.OK_200);
    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    res.header(HeaderNames.CACHE_CONTROL, "no-cache");
    try (OutputStream out = res.outputStream()) {
      stream.source().writeTo(new SocketSink(out, writeDeadline));
    }
  }

  /**
   * Runs the source to its end into memory: the whole stream as one body, for a caller in the same JVM that
   * reads the answer whole anyway (as an HTTP caller reading it with one {@code HttpReply} does). Memory takes
   * every event at once, so no write is timed: no deadline timer is armed per event.
   */
  static RawBody collect(Stream stream) throws Exception {
    MemorySink sink = new MemorySink();
    stream.source().writeTo(sink);
    return new RawBody("text/event-stream; charset=utf-8", sink.out.toByteArray());
  }

  /** As {@link #collect(Stream)}; the write deadline is a socket's and does not apply to memory. */
  static RawBody collect(Stream stream, Duration writeDeadline) throws Exception {
    return collect(stream);
  }

  /** Frames events as {@code text/event-stream}; subclasses say where an event's bytes go. */
  private abstract static class FramingSink implements Sink {
    @Override
    public final void send(String name, Object data) throws IOException {
      sendText(name, Json.write(data));
    }

    @Override
    public final void sendText(String name, String data) throws IOException {
      ByteArrayOutputStream event = new ByteArrayOutputStream(data.length() + 32);
      if (name != null) {
        event.writeBytes(("event: " + oneLine(name) + "\n").getBytes(StandardCharsets.UTF_8));
      }
      for (String line : data.split("\n", -1)) {
        event.writeBytes(("data: " + line.replace("\r", "")).getBytes(StandardCharsets.UTF_8));
        event.writeBytes(NEWLINE);
      }
      event.writeBytes(NEWLINE);
      write(event.toByteArray());
    }

    /** Puts one whole event where it goes; returns when it is there. */
    abstract void write(byte[] event) throws IOException;

    private static String oneLine(String name) {
      return name.replace("\n", "").replace("\r", "");
    }
  }

  /** Each event written and flushed to the socket under the write deadline. */
  private static final class SocketSink extends FramingSink {
    private final OutputStream out;
    private final Duration deadline;

    SocketSink(OutputStream out, Duration deadline) {
      this.out = out;
      this.deadline = deadline;
    }

    @Override
    void write(byte[] event) throws IOException {
      Deadlines.Deadline timer = Deadlines.interruptAfter(deadline);
      try {
        out.write(event);
        out.flush();
      } catch (RuntimeException e) {
        // Helidon wraps a failed socket write in an unchecked exception
        throw new IOException("the event could not be written: the reader is gone or took nothing for "
            + deadline.toSeconds() + " s", e);
      } finally {
        Deadlines.cancel(timer);
      }
    }
  }

  /** Events appended to a buffer in memory. */
  private static final class MemorySink extends FramingSink {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @Override
    void write(byte[] event) {
      out.writeBytes(event);
    }
  }

  /** What a reader does with each event; returning false stops reading. */
  @FunctionalInterface
  public interface Reader {
    boolean onEvent(Event event) throws IOException;
  }

  /**
   * Reads events from {@code in} until its end or until {@code reader} returns false. Each event must arrive
   * within {@code idle} and be at most {@code maxEventBytes} long; otherwise the read fails with an
   * {@link IOException} (an {@link InterruptedIOException} for the deadline). The stream is not closed here.
   */
  public static void read(InputStream in, int maxEventBytes, Duration idle, Reader reader) throws IOException {
    read(in, maxEventBytes, idle, null, reader);
  }

  /**
   * As {@link #read(InputStream, int, Duration, Reader)}, and the whole stream must end within {@code total} (null:
   * no bound): data that comes past it fails the read with {@link Overdue}, however steadily it came (a stream that
   * falls silent meets the idle deadline instead, so none lives longer than {@code total} plus {@code idle}).
   * Without it an upstream that sends an event now and then never ends while its reader keeps reading.
   */
  public static void read(InputStream in, int maxEventBytes, Duration idle, Duration total, Reader reader)
      throws IOException {
    long end = System.nanoTime() + (total == null ? Long.MAX_VALUE / 2 : total.toNanos());
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    StringBuilder data = null;
    String name = null;
    int eventBytes = 0;
    byte[] buffer = new byte[8192];
    while (true) {
      int n;
      Deadlines.Deadline timer = Deadlines.interruptAfter(idle);
      boolean late;
      try {
        n = in.read(buffer);
      } catch (IOException e) {
        late = timer.passed();
        Deadlines.cancel(timer);
        throw late ? new InterruptedIOException("no event within " + idle.toSeconds() + " s") : e;
      }
      Deadlines.cancel(timer);
      if (n > 0 && System.nanoTime() - end > 0) {
        throw new Overdue(total);
      }
      if (n < 0) {
        return;
      }
      for (int i = 0; i < n; i++) {
        byte b = buffer[i];
        if (++eventBytes > maxEventBytes) {
          throw new IOException("an event is longer than " + maxEventBytes + " bytes");
        }
        if (b == '\r') {
          continue;
        }
        if (b != '\n') {
          line.write(b);
          continue;
        }
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (text.isEmpty()) {
          if (data != null && !reader.onEvent(new Event(name, data.toString()))) {
            return;
          }
          data = null;
          name = null;
          eventBytes = 0;
        } else if (text.startsWith("data:")) {
          String value = field(text, 5);
          data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        } else if (text.startsWith("event:")) {
          name = field(text, 6);
        }
        // comments (":…"), id: and retry: carry nothing gym4j uses
      }
    }
  }

  /** A stream that did not end within its total deadline: a timeout, as an idle stream's. */
  public static final class Overdue extends InterruptedIOException {
    Overdue(Duration total) {
      super("the stream ran longer than " + (total.toMillis() % 1000 == 0 ? String.valueOf(total.toSeconds())
          : String.valueOf(total.toMillis() / 1000.0)) + " s, its deadline");
    }
  }

  private static String field(String line, int start) {
    return line.startsWith(" ", start) ? line.substring(start + 1) : line.substring(start);
  }
}
