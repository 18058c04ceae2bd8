package dev.gym4j.client;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A response from another server, whatever its status.
 *
 * @param cookies the cookies the server set ({@code Set-Cookie}), by name
 * @param headers the first value of each response header, by lower-case name
 */
public record HttpReply(int status, byte[] body, Map<String, String> cookies, Map<String, String> headers) {

  public HttpReply(int status, byte[] body, Map<String, String> cookies) {
    this(status, body, cookies, Map.of());
  }

  public boolean ok() {
    return status >= 200 && status < 300;
  }

  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  public JsonNode json() {
    return Json.parse(body);
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
}
