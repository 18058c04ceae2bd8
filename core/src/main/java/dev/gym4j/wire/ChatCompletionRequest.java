package dev.gym4j.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A Chat Completions request, non-streaming; fields gym4j does not read are carried as they are. */
public record ChatCompletionRequest(ObjectNode json) implements JsonView {
  private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

  public static ChatCompletionRequest of(JsonNode node, List<Object> path) {
    ObjectNode json = Shape.object(node, path);
    JsonNode messages = Shape.required(json, "messages", path);
    if (!messages.isArray()) {
      throw new FieldError(Shape.at(path, "messages"), "Input should be a valid list", "list_type");
    }
    for (int i = 0; i < messages.size(); i++) {
      List<Object> at = Shape.at(Shape.at(path, "messages"), i);
      ObjectNode message = Shape.object(messages.get(i), at);
      JsonNode role = Shape.required(message, "role", at);
      if (!role.isString() || !ROLES.contains(role.stringValue())) {
        throw new FieldError(Shape.at(at, "role"), "Input should be one of " + ROLES, "literal_error");
      }
    }
    Shape.optionalString(json, "model", path);
    Shape.optionalNumber(json, "temperature", path);
    Shape.optionalNumber(json, "top_p", path);
    Shape.optionalInteger(json, "max_tokens", path);
    Shape.optionalInteger(json, "max_completion_tokens", path);
    Shape.optionalInteger(json, "n", path);
    Shape.optionalArray(json, "tools", path);
    JsonNode stream = json.get("stream");
    if (stream != null && stream.isBoolean() && stream.booleanValue()) {
      throw new FieldError(Shape.at(path, "stream"), "streaming is not supported on this endpoint", "value_error");
    }
    return new ChatCompletionRequest(json);
  }

  public static ChatCompletionRequest of(JsonNode node) {
    return of(node, List.of());
  }

  public List<ChatMessage> messages() {
    List<ChatMessage> messages = new ArrayList<>();
    for (JsonNode message : json.get("messages")) {
      messages.add(new ChatMessage((ObjectNode) message));
    }
    return messages;
  }
}
