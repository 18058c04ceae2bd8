package dev.gym4j.wire;

import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One Chat Completions message; an assistant message may carry the training token fields. */
public record ChatMessage(ObjectNode json) implements JsonView {

  public String role() {
    return Shape.text(json, "role");
  }

  /** The content as text: a string, or the text parts joined; empty when null. */
  public String text() {
    return Shape.contentText(json.get("content"));
  }

  public JsonNode toolCalls() {
    return json.path("tool_calls");
  }
}
