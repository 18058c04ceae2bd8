package dev.gym4j.server;

import java.util.Map;

import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.config.Secrets;
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
 * other failure with a short 500 that names neither a Java class nor the exception's message (the log has
 * both, under the error id the body gives). A GET endpoint answers HEAD too; a known path asked with
 * another method is a 405 with {@code Allow}. Every error body goes through the {@link Secrets} redactor.
 *
 * <p>On HTTP/1.x the connection is closed after the response whenever reading on could misread the
 * stream: the client asked for {@code Connection: close}, or the body was not read (too large,
 * malformed chunks). Bytes after such a request are never parsed as requests.
 */
public final class Routes {
  private static final Logger LOG = LoggerFactory.getLogger(Routes.class);

  private final HttpRouting.Builder routing;
  private final SessionCookie sessionCookie;
  private final String serverName;
  private final long maxBodyBytes;
  private final int maxConcurrentRequests;
  private final java.time.Duration bodyTimeout;
  private final java.util.concurrent.atomic.AtomicInteger inFlight;
  private final java.util.concurrent.atomic.AtomicInteger ownInFlight = new java.util.concurrent.atomic.AtomicInteger();
  /** The methods each path answers, for 405's {@code Allow}. */
  private final Map<String, java.util.Set<String>> methods = new java.util.concurrent.ConcurrentHashMap<>();

  private final HostCheck hostCheck;

  Routes(HttpRouting.Builder routing, SessionCookie sessionCookie, String serverName, HttpLimits limits,
      HostCheck hostCheck) {
    this.routing = routing;
    this.hostCheck = hostCheck;
    this.sessionCookie = sessionCookie;
    this.serverName = serverName;
    this.maxBodyBytes = limits.maxBodyBytes();
    this.maxConcurrentRequests = limits.maxConcurrentRequests();
    this.bodyTimeout = limits.bodyTimeout();
    this.inFlight = Metrics.gauge("gym4j.requests.in_flight", serverName);
  }

  public Routes post(String path, JsonHandler handler) {
    routing.post(path, wrap(path, handler));
    allow(path, "POST");
    return this;
  }

  /** A GET endpoint; HEAD on it answers the same status and headers without the body. */
  public Routes get(String path, JsonHandler handler) {
    Handler wrapped = wrap(path, handler);
    routing.get(path, wrapped);
    routing.route(Method.HEAD, path, wrapped);
    allow(path, "GET", "HEAD");
    return this;
  }

  private void allow(String path, String... verbs) {
    methods.computeIfAbsent(path, key -> new java.util.LinkedHashSet<>()).addAll(java.util.List.of(verbs));
  }

  /**
   * Answers every request no endpoint took: 405 with {@code Allow} on a known path, else FastAPI's 404 body.
   * Before any endpoint: a host the server does not answer to is a 421 ({@link HostCheck}), a request
   * target over {@link #MAX_TARGET_LENGTH} a 414; after every endpoint, the connection closes when it must
   * (see the class comment).
   */
  void fallbacks() {
    routing.addFilter((chain, req, res) -> {
      // an HTTP/2 connection started with prior knowledge has sent no HTTP/1.1 headers: its first stream counts
      AcceptedConnections.started(req.remotePeer(), req.localPeer());
      String wrongHost = hostCheck.refusal(authority(req));
      if (wrongHost != null) {
        send(req, res, 421, ErrorBodies.detail(wrongHost));
      } else if (targetLength(req) > MAX_TARGET_LENGTH) {
        res.header(HeaderNames.CONNECTION, "close");
        send(req, res, 414, ErrorBodies.detail("the request target is longer than " + MAX_TARGET_LENGTH
            + " characters"));
      } else {
        chain.proceed();
      }
      if (mustClose(req, res)) {
        throw new io.helidon.webserver.CloseConnectionException("closing after the response, as asked");
      }
    });
    routing.any((req, res) -> {
      java.util.Set<String> allowed = methods.get(req.path().path());
      if (allowed == null) {
        send(req, res, 404, ErrorBodies.detail("Not Found"));
      } else {
        res.header(HeaderNames.ALLOW, String.join(", ", allowed));
        send(req, res, 405, ErrorBodies.detail("Method Not Allowed"));
      }
    });
  }

