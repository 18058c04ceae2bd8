package dev.gym4j.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A chat completion cut into the {@code chat.completion.chunk}s vLLM streams for it: the role (with the
 * prompt's token ids when the answer has them), the reasoning, the content and each tool call (id and name
 * first, then its arguments) in pieces, and the finish reason. The sampled tokens' log-probs and ids are
 * spread over the chunks in order, one per chunk, the rest on the last; a token bundle on the message rides
 * on the last chunk's delta.
 */
final class ChatStreamChunks {
  private ChatStreamChunks() {}

  static List<ObjectNode> of(ObjectNode chat, int pieceChars) {
    JsonNode choice = chat.path("choices").path(0);
    JsonNode message = choice.path("message");
    List<ObjectNode> deltas = new ArrayList<>();
    pieces(message.path("reasoning_content").asString(null), pieceChars,
        piece -> deltas.add(Json.object().put("reasoning_content", piece)));
    pieces(message.path("content").asString(null), pieceChars, piece -> deltas.add(Json.object().put("content", piece)));
    JsonNode calls = message.path("tool_calls");
    for (int k = 0; k < calls.size(); k++) {
      JsonNode call = calls.get(k);
      ObjectNode first = Json.object();
      ObjectNode start = first.putArray("tool_calls").addObject().put("index", k);
      start.put("id", call.path("id").asString()).put("type", "function");
      start.putObject("function").put("name", call.path("function").path("name").asString()).put("arguments", "");
      deltas.add(first);
      int index = k;
      pieces(call.path("function").path("arguments").asString(""), pieceChars, piece -> {
        ObjectNode delta = Json.object();
        delta.putArray("tool_calls").addObject().put("index", index).putObject("function").put("arguments", piece);
        deltas.add(delta);
      });
    }
    ObjectNode last = Json.object();
    for (String field : List.of("prompt_token_ids", "generation_token_ids", "generation_log_probs")) {
      if (message.has(field)) {
        last.set(field, message.get(field));
      }
    }
    deltas.add(last);

    List<ObjectNode> chunks = new ArrayList<>();
    ObjectNode role = chunk(chat, Json.object().put("role", "assistant").put("content", ""));
    if (chat.has("prompt_token_ids")) {
      role.set("prompt_token_ids", chat.get("prompt_token_ids"));
    }
    chunks.add(role);
    JsonNode logprobs = choice.path("logprobs").path("content");
    JsonNode tokenIds = choice.path("token_ids");
    for (int i = 0; i < deltas.size(); i++) {
      ObjectNode chunk = chunk(chat, deltas.get(i));
      ObjectNode entry = (ObjectNode) chunk.get("choices").get(0);
      boolean isLast = i == deltas.size() - 1;
      if (logprobs.isArray()) {
        entry.putObject("logprobs").set("content", slice(logprobs, i, isLast));
      }
      if (tokenIds.isArray()) {
        entry.set("token_ids", slice(tokenIds, i, isLast));
      }
      if (isLast) {
        entry.put("finish_reason", choice.path("finish_reason").asString("stop"));
        entry.set("stop_reason", choice.get("stop_reason"));
      }
      chunks.add(chunk);
    }
    return chunks;
  }

  /** The fields every chunk of the completion repeats. */
  static ObjectNode head(ObjectNode chat) {
    ObjectNode chunk = Json.object();
    chunk.put("id", chat.path("id").asString());
    chunk.put("object", "chat.completion.chunk");
    chunk.put("created", chat.path("created").asLong());
    chunk.put("model", chat.path("model").asString());
    return chunk;
  }

  private static ObjectNode chunk(ObjectNode chat, ObjectNode delta) {
    ObjectNode chunk = head(chat);
    ObjectNode entry = chunk.putArray("choices").addObject();
    entry.put("index", 0);
    entry.set("delta", delta);
    entry.putNull("logprobs");
    entry.putNull("finish_reason");
    return chunk;
  }

  /** Entry {@code i} of {@code all}, or entries from {@code i} on for the last chunk. */
  private static ArrayNode slice(JsonNode all, int i, boolean rest) {
    ArrayNode part = Json.array();
    for (int j = i; j < all.size() && (rest || j == i); j++) {
      part.add(all.get(j));
    }
    return part;
  }

  private static void pieces(String text, int size, Consumer<String> each) {
    if (text == null) {
      return;
    }
    // by code point, so that a piece never ends inside a surrogate pair
    int[] points = text.codePoints().toArray();
    for (int i = 0; i < points.length; i += size) {
      each.accept(new String(points, i, Math.min(size, points.length - i)));
    }
  }
}
