package dev.gym4j.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream on one POST path, on a real socket: a request without {@code "stream": true} gets the whole
 * {@link #answer}, one with it gets the scripted {@link #events} as {@code text/event-stream}, each flushed as it
 * is written; {@link #refuse} answers every request with an error status instead. A stream can hold back its rest
 * after the first event a predicate picks until the test {@link #release}s it, so that a test proves its caller saw
 * the start as it arrived: {@link #restSent} says whether the held stream had gone on by then, and
 * {@link #readReleasingAt} reads our caller's stream, noting that and releasing the hold at the event it waits for.
 */
public final class EventUpstream implements AutoCloseable {
  private static final long WAIT_SECONDS = 30;

  private final WebServer server;
  private final List<ScriptedUpstream.Received> received = new CopyOnWriteArrayList<>();
  /** Released on close, so that a held or silent stream's handler ends with the server. */
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile String answer = "{}";
  private volatile int status = 200;
  private volatile String errorBody = "";
  private volatile List<String> events = List.of();
  private volatile Predicate<String> holdAfter = event -> false;
  private volatile boolean silentAtEnd;
  /** When set, a stream that sent its events repeats its last one at this interval, forever. */
  private volatile Duration repeatEvery;
  private volatile String plainType;
  private volatile String plainBody;
  /** The latest stream's hold: released by the test; whether the stream sent its rest. */
  private volatile Hold hold = new Hold();
  /** Every stream's hold, released on close. */
  private final List<Hold> holds = new CopyOnWriteArrayList<>();

  private record Hold(CountDownLatch released, AtomicBoolean restSent) {
    Hold() {
      this(new CountDownLatch(1), new AtomicBoolean());
    }
  }

  private EventUpstream(String path) {
    server = dev.gym4j.server.ServerHost.builder("127.0.0.1", 0)
        .routing(HttpRouting.builder().post(path, this::handle)).build().start();
  }

  /** An upstream answering {@code POST path} on 127.0.0.1 and an ephemeral port. */
  public static EventUpstream start(String path) {
    return new EventUpstream(path);
  }

  public int port() {
    return server.port();
  }

  /** The JSON body of the answer to a request that does not ask to stream. */
  public EventUpstream answer(String json) {
    answer = json;
    return this;
  }

  /**
   * Every request, streamed or not, is answered 200 with this body and Content-Type, as a server that ignores
   * {@code "stream": true} answers (null: back to streaming).
   */
  public EventUpstream ignoringStream(String contentType, String body) {
    plainType = contentType;
    plainBody = body;
    return this;
  }

  /** Every request is answered with this status and JSON body (200 answers again). */
  public EventUpstream refuse(int status, String body) {
    this.status = status;
    errorBody = body;
    return this;
  }

  /** What a stream sends: raw server-sent events (see {@link #event}), or any text, written as given. */
  public EventUpstream events(List<String> events) {
    this.events = List.copyOf(events);
    return this;
  }

  /** After the first event {@code event} picks, a stream waits for {@link #release} (30 s at most). */
  public EventUpstream holdAfter(Predicate<String> event) {
    holdAfter = event;
    return this;
  }

  /** A stream that sent its events stays silent, its connection open, until this upstream is closed. */
  public EventUpstream silentAtEnd() {
    silentAtEnd = true;
    return this;
  }

  /**
   * A stream that sent its events sends its last one again every {@code every}, until its caller leaves or this
   * upstream is closed: an upstream that streams forever, never idle.
   */
  public EventUpstream repeatLastEvery(Duration every) {
    repeatEvery = every;
    return this;
  }

  /** Our caller saw what the latest stream held back for: that stream sends its rest. */
  public void release() {
    hold.released().countDown();
  }

  /** Whether the latest stream had sent what it held back (false before any hold). */
  public boolean restSent() {
    return hold.restSent().get();
  }

  /** The requests received, oldest first. */
  public List<ScriptedUpstream.Received> received() {
    return List.copyOf(received);
  }

  /**
   * Reads our caller's stream {@code in} to its end (each event within 30 s), handing each event to {@code each};
   * at the first event {@code first} picks, it notes whether this upstream's latest stream had sent what it held
   * back, then releases it. The note, when an event was picked: {@code false} proves that event reached our
   * caller as it arrived.
   */
  public Optional<Boolean> readReleasingAt(InputStream in, Predicate<ServerSentEvents.Event> first,
      Consumer<ServerSentEvents.Event> each) throws IOException {
    AtomicReference<Boolean> note = new AtomicReference<>();
    try (in) {
      ServerSentEvents.read(in, 1 << 20, Duration.ofSeconds(WAIT_SECONDS), event -> {
        each.accept(event);
        if (note.get() == null && first.test(event)) {
          note.set(restSent());
          release();
        }
        return true;
      });
    }
    return Optional.ofNullable(note.get());
  }

  /** A server-sent event of this name carrying {@code data} as one line of JSON. */
  public static String event(String name, JsonNode data) {
    return "event: " + name + "\ndata: " + Json.write(data) + "\n\n";
  }

  private void handle(ServerRequest req, ServerResponse res) throws Exception {
    ObjectNode body = (ObjectNode) Json.parse(req.content().as(byte[].class));
    Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    req.headers().forEach(header -> headers.put(header.name(), header.get()));
    received.add(new ScriptedUpstream.Received(req.path().path(), body, headers, req.query().rawValue()));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    if (status != 200) {
      res.status(Status.create(status)).send(errorBody.getBytes(StandardCharsets.UTF_8));
      return;
    }
    if (plainType != null) {
      res.header(HeaderNames.CONTENT_TYPE, plainType);
      res.send(plainBody.getBytes(StandardCharsets.UTF_8));
      return;
    }
    if (!body.path("stream").asBoolean(false)) {
      res.send(answer.getBytes(StandardCharsets.UTF_8));
      return;
    }
    Hold mine = new Hold();
    holds.add(mine);
    hold = mine;
    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
    try (OutputStream out = res.outputStream()) {
      boolean held = false;
      for (String event : events) {
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
        if (!held && holdAfter.test(event)) {
          held = true;
          mine.released().await(WAIT_SECONDS, TimeUnit.SECONDS);
          mine.restSent().set(true);
        }
      }
      if (silentAtEnd) {
        closing.await(WAIT_SECONDS, TimeUnit.SECONDS);
      }
      Duration every = repeatEvery;
      while (every != null && !events.isEmpty() && !closing.await(every.toMillis(), TimeUnit.MILLISECONDS)) {
        out.write(events.getLast().getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException e) {
      // our caller left: nothing more to send
    }
  }

  @Override
  public void close() {
    closing.countDown();
    holds.forEach(each -> each.released().countDown());
    server.stop();
  }
}
