package dev.gym4j.wire;

import java.util.List;
import java.util.Optional;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A Chat Completions response ({@code "object": "chat.completion"}). */
public record ChatCompletion(ObjectNode json) implements JsonView {

  public static ChatCompletion of(JsonNode node, List<Object> path) {
    ObjectNode json = Shape.object(node, path);
    JsonNode choices = Shape.required(json, "choices", path);
    if (!choices.isArray()) {
      throw new FieldError(Shape.at(path, "choices"), "Input should be a valid list", "list_type");
    }
    for (int i = 0; i < choices.size(); i++) {
      List<Object> at = Shape.at(Shape.at(path, "choices"), i);
      Shape.object(Shape.required(Shape.object(choices.get(i), at), "message", at), Shape.at(at, "message"));
    }
    Shape.optionalObject(json, "usage", path);
    if (json.get("usage") instanceof ObjectNode usage) {
      for (String count : List.of("prompt_tokens", "completion_tokens", "total_tokens")) {
        Shape.optionalCount(usage, count, Shape.at(path, "usage"));
      }
    }
    return new ChatCompletion(json);
  }

  public static ChatCompletion of(JsonNode node) {
    return of(node, List.of());
  }

  /** The first choice's message, which is the one NeMo Gym uses. */
  public Optional<ChatMessage> message() {
    JsonNode choices = json.get("choices");
    if (choices.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ChatMessage((ObjectNode) choices.get(0).get("message")));
  }

  /** The first choice's {@code finish_reason}: stop, length, tool_calls, content_filter; null when absent. */
  public String finishReason() {
    JsonNode choices = json.get("choices");
    return choices.isEmpty() ? null : Shape.text(choices.get(0), "finish_reason");
  }
}
