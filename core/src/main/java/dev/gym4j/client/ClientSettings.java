package dev.gym4j.client;

import java.time.Duration;

import dev.gym4j.config.GlobalConfig;

/**
 * Deadlines, retries and connection bounds of a {@link ServerClient}. Every wait has a deadline and every
 * retry loop an end; the defaults suit LLM calls, which can take minutes.
 *
 * @param connectTimeout how long to wait for a TCP connection
 * @param requestTimeout how long to wait for a whole response once connected
 * @param maxAttempts tries per request, the first included, for connection failures and 429/502/503/504
 * @param initialBackoff the wait before the first retry; it doubles each time, with jitter
 * @param maxBackoff the longest wait between tries (a server's {@code Retry-After} is honoured up to it)
 * @param maxConnectionsPerUpstream HTTP/1.1 requests (sockets) in flight to one host:port at once; the rest queue
 * @param maxStreamsPerUpstream multiplexed requests (HTTP/2 streams) in flight to one host:port at once; the
 *     rest queue
 * @param multiplex whether calls between gym4j servers are HTTP/2 streams on a few shared connections
 *     ({@code client_http2}): far fewer sockets and less memory per request in flight, for tens of thousands
 *     of rollouts at once, at about the request rate HTTP/1.1 reaches
 * @param inProcess whether a call to a server of this same JVM skips the socket ({@code client_in_process},
 *     default true; see {@link dev.gym4j.server.InProcess}), answered exactly as over HTTP
 */
public record ClientSettings(Duration connectTimeout, Duration requestTimeout, int maxAttempts,
    Duration initialBackoff, Duration maxBackoff, int maxConnectionsPerUpstream, int maxStreamsPerUpstream,
    boolean multiplex, boolean inProcess) {

  public static ClientSettings defaults() {
    return new ClientSettings(Duration.ofSeconds(10), Duration.ofMinutes(10), 4, Duration.ofMillis(500),
        Duration.ofSeconds(15), 1024, 65_536, false, true);
  }

  /** Settings with calls in process on. */
  public ClientSettings(Duration connectTimeout, Duration requestTimeout, int maxAttempts, Duration initialBackoff,
      Duration maxBackoff, int maxConnectionsPerUpstream, int maxStreamsPerUpstream, boolean multiplex) {
    this(connectTimeout, requestTimeout, maxAttempts, initialBackoff, maxBackoff, maxConnectionsPerUpstream,
        maxStreamsPerUpstream, multiplex, true);
  }

  /** Defaults overridden by the global keys {@code client_connect_timeout_seconds} and the like. */
  public static ClientSettings from(GlobalConfig config) {
    ClientSettings d = defaults();
    return new ClientSettings(
        seconds(config, "client_connect_timeout_seconds", d.connectTimeout),
        seconds(config, "client_request_timeout_seconds", d.requestTimeout),
        config.get("client_max_attempts").map(n -> n.asInt(d.maxAttempts)).orElse(d.maxAttempts),
        seconds(config, "client_initial_backoff_seconds", d.initialBackoff),
        seconds(config, "client_max_backoff_seconds", d.maxBackoff),
        config.get("client_max_connections_per_upstream").map(n -> n.asInt(d.maxConnectionsPerUpstream))
            .orElse(d.maxConnectionsPerUpstream),
        config.get("client_max_streams_per_upstream").map(n -> n.asInt(d.maxStreamsPerUpstream))
            .orElse(d.maxStreamsPerUpstream),
        config.get("client_http2").map(n -> n.asBoolean(d.multiplex)).orElse(d.multiplex),
        config.get("client_in_process").map(n -> n.asBoolean(d.inProcess)).orElse(d.inProcess));
  }

  public ClientSettings {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    if (maxConnectionsPerUpstream < 1 || maxStreamsPerUpstream < 1) {
      throw new IllegalArgumentException("maxConnectionsPerUpstream and maxStreamsPerUpstream must be at least 1");
    }
  }

  public ClientSettings withRequestTimeout(Duration timeout) {
    return new ClientSettings(connectTimeout, timeout, maxAttempts, initialBackoff, maxBackoff,
        maxConnectionsPerUpstream, maxStreamsPerUpstream, multiplex, inProcess);
  }

  public ClientSettings withRetries(int attempts, Duration initial, Duration max) {
    return new ClientSettings(connectTimeout, requestTimeout, attempts, initial, max, maxConnectionsPerUpstream,
        maxStreamsPerUpstream, multiplex, inProcess);
  }

  public ClientSettings withMaxConnectionsPerUpstream(int connections) {
    return new ClientSettings(connectTimeout, requestTimeout, maxAttempts, initialBackoff, maxBackoff, connections,
        maxStreamsPerUpstream, multiplex, inProcess);
  }

  public ClientSettings withMaxStreamsPerUpstream(int streams) {
    return new ClientSettings(connectTimeout, requestTimeout, maxAttempts, initialBackoff, maxBackoff,
        maxConnectionsPerUpstream, streams, multiplex, inProcess);
  }

  public ClientSettings withMultiplexing(boolean enabled) {
    return new ClientSettings(connectTimeout, requestTimeout, maxAttempts, initialBackoff, maxBackoff,
        maxConnectionsPerUpstream, maxStreamsPerUpstream, enabled, inProcess);
  }

  /** With calls to servers of this JVM in process, or always over HTTP. */
  public ClientSettings withInProcess(boolean enabled) {
    return new ClientSettings(connectTimeout, requestTimeout, maxAttempts, initialBackoff, maxBackoff,
        maxConnectionsPerUpstream, maxStreamsPerUpstream, multiplex, enabled);
  }

  private static Duration seconds(GlobalConfig config, String key, Duration fallback) {
    return config.get(key).filter(n -> n.isNumber()).map(n -> Duration.ofMillis((long) (n.asDouble() * 1000)))
        .orElse(fallback);
  }
}
