package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A request's {@code stream} flag, on the Responses and Chat Completions routes. */
public final class Streaming {
  private Streaming() {}

  /** Whether the request asks for a stream; a {@code stream} that is not a boolean is a 422 naming it. */
  public static boolean asked(ObjectNode request) {
    JsonNode stream = request.get("stream");
    if (stream == null || stream.isNull()) {
      return false;
    }
    if (!stream.isBoolean()) {
      throw new FieldError(Shape.at(List.of(), "stream"), "Input should be a valid boolean", "bool_type");
    }
    Shape.optionalObject(request, "stream_options", List.of());
    return stream.booleanValue();
  }

  /** A copy without {@code stream} and {@code stream_options}: the request as the non-streaming path takes it. */
  public static ObjectNode without(ObjectNode request) {
    ObjectNode copy = request.deepCopy();
    copy.remove("stream");
    copy.remove("stream_options");
    return copy;
  }
}
