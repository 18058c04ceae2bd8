package dev.gym4j.server;

import java.time.Duration;

import tools.jackson.databind.JsonNode;

/**
 * What one server takes from a client before it gives up on it. Config keys of a server instance, with
 * their defaults: {@code max_body_bytes} (64 MiB), {@code max_concurrent_requests} (0: no limit),
 * {@code http_header_timeout_seconds} (30: from the end of the request line to the end of the headers),
 * {@code http_body_timeout_seconds} (120: for a whole request body), {@code http_idle_timeout_seconds}
 * (300: a connection with no request in progress).
 *
 * <p>The idle timeout is Helidon's, checked every tenth of it: it also ends an HTTP/2 connection whose
 * streams outlast it, so it stays well above the longest model call a quiet connection may carry.
 */
public record HttpLimits(long maxBodyBytes, int maxConcurrentRequests, Duration headerTimeout, Duration bodyTimeout,
    Duration idleTimeout) {
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  public HttpLimits {
    if (maxBodyBytes < 0 || maxConcurrentRequests < 0) {
      throw new IllegalArgumentException("limits must not be negative");
    }
    if (!headerTimeout.isPositive() || !bodyTimeout.isPositive() || !idleTimeout.isPositive()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
  }

  public static HttpLimits defaults() {
    return new HttpLimits(DEFAULT_MAX_BODY_BYTES, 0, Duration.ofSeconds(30), Duration.ofSeconds(120),
        Duration.ofSeconds(300));
  }

  /** The defaults overridden by a server instance's settings. */
  public static HttpLimits from(JsonNode config) {
    HttpLimits d = defaults();
    return new HttpLimits(config.path("max_body_bytes").asLong(d.maxBodyBytes),
        config.path("max_concurrent_requests").asInt(d.maxConcurrentRequests),
        seconds(config, "http_header_timeout_seconds", d.headerTimeout),
        seconds(config, "http_body_timeout_seconds", d.bodyTimeout),
        seconds(config, "http_idle_timeout_seconds", d.idleTimeout));
  }

  public HttpLimits withMaxBodyBytes(long bytes) {
    return new HttpLimits(bytes, maxConcurrentRequests, headerTimeout, bodyTimeout, idleTimeout);
  }

  public HttpLimits withMaxConcurrentRequests(int requests) {
    return new HttpLimits(maxBodyBytes, requests, headerTimeout, bodyTimeout, idleTimeout);
  }

  public HttpLimits withTimeouts(Duration header, Duration body, Duration idle) {
    return new HttpLimits(maxBodyBytes, maxConcurrentRequests, header, body, idle);
  }

  private static Duration seconds(JsonNode config, String key, Duration fallback) {
    JsonNode value = config.path(key);
    return value.isNumber() && value.asDouble() > 0 ? Duration.ofMillis((long) (value.asDouble() * 1000)) : fallback;
  }
}
