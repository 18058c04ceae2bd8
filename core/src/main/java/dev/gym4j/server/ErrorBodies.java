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

  /**
   * The error body OpenAI's clients read ({@code {"error": {"message", "type", "param", "code"}}}), made from
   * one of the bodies above, whose {@code detail} is kept beside it for NeMo Gym's clients. For a body that
   * failed validation, {@code param} is the bad field's path and {@code code} the validation error's type.
   */
  public static ObjectNode openAI(int status, Object body) {
    ObjectNode error = Json.object();
    String message = "error " + status;
    String param = null;
    String code = null;
    ObjectNode out = body instanceof ObjectNode object ? object.deepCopy() : Json.object();
    tools.jackson.databind.JsonNode detail = out.get("detail");
    if (detail != null && detail.isString()) {
      message = detail.stringValue();
    } else if (detail != null && detail.isArray() && !detail.isEmpty()) {
      tools.jackson.databind.JsonNode first = detail.get(0);
      param = fieldPath(first);
      message = first.path("msg").asString(message) + (param == null ? "" : " (" + param + ")");
      code = first.path("type").asString(null);
    }
    if (out.get(dev.gym4j.agent.AgentServer.FAILURE_CLASS) instanceof tools.jackson.databind.JsonNode failure
        && failure.isString()) {
      code = failure.stringValue();
    }
    error.put("message", message);
    error.put("type", openAIType(status));
    error.put("param", param);
    error.put("code", code);
    out.set("error", error);
    return out;
  }

  /** The bad field of a validation error's first entry as {@code a.b.0}, without FastAPI's leading {@code body}; null when none. */
  private static String fieldPath(tools.jackson.databind.JsonNode entry) {
    List<String> location = new ArrayList<>();
    entry.path("loc").forEach(part -> location.add(part.asString()));
    if (!location.isEmpty() && location.getFirst().equals("body")) {
      location.removeFirst();
    }
    return location.isEmpty() ? null : String.join(".", location);
  }

  /**
   * The error body Anthropic's clients read ({@code {"type": "error", "error": {"type", "message"}}}), made from
   * one of the bodies above; a body already in that shape is kept. The error type comes from the status
   * ({@code not_found_error}, {@code request_too_large}, {@code overloaded_error}, …), the message from
   * {@code detail} (for a body that failed validation, the bad field's path and what is wrong with it). gym4j's
   * failure class, when there is one, travels beside the error.
   */
  public static ObjectNode anthropic(int status, Object body) {
    ObjectNode in = body instanceof ObjectNode object ? object : Json.object();
    if ("error".equals(in.path("type").asString("")) && in.get("error") instanceof ObjectNode) {
      return in;
    }
    String message = "error " + status;
    tools.jackson.databind.JsonNode detail = in.get("detail");
    if (detail != null && detail.isString()) {
      message = detail.stringValue();
    } else if (detail != null && detail.isArray() && !detail.isEmpty()) {
      tools.jackson.databind.JsonNode first = detail.get(0);
      String path = fieldPath(first);
      message = (path == null ? "" : path + ": ") + first.path("msg").asString("");
    }
    ObjectNode out = dev.gym4j.wire.AnthropicMessages.errorBody(dev.gym4j.wire.AnthropicMessages.errorType(status),
        message);
    if (in.get(dev.gym4j.agent.AgentServer.FAILURE_CLASS) instanceof tools.jackson.databind.JsonNode failure) {
      out.set(dev.gym4j.agent.AgentServer.FAILURE_CLASS, failure);
    }
    return out;
  }

  private static String openAIType(int status) {
    return switch (status) {
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 429 -> "rate_limit_error";
      default -> status >= 500 ? "server_error" : "invalid_request_error";
    };
  }
}
