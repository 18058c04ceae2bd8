package dev.gym4j.resources;

import java.util.List;

import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The body of {@code POST /verify}: the task row (every field of it) plus the rollout's final {@code response}. */
public record VerifyRequest(ObjectNode json) implements JsonView {

  public static VerifyRequest of(JsonNode body) {
    ObjectNode json = Shape.object(body, List.of());
    ResponseCreateParams.of(Shape.required(json, "responses_create_params", List.of()), List.of("responses_create_params"));
    Response.of(Shape.required(json, "response", List.of()), List.of("response"));
    return new VerifyRequest(json);
  }

  public Response response() {
    return new Response((ObjectNode) json.get("response"));
  }

  public ResponseCreateParams responsesCreateParams() {
    return new ResponseCreateParams((ObjectNode) json.get("responses_create_params"));
  }

  /** A task field of the row (verifier metadata such as {@code expected_answer}), or a missing node. */
  public JsonNode field(String name) {
    return json.path(name);
  }
}
