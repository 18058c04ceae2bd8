package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Responses API request ({@code responses_create_params} in a NeMo Gym row), non-streaming.
 *
 * <p>Fields gym4j does not read are carried as they are. Unlike NeMo Gym, an unknown top-level field is
 * not an error: OpenAI adds fields faster than any proxy's types, and rejecting them broke NeMo Gym users
 * more than once.
 */
public record ResponseCreateParams(ObjectNode json) implements JsonView {

  /** Wraps and checks a request body; a wrong shape fails with a {@link FieldError} naming the field. */
  public static ResponseCreateParams of(JsonNode node, List<Object> path) {
    ObjectNode json = Shape.object(node, path);
    JsonNode input = Shape.required(json, "input", path);
    if (!input.isString()) {
      Items.read(input, Shape.at(path, "input"));
    }
    Shape.optionalString(json, "instructions", path);
    Shape.optionalString(json, "model", path);
    Shape.optionalNumber(json, "temperature", path);
    Shape.optionalNumber(json, "top_p", path);
    Shape.optionalInteger(json, "max_output_tokens", path);
    Shape.optionalInteger(json, "top_logprobs", path);
    Shape.optionalBoolean(json, "parallel_tool_calls", path);
    Shape.optionalObject(json, "reasoning", path);
    Shape.optionalObject(json, "metadata", path);
    Shape.optionalArray(json, "tools", path);
    JsonNode tools = json.get("tools");
    if (tools != null && tools.isArray()) {
      for (int i = 0; i < tools.size(); i++) {
        List<Object> toolPath = Shape.at(Shape.at(path, "tools"), i);
        ObjectNode tool = Shape.object(tools.get(i), toolPath);
        if (!Shape.required(tool, "type", toolPath).isString()) {
          throw new FieldError(Shape.at(toolPath, "type"), "Input should be a valid string", "string_type");
        }
        if ("function".equals(Shape.text(tool, "type")) && !Shape.required(tool, "name", toolPath).isString()) {
          throw new FieldError(Shape.at(toolPath, "name"), "Input should be a valid string", "string_type");
        }
      }
    }
    JsonNode stream = json.get("stream");
    if (stream != null && stream.isBoolean() && stream.booleanValue()) {
      throw new FieldError(Shape.at(path, "stream"), "streaming is not supported on this endpoint", "value_error");
    }
    return new ResponseCreateParams(json);
  }

  public static ResponseCreateParams of(JsonNode node) {
    return of(node, List.of());
  }

  /** The input items; a plain string input is one user message, as the Responses API defines it. */
  public List<Item> input() {
    JsonNode input = json.get("input");
    if (input.isString()) {
      return List.of(Message.of("user", input.stringValue()));
    }
    return Items.read(input, List.of("input"));
  }

  /** A copy whose {@code input} is the given items; every other field is kept. */
  public ResponseCreateParams withInput(List<? extends Item> items) {
    ObjectNode copy = json.deepCopy();
    copy.set("input", Items.write(items));
    return new ResponseCreateParams(copy);
  }

  public ResponseCreateParams withModel(String model) {
    ObjectNode copy = json.deepCopy();
    copy.put("model", model);
    return new ResponseCreateParams(copy);
  }

  public String model() {
    return Shape.text(json, "model");
  }

  public JsonNode tools() {
    return json.path("tools");
  }
}
