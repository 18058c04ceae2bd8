package dev.gym4j.server;

import java.util.Map;

/** A handler's answer with a status other than 200, or with headers of its own. */
public record Reply(int status, Object body, Map<String, String> headers) {
  public static Reply of(int status, Object body) {
    return new Reply(status, body, Map.of());
  }

  public Reply withHeader(String name, String value) {
    Map<String, String> all = new java.util.LinkedHashMap<>(headers);
    all.put(name, value);
    return new Reply(status, body, Map.copyOf(all));
  }
}
