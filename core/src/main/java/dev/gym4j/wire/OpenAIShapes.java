package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What we send on the OpenAI-compatible routes, made valid by OpenAI's published schema (openai/openai-openapi)
 * on the way out, whatever an upstream or a recorded rollout gave: fields the schema requires are added with
 * their neutral value ({@code logprobs: []} on output text, {@code strict: null} on a function tool, an id and
 * a status on a tool output), and nulls where the schema wants a value are dropped. Nothing else changes:
 * NeMo Gym's extra fields (token ids, log-probs) stay as extra properties. Reading is not affected: recorded
 * rollouts that do not validate are read as before.
 *
 * <p>{@link #response}, {@link #item}, {@link #chatCompletion} and {@link #chatChunk} shape a copy, for a tree
 * someone else still holds (a recording, an upstream's event); the {@code …InPlace} forms shape the tree given
 * and return it, for an answer the caller owns and sends once: no copy of its token ids on the hot path.
 */
public final class OpenAIShapes {
  /** Response fields the schema types without null: when null, they are left out. */
  private static final List<String> NOT_NULL = List.of("user", "text", "prompt", "service_tier", "usage", "status",
      "prompt_cache_options", "safety_identifier", "prompt_cache_key", "max_tool_calls", "background",
      "previous_response_id", "top_logprobs", "truncation", "prompt_cache_retention", "output_text", "reasoning");
  /** Response fields the schema requires, which may be null. */
  private static final List<String> REQUIRED_NULLABLE = List.of("error", "incomplete_details", "instructions",
      "metadata", "temperature", "top_p");

  private OpenAIShapes() {}

  /** A valid copy of a Response object. */
  public static ObjectNode response(ObjectNode original) {
    return responseInPlace(original.deepCopy());
  }

  /** Makes {@code response}, which the caller owns, a valid Response object; returns it. */
  public static ObjectNode responseInPlace(ObjectNode response) {
    for (String field : NOT_NULL) {
      if (response.has(field) && response.get(field).isNull()) {
        response.remove(field);
      }
    }
    for (String field : REQUIRED_NULLABLE) {
      if (!response.has(field)) {
        response.putNull(field);
      }
    }
    response.put("object", "response");
    if (!response.has("created_at")) {
      response.put("created_at", 0);
    }
    if (!response.hasNonNull("tool_choice")) {
      response.put("tool_choice", "auto");
    }
    if (!response.path("parallel_tool_calls").isBoolean()) {
      response.put("parallel_tool_calls", true);
    }
    if (!response.path("tools").isArray()) {
      response.putArray("tools");
    }
    for (JsonNode tool : response.path("tools")) {
      if (tool instanceof ObjectNode function && "function".equals(function.path("type").asString(""))) {
        for (String field : List.of("strict", "parameters")) {
          if (!function.has(field)) {
            function.putNull(field);
          }
        }
      }
    }
    if (response.path("output").isArray()) {
      for (JsonNode item : response.get("output")) {
        if (item instanceof ObjectNode object) {
          fixItem(object);
        }
      }
    }
    if (response.get("usage") instanceof ObjectNode usage) {
      fixUsage(usage);
    }
    return response;
  }

  /** A valid copy of an output item. */
  public static ObjectNode item(JsonNode original) {
    return itemInPlace(original instanceof ObjectNode object ? object.deepCopy() : Json.object());
  }

  /** Makes {@code item}, which the caller owns, a valid output item; returns it. */
  public static ObjectNode itemInPlace(ObjectNode item) {
    fixItem(item);
    return item;
  }

  private static void fixItem(ObjectNode item) {
    switch (item.path("type").asString(Message.TYPE)) {
      case Message.TYPE -> {
        item.put("type", Message.TYPE);
        if (!item.hasNonNull("status")) {
          item.put("status", "completed");
        }
        for (JsonNode part : item.path("content")) {
          if (part instanceof ObjectNode text && "output_text".equals(text.path("type").asString(""))) {
            if (!text.path("annotations").isArray()) {
              text.putArray("annotations");
            }
            if (!text.path("logprobs").isArray()) {
              text.putArray("logprobs");
            }
          }
        }
      }
      case FunctionCallOutput.TYPE -> {
        if (!item.hasNonNull("id")) {
          // derived from the call it answers, so the same episode gets the same id, streamed or not
          item.put("id", "fco_" + item.path("call_id").asString(""));
        }
        if (!item.hasNonNull("status")) {
          item.put("status", "completed");
        }
      }
      case Reasoning.TYPE -> {
        if (!item.path("summary").isArray()) {
          item.putArray("summary");
        }
        if (item.has("status") && item.get("status").isNull()) {
          item.remove("status");
        }
      }
      default -> { }
    }
  }

  private static void fixUsage(ObjectNode usage) {
    ObjectNode input = usage.get("input_tokens_details") instanceof ObjectNode details ? details
        : usage.putObject("input_tokens_details");
    count(input, "cached_tokens");
    count(input, "cache_write_tokens");
    ObjectNode output = usage.get("output_tokens_details") instanceof ObjectNode details ? details
        : usage.putObject("output_tokens_details");
    count(output, "reasoning_tokens");
    for (String field : List.of("input_tokens", "output_tokens", "total_tokens")) {
      count(usage, field);
    }
  }

  /** An unknown count is 0 here: OpenAI's clients require a number. */
  private static void count(ObjectNode parent, String field) {
    if (!parent.path(field).isIntegralNumber()) {
      parent.put(field, 0);
    }
  }

  /** A valid copy of a chat completion. */
  public static ObjectNode chatCompletion(ObjectNode original) {
    return chatCompletionInPlace(original.deepCopy());
  }

  /** Makes {@code chat}, which the caller owns, a valid chat completion; returns it. */
  public static ObjectNode chatCompletionInPlace(ObjectNode chat) {
    chat.put("object", "chat.completion");
    for (JsonNode choice : chat.path("choices")) {
      if (choice instanceof ObjectNode entry) {
        if (!entry.has("logprobs")) {
          entry.putNull("logprobs");
        }
        if (entry.get("message") instanceof ObjectNode message) {
          if (!message.has("refusal")) {
            message.putNull("refusal");
          }
          if (!message.has("content")) {
            message.putNull("content");
          }
        }
      }
    }
    fixChatUsage(chat);
    return chat;
  }

  /** A valid copy of a chat completion chunk. */
  public static ObjectNode chatChunk(ObjectNode original) {
    return chatChunkInPlace(original.deepCopy());
  }

  /** Makes {@code chunk}, which the caller owns, a valid chat completion chunk; returns it. */
  public static ObjectNode chatChunkInPlace(ObjectNode chunk) {
    chunk.put("object", "chat.completion.chunk");
    fixChatUsage(chunk);
    return chunk;
  }

  private static void fixChatUsage(ObjectNode chat) {
    if (chat.get("usage") instanceof ObjectNode usage) {
      for (String field : List.of("prompt_tokens_details", "completion_tokens_details")) {
        if (usage.has(field) && !usage.get(field).isObject()) {
          usage.remove(field);
        }
      }
    } else if (chat.has("usage")) {
      chat.remove("usage");
    }
  }
}
