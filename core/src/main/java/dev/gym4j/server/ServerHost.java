package dev.gym4j.server;

import java.time.Duration;
import java.util.function.Consumer;

import dev.gym4j.config.ServerInstance;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;

/**
 * Puts a {@link GymServer} on a Helidon web server (a virtual thread per request). The socket is bound to
 * the configured port, or to port 0 so the system picks a free one: the bound port is read back from the
 * live socket, so there is no probe-then-bind race.
 */
public final class ServerHost {
  /** Request bodies above this are refused with 413 unless the instance sets {@code max_body_bytes}. */
  public static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  static {
    // before Helidon's first log line, which it writes to java.util.logging
    new Slf4jLogging().initialization();
  }

  private ServerHost() {}

  public static RunningServer start(GymServer server, ServerContext context) {
    server.attach(context);
    server.start();
    ServerInstance instance = context.instance();
    long maxBody = instance.config().path("max_body_bytes").asLong(DEFAULT_MAX_BODY_BYTES);
    int maxConcurrent = instance.config().path("max_concurrent_requests").asInt(0);
    WebServer webServer = serve(instance.name(), instance.host(), instance.port(), maxBody, maxConcurrent,
        server.sessionCookieName(), server::routes);
    return new RunningServer(instance, server, webServer, instance.host());
  }

  /**
   * A web server on host and port speaking HTTP/2 (h2c after an upgrade) as well as HTTP/1.1. Every rollout
   * in flight is a stream on one of the few connections between two servers, so the stream limit is set far
   * above any rollout count. An HTTP/2 answer is several small writes (headers, then data); with Nagle's
   * algorithm on, each waited for the peer's delayed ACK, which made a multiplexed hop 17 times slower than
   * an HTTP/1.1 one.
   */
  public static io.helidon.webserver.WebServerConfig.Builder builder(String host, int port) {
    return WebServer.builder()
        .host(host)
        .port(port)
        .connectionOptions(options -> options.tcpNoDelay(true))
        .addProtocol(io.helidon.webserver.http2.Http2Config.builder().maxConcurrentStreams(1_000_000).build());
  }

  /**
   * Starts a web server whose endpoints {@code routes} adds, with the common plumbing: {@code GET /}
   * liveness, session cookie, 404/413/422/500 bodies.
   */
  public static WebServer serve(String name, String host, int port, long maxBodyBytes, String cookieName,
      Consumer<Routes> routes) {
    return serve(name, host, port, maxBodyBytes, 0, cookieName, routes);
  }

  /**
   * @param maxConcurrentRequests requests handled at once before more are refused with 503 and
   *     {@code Retry-After} (0: no limit)
   */
  public static WebServer serve(String name, String host, int port, long maxBodyBytes, int maxConcurrentRequests,
      String cookieName, Consumer<Routes> routes) {
    HttpRouting.Builder routing = HttpRouting.builder();
    Routes endpoints = new Routes(routing, new SessionCookie(cookieName), name, maxBodyBytes, maxConcurrentRequests);
    endpoints.get("/", call -> Routes.ok());
    endpoints.get("/metrics", call -> new RawBody("text/plain; version=0.0.4; charset=utf-8",
        Metrics.REGISTRY.scrape().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    routes.accept(endpoints);
    endpoints.notFoundFallback();
    // Routes enforces the body limit itself, so that the 413 has a JSON body like every other error
    WebServer server = builder(host, port)
        .shutdownGracePeriod(Duration.ofSeconds(2))
        .routing(routing)
        .build()
        .start();
    if (!server.isRunning()) {
      // Helidon logs a failed bind and returns a stopped server rather than throwing
      throw new IllegalStateException("cannot listen on " + host + ":" + port + " (address in use?)");
    }
    return server;
  }
}
