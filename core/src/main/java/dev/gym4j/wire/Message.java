package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A {@code message} item: a prompt turn, or an assistant answer with {@code output_text} parts. */
public record Message(ObjectNode json) implements Item {
  public static final String TYPE = "message";

  public static Message of(String role, String text) {
    ObjectNode json = Json.object();
    json.put("role", role);
    json.put("content", text);
    return new Message(json);
  }

  @Override
  public void validate(List<Object> path) {
    JsonNode role = Shape.required(json, "role", path);
    if (!role.isString()) {
      throw new FieldError(Shape.at(path, "role"), "Input should be a valid string", "string_type");
    }
    JsonNode content = json.get("content");
    if (content != null && !content.isNull() && !content.isString() && !content.isArray()) {
      throw new FieldError(Shape.at(path, "content"), "Input should be a string or a list of content parts",
          "value_error");
    }
  }

  public String role() {
    return Shape.text(json, "role");
  }

  /** The message's text: its string content, or its text parts ({@code output_text}, {@code input_text}) joined. */
  public String text() {
    return Shape.contentText(json.get("content"));
  }
}
