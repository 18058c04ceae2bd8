package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Shape;
import tools.jackson.databind.node.ObjectNode;

/** A {@code function_call} item: the model asks for a tool; {@code arguments} is a JSON string. */
public record FunctionCall(ObjectNode json) implements Item {
  public static final String TYPE = "function_call";

  @Override
  public void validate(List<Object> path) {
    for (String field : List.of("call_id", "name", "arguments")) {
      if (!Shape.required(json, field, path).isString()) {
        throw new FieldError(Shape.at(path, field), "Input should be a valid string", "string_type");
      }
    }
  }

  public String callId() {
    return Shape.text(json, "call_id");
  }

  public String name() {
    return Shape.text(json, "name");
  }

  /** The arguments as the model wrote them: a JSON string that may not parse. */
  public String arguments() {
    return Shape.text(json, "arguments");
  }
}
