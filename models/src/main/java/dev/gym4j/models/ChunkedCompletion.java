package dev.gym4j.models;

import java.util.Map;
import java.util.TreeMap;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chat completion a stream of {@code chat.completion.chunk}s adds up to, in the shape the same upstream
 * gives without streaming: each choice's message from its deltas (text fields and tool-call arguments
 * joined, tool calls by their index), its {@code logprobs.content} and {@code token_ids} joined in order,
 * its last finish reason; the usage of the usage chunk; other top-level fields (vLLM's
 * {@code prompt_token_ids}) as first given. Not thread-safe: one stream, one reader.
 */
final class ChunkedCompletion {
  private final ObjectNode chat = Json.object();
  private final Map<Integer, ObjectNode> choices = new TreeMap<>();
  private final Map<Integer, Map<Integer, ObjectNode>> toolCalls = new TreeMap<>();

  void add(ObjectNode chunk) {
    for (var field : chunk.properties()) {
      switch (field.getKey()) {
        case "choices", "object" -> { }
        case "usage" -> {
          if (field.getValue().isObject()) {
            chat.set("usage", field.getValue());
          }
        }
        default -> {
          if (!chat.has(field.getKey()) && !field.getValue().isNull()) {
            chat.set(field.getKey(), field.getValue());
          }
        }
      }
    }
    for (JsonNode given : chunk.path("choices")) {
      int index = given.path("index").asInt(0);
      ObjectNode choice = choices.computeIfAbsent(index, i -> {
        ObjectNode fresh = Json.object().put("index", i);
        fresh.putObject("message");
        fresh.putNull("logprobs");
        fresh.putNull("finish_reason");
        return fresh;
      });
      for (var field : given.properties()) {
        JsonNode value = field.getValue();
        switch (field.getKey()) {
          case "index" -> { }
          case "delta" -> merge((ObjectNode) choice.get("message"), value, toolCalls.computeIfAbsent(index,
              i -> new TreeMap<>()));
          case "logprobs" -> {
            if (value.path("content").isArray()) {
              ObjectNode logprobs = choice.get("logprobs") instanceof ObjectNode object ? object
                  : choice.putObject("logprobs");
              join(logprobs, "content", value.get("content"));
            }
          }
          case "token_ids" -> join(choice, "token_ids", value);
          default -> {
            if (!value.isNull()) {
              choice.set(field.getKey(), value);
            }
          }
        }
      }
    }
  }

  /** The completion so far: {@code object} {@code chat.completion}, a message's missing content null. */
  ObjectNode completion() {
    ObjectNode whole = chat.deepCopy();
    whole.put("object", "chat.completion");
    ArrayNode list = whole.putArray("choices");
    choices.forEach((index, choice) -> {
      ObjectNode copy = choice.deepCopy();
      ObjectNode message = (ObjectNode) copy.get("message");
      if (!message.has("role")) {
        message.put("role", "assistant");
      }
      if (!message.has("content")) {
        message.putNull("content");
      }
      Map<Integer, ObjectNode> calls = toolCalls.getOrDefault(index, Map.of());
      if (!calls.isEmpty()) {
        ArrayNode array = message.putArray("tool_calls");
        calls.values().forEach(call -> array.add(call.deepCopy()));
      }
      list.add(copy);
    });
    return whole;
  }

  private static void merge(ObjectNode message, JsonNode delta, Map<Integer, ObjectNode> calls) {
    for (var field : delta.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (value.isNull()) {
        continue;
      }
      if (name.equals("tool_calls")) {
        for (JsonNode call : value) {
          ObjectNode into = calls.computeIfAbsent(call.path("index").asInt(calls.size()), i -> Json.object());
          for (var part : call.properties()) {
            switch (part.getKey()) {
              case "index" -> { }
              case "function" -> {
                ObjectNode function = into.get("function") instanceof ObjectNode f ? f : into.putObject("function");
                part.getValue().properties().forEach(f -> append(function, f.getKey(), f.getValue()));
              }
              default -> {
                if (!part.getValue().isNull() && !into.has(part.getKey())) {
                  into.set(part.getKey(), part.getValue());
                }
              }
            }
          }
        }
      } else if (name.equals("role")) {
        message.set(name, value);
      } else {
        append(message, name, value);
      }
    }
  }

  /** Strings are joined, arrays concatenated; anything else replaces what was there. */
  private static void append(ObjectNode into, String field, JsonNode value) {
    JsonNode before = into.get(field);
    if (value.isNull()) {
      return;
    }
    if (before != null && before.isString() && value.isString()) {
      into.put(field, before.stringValue() + value.stringValue());
    } else if (value.isArray()) {
      join(into, field, value);
    } else {
      into.set(field, value);
    }
  }

  private static void join(ObjectNode into, String field, JsonNode more) {
    if (!more.isArray()) {
      return;
    }
    ArrayNode list = into.get(field) instanceof ArrayNode array ? array : into.putArray(field);
    list.addAll((ArrayNode) more);
  }
}
