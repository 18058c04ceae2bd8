package dev.gym4j.testkit;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * A deterministic stand-in for a tokenizer: one token per whitespace-separated word, plus two per message
 * for its role header. Like NeMo RL's vLLM server, a prompt that follows a message carrying token ids
 * starts with that message's exact prompt and generation ids, so multi-turn prompts are append-only.
 */
final class ScriptedTokenizer {
  static final int EOS = 2;

  private ScriptedTokenizer() {}

  static List<Integer> words(String text) {
    List<Integer> ids = new ArrayList<>();
    if (text == null) {
      return ids;
    }
    for (String word : text.trim().split("\\s+")) {
      if (!word.isEmpty()) {
        ids.add(100 + Math.floorMod(word.hashCode(), 50_000));
      }
    }
    return ids;
  }

  /** The prompt ids of a chat request's messages. */
  static List<Integer> prompt(JsonNode messages) {
    int start = 0;
    List<Integer> ids = new ArrayList<>();
    for (int i = messages.size() - 1; i >= 0; i--) {
      JsonNode message = messages.get(i);
      if (message.has("prompt_token_ids") && message.has("generation_token_ids")) {
        message.get("prompt_token_ids").forEach(id -> ids.add(id.asInt()));
        message.get("generation_token_ids").forEach(id -> ids.add(id.asInt()));
        start = i + 1;
        break;
      }
    }
    for (int i = start; i < messages.size(); i++) {
      JsonNode message = messages.get(i);
      ids.add(1);
      ids.add(10 + Math.floorMod(message.path("role").asString("").hashCode(), 80));
      ids.addAll(words(text(message.get("content"))));
      for (JsonNode call : message.path("tool_calls")) {
        ids.addAll(words(call.path("function").path("name").asString("")));
        ids.addAll(words(call.path("function").path("arguments").asString("")));
      }
    }
    return ids;
  }

  /** The text of a Responses {@code input} (string or items), for usage counts. */
  static List<Integer> input(JsonNode input) {
    if (input == null) {
      return List.of();
    }
    if (input.isString()) {
      return words(input.stringValue());
    }
    List<Integer> ids = new ArrayList<>();
    for (JsonNode item : input) {
      ids.add(1);
      ids.addAll(words(text(item.get("content"))));
      ids.addAll(words(item.path("arguments").asString("")));
      ids.addAll(words(item.path("output").isString() ? item.path("output").asString() : ""));
    }
    return ids;
  }

  static String text(JsonNode content) {
    return dev.gym4j.json.Shape.contentText(content);
  }
}
