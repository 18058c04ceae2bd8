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
      ObjectNode message = Shape.object(Shape.required(Shape.object(choices.get(i), at), "message", at),
          Shape.at(at, "message"));
      toolCalls(message, Shape.at(at, "message"));
    }
    Shape.optionalObject(json, "usage", path);
    if (json.get("usage") instanceof ObjectNode usage) {
      for (String count : List.of("prompt_tokens", "completion_tokens", "total_tokens")) {
        Shape.optionalCount(usage, count, Shape.at(path, "usage"));
      }
    }
    return new ChatCompletion(json);
  }

  /** Each tool call is an object whose {@code function} names the tool and gives its arguments as text. */
  private static void toolCalls(ObjectNode message, List<Object> path) {
    Shape.optionalArray(message, "tool_calls", path);
    JsonNode calls = message.path("tool_calls");
    for (int j = 0; j < calls.size(); j++) {
      List<Object> at = Shape.at(Shape.at(path, "tool_calls"), j);
      ObjectNode call = Shape.object(calls.get(j), at);
      Shape.optionalString(call, "id", at);
      Shape.optionalObject(call, "function", at);
      if (call.get("function") instanceof ObjectNode function) {
        Shape.optionalString(function, "name", Shape.at(at, "function"));
        Shape.optionalString(function, "arguments", Shape.at(at, "function"));
      }
    }
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
