package dev.gym4j.server;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** One request to a gym4j endpoint, as its handler sees it. */
public final class Call {
  private final Incoming request;
  /** Until parsed: a rollout waiting on its model holds its Call for seconds, the bytes need not wait too. */
  private byte[] rawBody;
  private final String sessionId;
  private final boolean carriesSession;
  private final java.util.Map<String, String> responseCookies = new java.util.LinkedHashMap<>();
  private JsonNode body;

  Call(Incoming request, byte[] rawBody, String sessionId, boolean carriesSession) {
    this.request = request;
    this.rawBody = rawBody;
    this.sessionId = sessionId;
    this.carriesSession = carriesSession;
  }

  /** Every cookie the request carries, by name (an agent forwards other servers' session cookies). */
  public java.util.Map<String, String> cookies() {
    return new java.util.LinkedHashMap<>(request.cookies());
  }

  /** Sets a cookie on the response, beside this server's own session cookie. */
  public void setCookie(String name, String value) {
    responseCookies.put(name, value);
  }

  java.util.Map<String, String> responseCookies() {
    return responseCookies;
  }

  /** A call whose body came as a JSON tree from a client in this JVM, which handed it over (see {@link InProcess}). */
  Call(Incoming request, JsonNode body, String sessionId, boolean carriesSession) {
    this(request, (byte[]) null, sessionId, carriesSession);
    this.body = body;
  }

  /** The body as JSON; malformed JSON is a 422 naming the body. */
  public JsonNode body() {
    if (body == null) {
      if (rawBody.length == 0) {
        throw new FieldError(List.of(), "a JSON body is required", "missing");
      }
      try {
        body = Json.parse(rawBody);
        rawBody = null;
      } catch (JacksonException e) {
        throw new FieldError(List.of(), "JSON decode error: " + e.getOriginalMessage(), "json_invalid");
      }
    }
    return body;
  }

  /**
   * The body as a JSON object whose array {@code field} has at most {@code maxElements} elements; empty when it has
   * more. The elements are counted on the tokens first, without building anything, so a body of many tiny elements
   * (3 bytes each build an object of a hundred) is refused before it becomes a tree. Malformed JSON and a body that
   * is no object are 422s as {@link #bodyObject()} gives them.
   */
  public java.util.Optional<ObjectNode> bodyObject(String field, int maxElements) {
    if (body == null && rawBody.length > 0 && tooMany(field, maxElements)) {
      return java.util.Optional.empty();
    }
    ObjectNode tree = bodyObject();
    JsonNode array = tree.get(field);
    return array != null && array.isArray() && array.size() > maxElements ? java.util.Optional.empty()
        : java.util.Optional.of(tree);
  }

  /** Whether an array {@code field} of the raw body's top object has more than {@code max} elements. */
  private boolean tooMany(String field, int max) {
    try (tools.jackson.core.JsonParser parser = Json.MAPPER.createParser(rawBody)) {
      if (parser.nextToken() != tools.jackson.core.JsonToken.START_OBJECT) {
        // refused before anything is built from it
        throw new FieldError(List.of(), "Input should be a valid object", "object_type");
      }
      while (parser.nextToken() == tools.jackson.core.JsonToken.PROPERTY_NAME) {
        boolean counted = parser.currentName().equals(field);
        if (parser.nextToken() == tools.jackson.core.JsonToken.START_ARRAY && counted) {
          long count = 0;
          for (var token = parser.nextToken(); token != null && token != tools.jackson.core.JsonToken.END_ARRAY;
              token = parser.nextToken()) {
            if (++count > max) {
              return true;
            }
            parser.skipChildren();
          }
        } else {
          parser.skipChildren();
        }
      }
      return false;
    } catch (JacksonException e) {
      throw new FieldError(List.of(), "JSON decode error: " + e.getOriginalMessage(), "json_invalid");
    }
  }

  /**
   * Runs CPU-bound {@code work} on this thread for at most {@code limit}: past it the thread is interrupted, as when
   * the caller leaves, and the answer is empty once the work has stopped (work that never looks at its interrupt
   * runs to its end, and its result is kept). A failure of the work for another reason is thrown as it came.
   */
  public <T> java.util.Optional<T> within(java.time.Duration limit, java.util.function.Supplier<T> work) {
    Deadlines.Deadline deadline = Deadlines.interruptAfter(limit);
    try {
      return java.util.Optional.of(work.get());
    } catch (RuntimeException e) {
      if (deadline.passed()) {
        return java.util.Optional.empty();
      }
      throw e;
    } finally {
      Deadlines.cancel(deadline);
    }
  }

  /** The body, which must be a JSON object. */
  public ObjectNode bodyObject() {
    return Shape.object(body(), List.of());
  }

  /**
   * The id of this caller's session, from the server's signed session cookie; a new id when the request
   * carries none. The response always sets the cookie, so the caller can thread it to the next request.
   */
  public String sessionId() {
    return sessionId;
  }

  /**
   * Whether the request carried this server's session cookie with a valid signature (and so claims a session
   * this server issued), rather than none or a forged one.
   */
  public boolean carriesSession() {
    return carriesSession;
  }

  public String path() {
    return request.path();
  }

  /** The HTTP version the request came in: {@code 1.1}, or {@code 2.0} on a multiplexed connection. */
  public String protocolVersion() {
    return request.protocolVersion();
  }

  public java.util.Optional<String> header(String name) {
    return request.header(name);
  }
}
