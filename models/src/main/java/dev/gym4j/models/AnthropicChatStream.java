package dev.gym4j.models;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.function.Consumer;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.OpenAIShapes;
import tools.jackson.databind.node.ObjectNode;

/**
 * An Anthropic event stream as {@code chat.completion.chunk}s, as the pieces arrive: the role first, then
 * {@code reasoning_content} from thinking deltas, {@code content} from text deltas, and per tool_use block a
 * tool call (id and name when it starts, its {@code input_json_delta} pieces as {@code arguments}); at the end the
 * finish reason and usage of the non-streaming path ({@link AnthropicUpstream#chatCompletion}) for the message the
 * events made, the usage chunk when asked ({@code stream_options.include_usage}), and {@code [DONE]}.
 */
final class AnthropicChatStream implements AnthropicStream.Output {
  private final ServerSentEvents.Sink sink;
  private final URI url;
  private final String model;
  private final boolean includeUsage;
  private final String id = Ids.of("chatcmpl-");
  private final long created = Instant.now().getEpochSecond();
  private int toolCalls;

  AnthropicChatStream(ServerSentEvents.Sink sink, URI url, String model, boolean includeUsage) {
    this.sink = sink;
    this.url = url;
    this.model = model;
    this.includeUsage = includeUsage;
  }

  @Override
  public void started(ObjectNode message) throws IOException {
    send(delta -> delta.put("role", "assistant").put("content", ""), null);
  }

  @Override
  public void blockStarted(int index, ObjectNode block) throws IOException {
    switch (block.path("type").asString("")) {
      case "text" -> piece("content", block.path("text").asString(""));
      case "thinking" -> piece("reasoning_content", block.path("thinking").asString(""));
      case "tool_use" -> {
        int call = toolCalls++;
        send(delta -> {
          ObjectNode entry = delta.putArray("tool_calls").addObject().put("index", call)
              .put("id", block.path("id").asString("")).put("type", "function");
          entry.putObject("function").put("name", block.path("name").asString("")).put("arguments", "");
        }, null);
      }
      default -> { } // redacted thinking has no chat form; an unknown block fails at the end, as unstreamed
    }
  }

  @Override
  public void delta(int index, ObjectNode block, ObjectNode delta) throws IOException {
    switch (delta.path("type").asString("")) {
      case "text_delta" -> piece("content", delta.path("text").asString(""));
      case "thinking_delta" -> piece("reasoning_content", delta.path("thinking").asString(""));
      case "input_json_delta" -> {
        String arguments = delta.path("partial_json").asString("");
        int call = toolCalls - 1;
        if (!arguments.isEmpty()) {
          send(out -> out.putArray("tool_calls").addObject().put("index", call).putObject("function")
              .put("arguments", arguments), null);
        }
      }
      default -> { }
    }
  }

  @Override
  public void blockStopped(int index, ObjectNode block) {
  }

  @Override
  public void finished(ObjectNode message) throws IOException {
    ObjectNode whole = Upstream.validated(url, () -> AnthropicUpstream.chatCompletion(message, model));
    send(delta -> { }, whole.path("choices").path(0).path("finish_reason").asString("stop"));
    if (includeUsage) {
      ObjectNode last = head();
      last.putArray("choices");
      last.set("usage", whole.get("usage"));
      sink.send(null, OpenAIShapes.chatChunk(last));
    }
    sink.sendText(null, "[DONE]");
  }

  @Override
  public void failed(String message) throws IOException {
    sink.send(null, EventRelay.chatError(message, 0));
  }

  private void piece(String field, String text) throws IOException {
    if (!text.isEmpty()) {
      send(delta -> delta.put(field, text), null);
    }
  }

  private void send(Consumer<ObjectNode> delta, String finishReason) throws IOException {
    ObjectNode chunk = head();
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    delta.accept(choice.putObject("delta"));
    if (finishReason == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finishReason);
    }
    sink.send(null, OpenAIShapes.chatChunk(chunk));
  }

  private ObjectNode head() {
    return Json.object().put("id", id).put("object", "chat.completion.chunk").put("created", created)
        .put("model", model);
  }
}
