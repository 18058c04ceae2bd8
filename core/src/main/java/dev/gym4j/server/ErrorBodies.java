package dev.gym4j.server;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import tools.jackson.databind.node.ObjectNode;

/**
 * Error bodies in FastAPI's shapes, which NeMo Gym clients already parse: {@code {"detail": "…"}}, and
 * for a body that does not validate {@code {"detail": [{"loc": ["body", …], "msg": …, "type": …}]}}.
 */
public final class ErrorBodies {
  private ErrorBodies() {}

  public static ObjectNode detail(String message) {
    ObjectNode body = Json.object();
    body.put("detail", message);
    return body;
  }

  public static ObjectNode validation(FieldError error) {
    List<Object> location = new ArrayList<>();
    location.add("body");
    location.addAll(error.location());
    ObjectNode entry = Json.object();
    entry.set("loc", Json.toTree(location));
    entry.put("msg", error.getMessage());
    entry.put("type", error.type());
    ObjectNode body = Json.object();
    body.putArray("detail").add(entry);
    return body;
  }
}
