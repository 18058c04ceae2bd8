package dev.gym4j.models;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatChunks;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseEvents;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answer of an upstream that was asked to stream and answered with something other than server-sent
 * events. Some OpenAI-compatible servers ignore {@code "stream": true}: their JSON answer (a chat completion or
 * a Response) is the whole answer, made here into the events the same answer streamed would have been, so the
 * stream readers downstream see no difference. Anything else fails before our caller's stream starts, saying
 * what came: its Content-Type and the start of its body, redacted.
 */
final class WholeAnswer {
  private static final int MAX_BYTES = EventRelay.MAX_EVENT_BYTES;
  private static final int EXCERPT = 300;

  private WholeAnswer() {}

  /** Whether a 2xx answer to a streaming request is an event stream (an answer without a type is taken as one). */
  static boolean isEventStream(String contentType) {
    return contentType.isEmpty() || contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
  }

  /**
   * The events of a whole answer, read within {@code deadline}; {@code request} is what was sent (its
   * {@code stream_options.include_usage} decides whether a chat answer's usage chunk is sent).
   */
  static InputStream asEvents(URI url, String contentType, InputStream body, Duration deadline, ObjectNode request) {
    byte[] answer = read(url, body, deadline);
    JsonNode json = null;
    if (contentType.toLowerCase(Locale.ROOT).contains("json")) {
      try {
        json = Json.parse(answer);
      } catch (JacksonException e) {
        // said below, with what came
      }
    }
    ByteArrayOutputStream events = new ByteArrayOutputStream();
    ServerSentEvents.Sink sink = sinkInto(events);
    try {
      if (json instanceof ObjectNode object && object.path("choices").isArray()) {
        ChatCompletion completion = Upstream.validated(url, () -> ChatCompletion.of(object));
        ChatChunks.replay(completion, ChatChunks.includeUsage(request), sink);
      } else if (json instanceof ObjectNode object && object.path("output").isArray()) {
        ResponseEvents.replay(Upstream.validated(url, () -> Response.of(object)), sink);
      } else {
        throw new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + Upstream.shown(url)
            + " was asked to stream and answered " + (contentType.isEmpty() ? "without a Content-Type" : contentType)
            + " instead of server-sent events (text/event-stream)" + (json == null ? "" : ", a JSON value that is "
            + "no chat completion and no Response") + ": " + excerpt(answer), 200, null);
      }
    } catch (IOException | FieldError e) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + Upstream.shown(url)
          + " gave an invalid answer: " + e.getMessage(), 200, e);
    }
    return new ByteArrayInputStream(events.toByteArray());
  }

  /** The body whole, at most {@link #MAX_BYTES}, within the deadline (the stream is closed when it passes). */
  private static byte[] read(URI url, InputStream body, Duration deadline) {
    FutureTask<byte[]> reading = new FutureTask<>(() -> body.readNBytes(MAX_BYTES + 1));
    Thread.ofVirtual().name("whole answer of " + Upstream.shown(url)).start(reading);
    try (body) {
      byte[] answer = reading.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
      if (answer.length > MAX_BYTES) {
        throw new UpstreamException(UpstreamException.Kind.STATUS, "upstream " + Upstream.shown(url)
            + " answered with more than " + MAX_BYTES + " bytes", 200, null);
      }
      return answer;
    } catch (TimeoutException e) {
      reading.cancel(true);
      throw new UpstreamException(UpstreamException.Kind.TIMEOUT, "upstream " + Upstream.shown(url)
          + " sent no complete answer within " + deadline.toSeconds() + " s", 200, null);
    } catch (ExecutionException | IOException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new UpstreamException(UpstreamException.Kind.CONNECTION, "upstream " + Upstream.shown(url)
          + " broke off its answer: " + Secrets.redact(String.valueOf(cause.getMessage())), 200, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reading.cancel(true);
      throw new java.util.concurrent.CancellationException("interrupted while reading an upstream answer");
    }
  }

  /** The start of a body, redacted whole before it is cut (a cut must not hide a secret from the redactor). */
  private static String excerpt(byte[] body) {
    String text = Secrets.redact(new String(body, StandardCharsets.UTF_8)).strip();
    if (text.isEmpty()) {
      return "an empty body";
    }
    return text.length() <= EXCERPT ? text : text.substring(0, EXCERPT) + "…";
  }

  private static ServerSentEvents.Sink sinkInto(ByteArrayOutputStream out) {
    return new ServerSentEvents.Sink() {
      @Override
      public void send(String name, Object data) {
        sendText(name, Json.write(data));
      }

      @Override
      public void sendText(String name, String data) {
        StringBuilder event = new StringBuilder();
        if (name != null) {
          event.append("event: ").append(name).append('\n');
        }
        data.lines().forEach(line -> event.append("data: ").append(line).append('\n'));
        out.writeBytes(event.append('\n').toString().getBytes(StandardCharsets.UTF_8));
      }
    };
  }
}
