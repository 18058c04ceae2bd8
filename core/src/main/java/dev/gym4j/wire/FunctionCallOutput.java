package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A {@code function_call_output} item: a tool's result, given back to the model. */
public record FunctionCallOutput(ObjectNode json) implements Item {
  public static final String TYPE = "function_call_output";

  public static FunctionCallOutput of(String callId, String output) {
    ObjectNode json = Json.object();
    json.put("type", TYPE);
    json.put("call_id", callId);
    json.put("output", output);
    return new FunctionCallOutput(json);
  }

  @Override
  public void validate(List<Object> path) {
    if (!Shape.required(json, "call_id", path).isString()) {
      throw new FieldError(Shape.at(path, "call_id"), "Input should be a valid string", "string_type");
    }
    JsonNode output = Shape.required(json, "output", path);
    if (!output.isString() && !output.isArray()) {
      throw new FieldError(Shape.at(path, "output"), "Input should be a string or a list of content parts",
          "value_error");
    }
  }

  public String callId() {
    return Shape.text(json, "call_id");
  }

  /** The output text; a list of text parts is joined. */
  public String output() {
    return Shape.contentText(json.get("output"));
  }
}
