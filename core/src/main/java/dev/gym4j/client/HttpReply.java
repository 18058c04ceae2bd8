package dev.gym4j.client;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A response from another server, whatever its status. Its body is bytes, or, from a server of this JVM, the
 * JSON tree the server answered (handed over as {@link dev.gym4j.json.Handover} copies it): then the bytes are
 * written only for a caller that asks for them, and are those the server would have sent.
 */
public final class HttpReply {
  private final int status;
  private final Map<String, String> cookies;
  private final Map<String, String> headers;
  /** The answered tree, never given out: {@link #json} gives copies of it. Null for a body of bytes. */
  private final JsonNode tree;
  private volatile byte[] body;

  /**
   * @param cookies the cookies the server set ({@code Set-Cookie}), by name
   * @param headers the first value of each response header, by lower-case name
   */
  public HttpReply(int status, byte[] body, Map<String, String> cookies, Map<String, String> headers) {
    this(status, Objects.requireNonNull(body, "body"), null, cookies, headers);
  }

  public HttpReply(int status, byte[] body, Map<String, String> cookies) {
    this(status, body, cookies, Map.of());
  }

  private HttpReply(int status, byte[] body, JsonNode tree, Map<String, String> cookies,
      Map<String, String> headers) {
    this.status = status;
    this.body = body;
    this.tree = tree;
    this.cookies = cookies;
    this.headers = headers;
  }

  /** A reply whose body is {@code tree}, which the reply now owns (nobody else may hold or change it). */
  static HttpReply ofTree(int status, JsonNode tree, Map<String, String> cookies, Map<String, String> headers) {
    return new HttpReply(status, null, Objects.requireNonNull(tree, "tree"), cookies, headers);
  }

  public int status() {
    return status;
  }

  /** The body's bytes; for a tree, written on the first call. */
  public byte[] body() {
    byte[] bytes = body;
    if (bytes == null) {
      bytes = Json.writeBytes(tree);
      body = bytes;
    }
    return bytes;
  }

  /** The cookies the server set ({@code Set-Cookie}), by name. */
  public Map<String, String> cookies() {
    return cookies;
  }

  /** The first value of each response header, by lower-case name. */
  public Map<String, String> headers() {
    return headers;
  }

  public boolean ok() {
    return status >= 200 && status < 300;
  }

  public String text() {
    return new String(body(), StandardCharsets.UTF_8);
  }

  /** The body as JSON: a tree of the caller's own on every call, as a parse of the bytes gives it. */
  public JsonNode json() {
    return tree != null ? tree.deepCopy() : Json.parse(body);
  }

  /** A response header's first value. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  /**
   * Whether this is a gym4j server's final word on a failure of its own upstream (marked with
   * {@link ServerClient#UPSTREAM_FAILURE_HEADER}), which that server already retried.
   */
  public boolean upstreamFailure() {
    return header(ServerClient.UPSTREAM_FAILURE_HEADER).isPresent();
  }

  @Override
  public String toString() {
    return "HttpReply[status=" + status + ", " + (tree != null && body == null ? "a JSON tree" : body.length
        + " bytes") + "]";
  }
}
