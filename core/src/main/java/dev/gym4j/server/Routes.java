package dev.gym4j.server;

import java.util.Map;

import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import tools.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoints of one server. Every endpoint gets the same plumbing: the body read within the size
 * limit, the session cookie read and set again, bad input answered with 422 naming the field, and any
 * other failure with a short 500 that never carries a stack trace to the client (the log has it).
 */
public final class Routes {
  private static final Logger LOG = LoggerFactory.getLogger(Routes.class);

  private final HttpRouting.Builder routing;
  private final SessionCookie sessionCookie;
  private final String serverName;
  private final long maxBodyBytes;
  private final int maxConcurrentRequests;
  private final java.util.concurrent.atomic.AtomicInteger inFlight;
  private final java.util.concurrent.atomic.AtomicInteger ownInFlight = new java.util.concurrent.atomic.AtomicInteger();

  Routes(HttpRouting.Builder routing, SessionCookie sessionCookie, String serverName, long maxBodyBytes,
      int maxConcurrentRequests) {
    this.routing = routing;
    this.sessionCookie = sessionCookie;
    this.serverName = serverName;
    this.maxBodyBytes = maxBodyBytes;
    this.maxConcurrentRequests = maxConcurrentRequests;
    this.inFlight = Metrics.gauge("gym4j.requests.in_flight", serverName);
  }

  public Routes post(String path, JsonHandler handler) {
    routing.post(path, wrap(path, handler));
    return this;
  }

  public Routes get(String path, JsonHandler handler) {
    routing.get(path, wrap(path, handler));
    return this;
  }

  /** Answers every path no endpoint took with FastAPI's 404 body. */
  void notFoundFallback() {
    routing.any((req, res) -> send(res, 404, ErrorBodies.detail("Not Found")));
  }

  private Handler wrap(String route, JsonHandler handler) {
    return (req, res) -> {
      if (maxConcurrentRequests > 0 && ownInFlight.get() >= maxConcurrentRequests) {
        // at capacity: refuse now with a hint when to retry, rather than queue without bound
        res.header(io.helidon.http.HeaderNames.RETRY_AFTER, "1");
        send(res, 503, ErrorBodies.detail(serverName + " is at capacity (" + maxConcurrentRequests
            + " requests in flight); retry later"));
        count(route, req, 503, System.nanoTime());
        return;
      }
      inFlight.incrementAndGet();
      ownInFlight.incrementAndGet();
      long start = System.nanoTime();
      try {
        handle(route, handler, req, res, start);
      } finally {
        ownInFlight.decrementAndGet();
        inFlight.decrementAndGet();
      }
    };
  }

  private void handle(String route, JsonHandler handler, ServerRequest req, ServerResponse res, long start) {
    {
      String sessionId = sessionCookie.read(req.headers().cookies()).orElseGet(SessionCookie::newSessionId);
      res.headers().addCookie(sessionCookie.setCookie(sessionId));
      Object result;
      int status = 200;
      try {
        Call call = call(req, sessionId);
        if (call == null) {
          send(res, 413, ErrorBodies.detail("request body is larger than " + maxBodyBytes + " bytes"));
          return;
        }
        result = handler.handle(call);
        call.responseCookies().forEach((name, value) -> {
          if (!name.equals(sessionCookie.name())) {
            res.headers().addCookie(io.helidon.http.SetCookie.builder(name, value).path("/").httpOnly(true).build());
          }
        });
        if (result instanceof Reply reply) {
          status = reply.status();
          result = reply.body();
          reply.headers().forEach((name, value) -> res.header(name, value));
        }
      } catch (FieldError e) {
        status = 422;
        result = ErrorBodies.validation(e);
      } catch (UpstreamException e) {
        // another server failed us: say so with a gateway status, so the caller can record the failure's kind
        status = e.kind() == UpstreamException.Kind.TIMEOUT ? 504 : 502;
        res.header(ServerClient.UPSTREAM_FAILURE_HEADER, e.kind().name().toLowerCase(java.util.Locale.ROOT));
        result = ErrorBodies.detail(serverName + ": " + e.getMessage());
        LOG.debug("{} {} on {}: upstream failure {}", req.prologue().method().text(), req.path().path(), serverName,
            e.getMessage());
      } catch (dev.gym4j.agent.RolloutFailure e) {
        // a typed failure of the rollout (a judge that failed, say): its class travels in the body, so the
        // agent and the collector file the rollout under it; the header says it is not worth a retry here
        status = e.status();
        res.header(ServerClient.UPSTREAM_FAILURE_HEADER, e.failureClass());
        ObjectNode body = ErrorBodies.detail(serverName + ": " + e.getMessage());
        body.put(dev.gym4j.agent.AgentServer.FAILURE_CLASS, e.failureClass());
        result = body;
      } catch (java.util.concurrent.CancellationException e) {
        // the server is stopping under this request
        status = 503;
        result = ErrorBodies.detail(serverName + " is stopping");
      } catch (RequestException e) {
        throw e;
      } catch (Exception e) {
        LOG.warn("{} {} failed on {}", req.prologue().method().text(), req.path().path(), serverName, e);
        status = 500;
        result = ErrorBodies.detail("Internal Server Error in " + serverName + ": " + e.getClass().getSimpleName()
            + (e.getMessage() == null ? "" : ": " + abbreviate(e.getMessage())));
      }
      send(res, status, result);
      count(route, req, status, start);
    }
  }

  private void count(String route, ServerRequest req, int status, long start) {
    io.micrometer.core.instrument.Timer.builder("gym4j.requests").tag("server", serverName).tag("route", route)
        .tag("method", req.prologue().method().text()).tag("status", String.valueOf(status))
        .publishPercentileHistogram().register(Metrics.REGISTRY)
        .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  /**
   * The call with its body, or null when the body is over the limit. A method of its own, so that no frame
   * of a handler that waits for seconds keeps the raw bytes once the Call has parsed them.
   */
  private Call call(ServerRequest req, String sessionId) {
    byte[] body = readBody(req);
    return body == null ? null : new Call(req, body, sessionId);
  }

  /** The request body, or null when it is over the limit. */
  private byte[] readBody(ServerRequest req) {
    if (req.prologue().method() != Method.POST && req.prologue().method() != Method.PUT) {
      return new byte[0];
    }
    var length = req.headers().contentLength();
    if (length.isPresent() && length.getAsLong() > maxBodyBytes) {
      return null;
    }
    if (!req.content().hasEntity()) {
      return new byte[0];
    }
    try (var in = req.content().inputStream()) {
      byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
      return body.length > maxBodyBytes ? null : body;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static void send(ServerResponse res, int status, Object body) {
    res.status(Status.create(status));
    if (body instanceof RawBody raw) {
      res.header(HeaderNames.CONTENT_TYPE, raw.contentType());
      res.send(raw.bytes());
      return;
    }
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(body == null ? "null".getBytes() : Json.writeBytes(body));
  }

  private static String abbreviate(String message) {
    return message.length() <= 300 ? message : message.substring(0, 300) + "…";
  }

  /** For servers without endpoints of their own beyond the common ones. */
  static Map<String, String> ok() {
    return Map.of("status", "ok");
  }
}
