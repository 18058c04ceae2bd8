package dev.gym4j.models;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.function.Function;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads an Anthropic Messages event stream ({@code POST /v1/messages} with {@code stream: true}) as it arrives
 * and tells an {@link Output} about each piece, while it builds the message the events describe: at
 * {@code message_stop} that message is exactly what the upstream would have answered without {@code stream}, so
 * what is made of it is what the non-streaming path makes. Events: {@code message_start},
 * {@code content_block_start}/{@code _delta}/{@code _stop} ({@code text_delta}, {@code thinking_delta},
 * {@code signature_delta}, {@code input_json_delta}), {@code message_delta} (stop reason, usage),
 * {@code message_stop}; {@code ping} and event types we do not know are skipped, as Anthropic asks of clients.
 *
 * <p>The upstream is read under an idle deadline and an event size limit ({@link EventRelay}'s). An {@code error}
 * event, a broken or silent upstream, a stream that ends before {@code message_stop} or an answer we cannot read
 * ends the stream with the output's error, its message redacted. Not thread-safe: one per upstream stream.
 */
final class AnthropicStream {
  /** What is made of the events: each call may write to our caller, and an {@link IOException} is its failure. */
  interface Output {
    /** {@code message_start}: the message's shell (id, model, the input usage). */
    void started(ObjectNode message) throws IOException;

    /** A content block begins: as in its start event ({@code input} of a tool_use still empty). */
    void blockStarted(int index, ObjectNode block) throws IOException;

    /** A delta of the block at {@code index}, already added to {@code block}. */
    void delta(int index, ObjectNode block, ObjectNode delta) throws IOException;

    /** The block is whole (a tool_use's {@code input} parsed from its JSON deltas). */
    void blockStopped(int index, ObjectNode block) throws IOException;

    /** {@code message_stop}: the whole message, as a non-streaming call answers it. */
    void finished(ObjectNode message) throws IOException;

    /** The stream failed after it started; {@code message} is redacted and says what failed. */
    void failed(String message) throws IOException;
  }

  /** The upstream's stream is not a Messages stream we can read. */
  private static final class UpstreamBroken extends RuntimeException {
    UpstreamBroken(String message) {
      super(message, null, false, false);
    }
  }

  private final Output output;
  private ObjectNode message;
  private final ArrayNode blocks = Json.array();
  private final StringBuilder partialJson = new StringBuilder();
  private boolean stopped;

  private AnthropicStream(Output output) {
    this.output = output;
  }

  /** Our caller's stream: {@code upstream}'s events through the output {@code outputs} makes for the sink. */
  static ServerSentEvents.Stream relay(URI url, InputStream upstream, Duration idle,
      Function<ServerSentEvents.Sink, Output> outputs) {
    return ServerSentEvents.stream(sink -> {
      Output output = outputs.apply(sink);
      AnthropicStream stream = new AnthropicStream(output);
      String failure;
      try (upstream) {
        EventRelay.readAnswer(upstream, idle, EventRelay.MAX_ANSWER_CHARS, stream::onEvent);
        if (stream.stopped) {
          return;
        }
        failure = "upstream " + Upstream.shown(url) + " ended its stream before message_stop";
      } catch (EventRelay.CallerFailed e) {
        throw e.getCause();
      } catch (IOException | UpstreamBroken e) {
        failure = "upstream " + Upstream.shown(url) + " failed mid-stream: " + e.getMessage();
      } catch (FieldError e) {
        failure = "upstream " + Upstream.shown(url) + " gave an invalid answer: " + e;
      } catch (UpstreamException e) {
        failure = e.getMessage();
      }
      output.failed(Secrets.redact(failure));
    });
  }

  private boolean onEvent(ServerSentEvents.Event event) {
    ObjectNode data = object(event);
    String type = data.path("type").asString("");
    if (message == null && !type.equals("message_start") && !type.equals("ping") && !type.equals("error")) {
      throw new UpstreamBroken("'" + type + "' before message_start");
    }
    switch (type) {
      case "message_start" -> {
        if (!(data.get("message") instanceof ObjectNode start) || message != null) {
          throw new UpstreamBroken("a message_start without a message, or a second one");
        }
        message = start.deepCopy();
        write(() -> output.started(message.deepCopy()));
      }
      case "content_block_start" -> {
        if (!(data.get("content_block") instanceof ObjectNode block) || data.path("index").asInt(-1) != blocks.size()) {
          throw new UpstreamBroken("a content_block_start without a block, or out of order");
        }
        blocks.add(block.deepCopy());
        partialJson.setLength(0);
        write(() -> output.blockStarted(blocks.size() - 1, current(data)));
      }
      case "content_block_delta" -> {
        ObjectNode block = current(data);
        if (!(data.get("delta") instanceof ObjectNode delta)) {
          throw new UpstreamBroken("a content_block_delta without a delta");
        }
        if (add(block, delta)) {
          write(() -> output.delta(blocks.size() - 1, block, delta));
        }
      }
      case "content_block_stop" -> {
        ObjectNode block = current(data);
        if ("tool_use".equals(block.path("type").asString("")) && !partialJson.isEmpty()) {
          block.set("input", parsedInput());
        }
        write(() -> output.blockStopped(blocks.size() - 1, block));
      }
      case "message_delta" -> {
        JsonNode delta = data.path("delta");
        for (String field : new String[] {"stop_reason", "stop_sequence"}) {
          if (delta.has(field)) {
            message.set(field, delta.get(field));
          }
        }
        if (data.get("usage") instanceof ObjectNode usage) {
          ObjectNode merged = message.get("usage") instanceof ObjectNode known ? known : message.putObject("usage");
          usage.properties().forEach(entry -> {
            if (!entry.getValue().isNull()) {
              merged.set(entry.getKey(), entry.getValue());
            }
          });
        }
      }
      case "message_stop" -> {
        message.set("content", blocks);
        stopped = true;
        write(() -> output.finished(message));
        return false;
      }
      case "error" -> throw new UpstreamBroken("an error event: " + data.path("error").path("type").asString("error")
          + ": " + data.path("error").path("message").asString(""));
      default -> { } // ping, and event types added after this was written
    }
    return true;
  }

  private static ObjectNode object(ServerSentEvents.Event event) {
    try {
      if (event.json() instanceof ObjectNode object) {
        return object;
      }
    } catch (JacksonException e) {
      // reported below
    }
    throw new UpstreamBroken("an event that is not a JSON object");
  }

  /** The block an event is about: the last one started, as Anthropic sends blocks one after another. */
  private ObjectNode current(ObjectNode data) {
    int index = data.path("index").asInt(-1);
    if (index != blocks.size() - 1 || index < 0) {
      throw new UpstreamBroken("an event for content block " + index + " while block " + (blocks.size() - 1)
          + " is open");
    }
    return (ObjectNode) blocks.get(index);
  }

  /** Adds a delta to its block; false for a delta kind that changes nothing we keep (citations). */
  private boolean add(ObjectNode block, ObjectNode delta) {
    switch (delta.path("type").asString("")) {
      case "text_delta" -> append(block, "text", delta.path("text").asString(""));
      case "thinking_delta" -> append(block, "thinking", delta.path("thinking").asString(""));
      case "signature_delta" -> append(block, "signature", delta.path("signature").asString(""));
      case "input_json_delta" -> partialJson.append(delta.path("partial_json").asString(""));
      default -> {
        return false;
      }
    }
    return true;
  }

  private static void append(ObjectNode block, String field, String more) {
    block.put(field, block.path(field).asString("") + more);
  }

  private JsonNode parsedInput() {
    try {
      JsonNode input = Json.parse(partialJson.toString());
      if (input.isObject()) {
        return input;
      }
    } catch (JacksonException e) {
      // reported below
    }
    throw new UpstreamBroken("a tool_use block whose input_json_delta pieces do not make a JSON object");
  }

  private static void write(EventRelay.Write write) {
    EventRelay.send(write);
  }
}