  /** The Host header, or HTTP/2's :authority; null when the request has neither. */
  private static String authority(ServerRequest req) {
    try {
      return req.authority();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The longest request target (path and query) served; a longer one is a 414. */
  static final int MAX_TARGET_LENGTH = 8192;

  private static int targetLength(ServerRequest req) {
    return req.prologue().uriPath().rawPath().length() + req.prologue().query().rawValue().length();
  }

  /** HTTP/1.x only: an HTTP/2 stream's body is framed apart from the next stream's, so it cannot be misread. */
  private static boolean mustClose(ServerRequest req, ServerResponse res) {
    if (!req.prologue().protocolVersion().startsWith("1.")) {
      return false;
    }
    return req.headers().contains(io.helidon.http.HeaderValues.CONNECTION_CLOSE)
        || res.headers().contains(io.helidon.http.HeaderValues.CONNECTION_CLOSE);
  }

  private Handler wrap(String route, JsonHandler handler) {
    return (req, res) -> {
      if (maxConcurrentRequests > 0 && ownInFlight.get() >= maxConcurrentRequests) {
        // at capacity: refuse now with a hint when to retry, rather than queue without bound
        res.header(io.helidon.http.HeaderNames.RETRY_AFTER, "1");
        send(req, res, 503, ErrorBodies.detail(serverName + " is at capacity (" + maxConcurrentRequests
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
      java.util.Optional<String> carried = sessionCookie.read(req.headers().cookies());
      String sessionId = carried.orElseGet(SessionCookie::newSessionId);
      res.headers().addCookie(sessionCookie.setCookie(sessionId));
      Object result;
      int status = 200;
      CallerWatch watch = null;
      try {
        Call call = call(req, sessionId, carried.isPresent());
        if (call == null) {
          // the rest of the body is still on the wire: it must never be read as the next request
          res.header(HeaderNames.CONNECTION, "close");
          send(req, res, 413, ErrorBodies.detail("request body is larger than " + maxBodyBytes + " bytes"));
          count(route, req, 413, start);
          return;
        }
        watch = CallerWatch.start(req, res);
        try {
          result = handler.handle(call);
        } finally {
          watch.close();
        }
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
      } catch (UnreadableBody e) {
        res.header(HeaderNames.CONNECTION, "close");
        status = 400;
        result = ErrorBodies.detail("the request body could not be read: " + e.getMessage());
      } catch (RequestException e) {
        throw e;
      } catch (Exception | StackOverflowError e) {
        if (watch != null && watch.gone()) {
          // the caller left and its work was interrupted: nobody to answer, nothing went wrong here
          abandoned(route, req);
        }
        // the id ties the client's answer to the log line; the body names no class and carries no message,
        // which could hold anything the failing code was given
        String id = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
        LOG.warn("{} {} failed on {} (error {})", req.prologue().method().text(), req.path().path(), serverName,
            id, e);
        status = 500;
        result = ErrorBodies.detail("Internal Server Error in " + serverName + " (error " + id + ")");
      }
      if (watch != null && watch.gone()) {
        abandoned(route, req);
      }
      if (watch != null && watch.tookInput()) {
        res.header(HeaderNames.CONNECTION, "close");
      }
      send(req, res, status, result);
      count(route, req, status, start);
    }
  }

  /** Ends a request whose caller left while it ran (see {@link CallerWatch}): counted, and not answered. */
  private void abandoned(String route, ServerRequest req) {
    LOG.debug("{} {} on {}: the caller left; its work was cancelled", req.prologue().method().text(),
        req.path().path(), serverName);
    io.micrometer.core.instrument.Counter.builder("gym4j.requests.abandoned").tag("server", serverName)
        .tag("route", route).register(Metrics.REGISTRY).increment();
    throw new io.helidon.webserver.CloseConnectionException("the caller left");
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
  private Call call(ServerRequest req, String sessionId, boolean carriesSession) {
    byte[] body = readBody(req);
    return body == null ? null : new Call(req, body, sessionId, carriesSession);
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
    var deadline = Deadlines.interruptAfter(bodyTimeout);
    try (var in = req.content().inputStream()) {
      byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
      return body.length > maxBodyBytes ? null : body;
    } catch (RequestException | java.io.IOException | java.io.UncheckedIOException e) {
      throw e instanceof RequestException request && request.status().code() == 413 ? request
          : new UnreadableBody("the connection failed or the framing is malformed");
    } catch (RuntimeException e) {
      // Helidon's chunk parser throws NumberFormatException on a size that is not hex
      throw new UnreadableBody("malformed chunked encoding");
    } finally {
      Deadlines.cancel(deadline);
    }
  }

  /** A request body that could not be read to its end; the connection is closed after the 400. */
  private static final class UnreadableBody extends RuntimeException {
    UnreadableBody(String message) {
      super(message, null, false, false);
    }
  }

  static void send(ServerRequest req, ServerResponse res, int status, Object body) {
    res.status(Status.create(status));
    if (body instanceof EventStream stream && req.prologue().method() != Method.HEAD) {
      stream.writeTo(res);
      return;
    }
    byte[] bytes;
    if (body instanceof RawBody raw) {
      res.header(HeaderNames.CONTENT_TYPE, raw.contentType());
      bytes = raw.bytes();
    } else {
      res.header(HeaderNames.CONTENT_TYPE, "application/json");
      bytes = body == null ? "null".getBytes() : Json.writeBytes(body);
    }
    if (status >= 400) {
      // an error body may quote what an upstream or a failing call said, which may hold a credential
      bytes = Secrets.redact(bytes);
    }
    if (req.prologue().method() == Method.HEAD) {
      res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(bytes.length));
      res.send();
      return;
    }
    res.send(bytes);
  }

  /** For servers without endpoints of their own beyond the common ones. */
  static Map<String, String> ok() {
    return Map.of("status", "ok");
  }
}
