package dev.gym4j.models;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.function.UnaryOperator;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Passes an upstream's server-sent events on to our caller as each arrives, every event's JSON through
 * {@code shape} (so what we send stays valid, as on the non-streaming path). The upstream is read under an
 * idle deadline and an event size limit; our caller's writes have their own deadline, so a slow caller
 * slows the upstream read, and nothing piles up in between. When the upstream fails mid-stream, the caller
 * gets an error event (the status is long sent) and the stream ends.
 */
final class EventRelay {
  /** The largest event passed on: a {@code response.completed} event carries the whole response. */
  static final int MAX_EVENT_BYTES = 64 * 1024 * 1024;

  private EventRelay() {}

  /** Writing to our caller failed: the stream is over, with nobody to tell. */
  static final class CallerFailed extends UncheckedIOException {
    CallerFailed(IOException cause) {
      super(cause);
    }
  }

  /** The upstream sent something that is not an event we can pass on. */
  private static final class UpstreamBroken extends RuntimeException {
    UpstreamBroken(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Passes an upstream's events on to our caller as they come. {@code idle} (the deployment's
   * {@code client_request_timeout_seconds}) bounds both the wait for each event and the whole stream: an upstream
   * that never stops is cut at it, however steadily it sends, and the caller gets an error event saying so.
   *
   * @param done the raw data that ends the stream ({@code [DONE]} for Chat Completions), passed on as is; null
   *     when the stream just ends
   * @param error the event to send when the upstream fails, from its message and the next sequence number
   */
  static ServerSentEvents.Stream relay(URI url, InputStream upstream, Duration idle, UnaryOperator<ObjectNode> shape,
      String done, java.util.function.BiFunction<String, Long, ObjectNode> error) {
    return ServerSentEvents.stream(sink -> {
      long[] next = {0};
      try (upstream) {
        ServerSentEvents.read(upstream, MAX_EVENT_BYTES, idle, idle, event -> {
          if (event.data().equals(done)) {
            send(() -> sink.sendText(event.name(), done));
            return false;
          }
          JsonNode json;
          try {
            json = event.json();
          } catch (JacksonException e) {
            throw new UpstreamBroken("an event that is not JSON");
          }
          if (json.path("sequence_number").isIntegralNumber()) {
            next[0] = json.get("sequence_number").asLong() + 1;
          }
          send(() -> sink.send(event.name(), json instanceof ObjectNode object ? shape.apply(object) : json));
          return true;
        });
      } catch (CallerFailed e) {
        throw e.getCause();
      } catch (IOException | UpstreamBroken e) {
        sink.send(null, error.apply(dev.gym4j.config.Secrets.redact("upstream " + Upstream.shown(url)
            + " failed mid-stream: " + e.getMessage()), next[0]));
      }
    });
  }

  interface Write {
    void run() throws IOException;
  }

  /** Runs a write to our caller; its failure becomes a {@link CallerFailed}, told apart from the upstream's. */
  static void send(Write write) {
    try {
      write.run();
    } catch (IOException e) {
      throw new CallerFailed(e);
    }
  }

  /** {@code sink} with each write's failure turned into a {@link CallerFailed}, told apart from the upstream's. */
  static ServerSentEvents.Sink callerSink(ServerSentEvents.Sink sink) {
    return new ServerSentEvents.Sink() {
      @Override
      public void send(String name, Object data) {
        EventRelay.send(() -> sink.send(name, data));
      }

      @Override
      public void sendText(String name, String data) {
        EventRelay.send(() -> sink.sendText(name, data));
      }
    };
  }

  /** The most event data one upstream stream may bring when its events are added up into one answer. */
  static final long MAX_ANSWER_CHARS = MAX_EVENT_BYTES;

  /**
   * Reads an upstream stream whose events are added up into one answer, as {@link ServerSentEvents#read} does
   * (idle deadline, event size limit, and {@code idle} again as the deadline of the whole stream), and fails once the events' data passes {@code maxChars} in all: the
   * answer is held until its end, so an upstream that never stops must not grow it without bound.
   */
  static void readAnswer(InputStream upstream, Duration idle, long maxChars, ServerSentEvents.Reader reader)
      throws IOException {
    long[] chars = {0};
    ServerSentEvents.read(upstream, MAX_EVENT_BYTES, idle, idle, event -> {
      chars[0] += event.data().length();
      if (chars[0] > maxChars) {
        throw new IOException("the answer is longer than " + maxChars + " characters");
      }
      return reader.onEvent(event);
    });
  }

  /** The stream options of a chat stream whose chunks are added up into one answer: the usage chunk too. */
  static final ObjectNode WITH_USAGE = Json.object().put("include_usage", true);

  /**
   * {@code body} made a streaming Chat Completions request: {@code stream: true}, and {@code options} (a copy)
   * as its {@code stream_options} when it is an object (the caller's, for chunks relayed to it).
   */
  static void streamingChat(ObjectNode body, JsonNode options) {
    body.put("stream", true);
    if (options instanceof ObjectNode object) {
      body.set("stream_options", object.deepCopy());
    }
  }

  /** A Responses {@code error} event. */
  static ObjectNode responsesError(String message, long sequence) {
    ObjectNode event = Json.object();
    event.put("type", "error");
    event.put("code", "upstream_error");
    event.put("message", message);
    event.putNull("param");
    event.put("sequence_number", sequence);
    return event;
  }

  /** A Chat Completions stream error, as OpenAI sends one: {@code {"error": {...}}}. */
  static ObjectNode chatError(String message, long sequence) {
    ObjectNode body = Json.object();
    ObjectNode error = body.putObject("error");
    error.put("message", message);
    error.put("type", "server_error");
    error.putNull("param");
    error.put("code", "upstream_error");
    return body;
  }
}
