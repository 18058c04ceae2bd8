package dev.gym4j.server;

import java.time.Duration;
import java.util.function.Consumer;

import dev.gym4j.config.ServerInstance;
import io.helidon.http.DirectHandler;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;

/**
 * Puts a {@link GymServer} on a Helidon web server (a virtual thread per request). The socket is bound to
 * the configured port, or to port 0 so the system picks a free one: the bound port is read back from the
 * live socket, so there is no probe-then-bind race.
 */
public final class ServerHost {
  /** Request bodies above this are refused with 413 unless the instance sets {@code max_body_bytes}. */
  public static final long DEFAULT_MAX_BODY_BYTES = HttpLimits.DEFAULT_MAX_BODY_BYTES;

  static {
    // before Helidon's first log line, which it writes to java.util.logging
    new Slf4jLogging().initialization();
  }

  private ServerHost() {}

  public static RunningServer start(GymServer server, ServerContext context) {
    server.attach(context);
    server.start();
    ServerInstance instance = context.instance();
    WebServer webServer = serve(instance.name(), instance.host(), instance.port(), HttpLimits.from(instance.config()),
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
    return builder(host, port, HttpLimits.defaults());
  }

  /**
   * As {@link #builder(String, int)}, with the limits' read deadlines: a new connection must have sent its
   * first request's headers within the header timeout of being accepted (or it is closed, whatever it sent),
   * the headers of every later HTTP/1.1 request must arrive within the header timeout of its request line,
   * and a connection with no request in progress is closed after the idle timeout. Request lines up to 64 KiB are read, so that a long one is answered 414 rather than
   * dropped, and requests Helidon would drop without an answer (HTTP/1.0) are answered too.
   */
  public static io.helidon.webserver.WebServerConfig.Builder builder(String host, int port, HttpLimits limits) {
    Duration idle = limits.idleTimeout();
    io.helidon.webserver.http1.Http1Config http1 = io.helidon.webserver.http1.Http1Config.builder()
        .maxPrologueLength(UnsupportedHttp.MAX_REQUEST_LINE)
        .addReceiveListener(new Deadlines.Headers1(limits.headerTimeout()))
        .build();
    io.helidon.webserver.http2.Http2Config http2 = io.helidon.webserver.http2.Http2Config.builder()
        .maxConcurrentStreams(1_000_000).build();
    return WebServer.builder()
        .host(host)
        .port(port)
        .connectionOptions(AcceptedConnections.watching(
            io.helidon.common.socket.SocketOptions.builder().tcpNoDelay(true).build(), limits.headerTimeout()))
        .idleConnectionTimeout(idle)
        .idleConnectionPeriod(idle.dividedBy(10).compareTo(Duration.ofMillis(100)) < 0 ? Duration.ofMillis(100)
            : idle.dividedBy(10))
        // asked in this order, before Helidon's own: requests it would drop unanswered, then HTTP/1.1 itself
        .addConnectionSelector(new UnsupportedHttp())
        .addConnectionSelector(new Http1Framing(http1, http2))
        .directHandlers(handlers -> handlers
            .addHandler(DirectHandler.EventType.BAD_REQUEST, ServerHost::badRequest)
            .addHandler(DirectHandler.EventType.INTERNAL_ERROR, ServerHost::badRequest))
        .addProtocol(http1)
        .addProtocol(http2);
  }

  /**
   * A request Helidon refuses before routing is the client's fault, and is answered 4xx. Helidon answers an
   * unknown transfer coding ({@code Transfer-Encoding: gzip, chunked}) 501, as RFC 9112 §6.1 suggests; we say
   * 400 instead, so that no bad request can make a server look broken to a monitor counting 5xx. Before routing,
   * Helidon fails with an internal error only when its parser throws on the bytes it was sent (a method that is
   * not a token, {@code G@T}; an {@code HTTP2-Settings} that is not base64url): that too is a 400, and, being
   * answered below 500, writes no stack trace to the log. Every failure past routing is {@link Routes}'.
   */
  private static DirectHandler.TransportResponse badRequest(DirectHandler.TransportRequest request,
      DirectHandler.EventType event, Status status, ServerResponseHeaders headers, String message) {
    Status answered = status.code() >= 500 ? Status.BAD_REQUEST_400 : status;
    return DirectHandler.defaultHandler().handle(request, event, answered, headers, message);
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
    return serve(name, host, port, HttpLimits.defaults().withMaxBodyBytes(maxBodyBytes)
        .withMaxConcurrentRequests(maxConcurrentRequests), cookieName, routes);
  }

  /** Starts a web server as above, with every limit given. */
  public static WebServer serve(String name, String host, int port, HttpLimits limits, String cookieName,
      Consumer<Routes> routes) {
    HttpRouting.Builder routing = HttpRouting.builder();
    Routes endpoints = new Routes(routing, new SessionCookie(cookieName), name, limits,
        HostCheck.of(host, limits.allowedHosts()));
    endpoints.get("/", call -> Routes.ok());
    endpoints.get("/metrics", call -> new RawBody("text/plain; version=0.0.4; charset=utf-8",
        dev.gym4j.config.Secrets.redact(Metrics.REGISTRY.scrape()).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    routes.accept(endpoints);
    endpoints.fallbacks();
    // Routes enforces the body limit itself, so that the 413 has a JSON body like every other error
    WebServer server = builder(host, port, limits)
        .shutdownGracePeriod(Duration.ofSeconds(2))
        .routing(routing)
        .build()
        .start();
    if (!server.isRunning()) {
      // Helidon logs a failed bind and returns a stopped server rather than throwing
      throw new IllegalStateException("cannot listen on " + host + ":" + port + " (address in use?)");
    }
    InProcess.register(host, server, endpoints);
    return server;
  }
}
