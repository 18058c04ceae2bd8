package dev.gym4j.wire;

import java.io.IOException;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A finished chat completion as a Chat Completions stream: {@code chat.completion.chunk}s (the role, the
 * reasoning, the content, each tool call, then the finish reason), a last chunk with the usage and no
 * choices when the request asked for it ({@code stream_options.include_usage}), and {@code [DONE]}. Token
 * ids and log-probs (NeMo Gym's fields on the message) ride on the chunk with the finish reason.
 */
public final class ChatChunks {
  private static final java.util.Set<String> DELTA_FIELDS = java.util.Set.of("role", "content", "tool_calls",
      "reasoning_content", "reasoning", "refusal", "function_call", "annotations", "audio");

  private ChatChunks() {}

  /** Whether a chat request asks for the usage chunk. */
  public static boolean includeUsage(JsonNode request) {
    return request.path("stream_options").path("include_usage").asBoolean(false);
  }

  public static void replay(ChatCompletion completion, boolean includeUsage, ServerSentEvents.Sink sink)
      throws IOException {
    ObjectNode chat = completion.json();
    JsonNode choices = chat.path("choices");
    for (int i = 0; i < choices.size(); i++) {
      JsonNode choice = choices.get(i);
      JsonNode message = choice.path("message");
      send(sink, chunk(chat, i, delta -> delta.put("role", "assistant").put("content", ""), null, choice));
      for (String field : new String[] {"reasoning_content", "reasoning"}) {
        if (message.path(field).isString() && !message.path(field).stringValue().isEmpty()) {
          send(sink, chunk(chat, i, delta -> delta.put(field, message.path(field).stringValue()), null, choice));
        }
      }
      if (message.path("content").isString() && !message.path("content").stringValue().isEmpty()) {
        send(sink, chunk(chat, i, delta -> delta.put("content", message.path("content").stringValue()), null,
            choice));
      }
      JsonNode calls = message.path("tool_calls");
      for (int k = 0; k < calls.size(); k++) {
        int index = k;
        ObjectNode call = calls.get(k) instanceof ObjectNode object ? object.deepCopy() : Json.object();
        call.put("index", index);
        send(sink, chunk(chat, i, delta -> delta.putArray("tool_calls").add(call), null, choice));
      }
      String finish = choice.path("finish_reason").asString("stop");
      send(sink, chunk(chat, i, delta -> message.properties().forEach(field -> {
        if (!DELTA_FIELDS.contains(field.getKey())) {
          delta.set(field.getKey(), field.getValue());
        }
      }), finish, choice));
    }
    if (includeUsage && chat.get("usage") instanceof ObjectNode usage) {
      ObjectNode last = head(chat);
      last.putArray("choices");
      last.set("usage", usage);
      send(sink, last);
    }
    sink.sendText(null, "[DONE]");
  }

  private static void send(ServerSentEvents.Sink sink, ObjectNode chunk) throws IOException {
    sink.send(null, OpenAIShapes.chatChunk(chunk));
  }

  private static ObjectNode chunk(ObjectNode chat, int index, java.util.function.Consumer<ObjectNode> delta,
      String finishReason, JsonNode choice) {
    ObjectNode chunk = head(chat);
    ObjectNode entry = chunk.putArray("choices").addObject();
    entry.put("index", index);
    delta.accept(entry.putObject("delta"));
    if (finishReason == null) {
      entry.putNull("finish_reason");
    } else {
      entry.put("finish_reason", finishReason);
      if (choice.get("logprobs") instanceof ObjectNode logprobs) {
        entry.set("logprobs", logprobs);
      }
    }
    return chunk;
  }

  private static ObjectNode head(ObjectNode chat) {
    ObjectNode chunk = Json.object();
    chunk.put("id", chat.path("id").asString("chatcmpl-gym4j"));
    chunk.put("object", "chat.completion.chunk");
    chunk.put("created", chat.path("created").asLong(java.time.Instant.now().getEpochSecond()));
    chunk.put("model", chat.path("model").asString(""));
    return chunk;
  }
}
