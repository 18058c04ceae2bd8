package dev.gym4j.client;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * A response from another server, whatever its status.
 *
 * @param cookies the cookies the server set ({@code Set-Cookie}), by name
 */
public record HttpReply(int status, byte[] body, Map<String, String> cookies) {

  public boolean ok() {
    return status >= 200 && status < 300;
  }

  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }

  public JsonNode json() {
    return Json.parse(body);
  }
}
