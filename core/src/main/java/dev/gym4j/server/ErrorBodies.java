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
  /**
   * A Java type as the JDK, Jackson and the libraries under us write it in a message: qualified
   * ({@code tools.jackson.databind.JsonNode}, {@code java.lang.OutOfMemoryError}), or a primitive or Jackson node
   * type in the quotes Jackson puts around it ({@code `int`}, {@code 'ObjectNode'}).
   */
  private static final java.util.regex.Pattern JAVA_TYPE = java.util.regex.Pattern.compile(
      "\\b(?:java|javax|jdk|sun|tools\\.jackson|com\\.fasterxml|io\\.helidon|dev\\.gym4j|org\\.slf4j)"
          + "(?:\\.[A-Za-z_$][\\w$]*)+(?:\\[])*"
          + "|(?<=[`'])(?:int|long|short|byte|double|float|boolean|char|[A-Z]\\w*Node)(?=[`'])");

  private ErrorBodies() {}

  /**
   * An error message with every Java type in it named in JSON's words ({@code java.lang.String} → {@code string},
   * {@code tools.jackson.databind.JsonNode} → {@code JSON value}, {@code `long`} → {@code `integer`}). Every error
   * body passes through it where it is rendered ({@link Routes}), so no message, however it was made (a Jackson
   * exception's, an upstream's excerpt), names a class of ours or of a library; the body stays valid JSON, since
   * no replacement holds a quote or a backslash.
   */
  public static String withoutJavaTypes(String message) {
    java.util.regex.Matcher matcher = JAVA_TYPE.matcher(message);
    if (!matcher.find()) {
      return message;
    }
    StringBuilder out = new StringBuilder(message.length());
    do {
      String type = matcher.group();
      matcher.appendReplacement(out, jsonWord(type.substring(type.lastIndexOf('.') + 1).replace("[]", ""),
          type.endsWith("[]")));
    } while (matcher.find());
    return matcher.appendTail(out).toString();
  }

  private static String jsonWord(String simpleName, boolean array) {
    if (array) {
      return "list";
    }
    return switch (simpleName) {
      case "String", "CharSequence", "char", "Character", "TextNode", "StringNode" -> "string";
      case "int", "long", "short", "byte", "Integer", "Long", "Short", "Byte", "BigInteger", "IntNode", "LongNode",
          "ShortNode", "BigIntegerNode" -> "integer";
      case "double", "float", "Double", "Float", "BigDecimal", "Number", "DoubleNode", "FloatNode", "DecimalNode",
          "NumericNode" -> "number";
      case "boolean", "Boolean", "BooleanNode" -> "boolean";
      case "List", "ArrayList", "Collection", "Set", "LinkedHashSet", "ArrayNode" -> "list";
      case "Map", "LinkedHashMap", "HashMap", "ObjectNode" -> "object";
      case "NullNode" -> "null";
      case "OutOfMemoryError" -> "out of memory";
      default -> "JSON value";
    };
  }

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
