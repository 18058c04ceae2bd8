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
