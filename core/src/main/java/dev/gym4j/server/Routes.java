package dev.gym4j.server;

import java.util.Map;

import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Handover;
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
  /** The request timer of each route, method and status ({@code "/verify POST 200"}). */
  private final Map<String, io.micrometer.core.instrument.Timer> timers =
      new java.util.concurrent.ConcurrentHashMap<>();
  /** Each endpoint by method and path ({@code "POST /verify"}), for callers in this JVM. */
  private final Map<String, JsonHandler> endpoints = new java.util.concurrent.ConcurrentHashMap<>();

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
    endpoints.put("POST " + path, handler);
    return this;
  }

  /** Paths whose error bodies are also in OpenAI's shape ({@link ErrorBodies#openAI}). */
  private final java.util.Set<String> openAIPaths = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Marks an OpenAI-compatible path: its error bodies carry OpenAI's {@code error} object beside FastAPI's
   * {@code detail}, so OpenAI's SDKs show the message.
   */
  public Routes openAICompatible(String path) {
    openAIPaths.add(path);
    return this;
  }

  /** Paths whose error bodies, and those of unknown paths under them, are Anthropic's ({@link ErrorBodies#anthropic}). */
  private final java.util.Set<String> anthropicPaths = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Marks an Anthropic-compatible path: every error on it (and 404 under it, such as {@code /v1/messages/batches})
   * has Anthropic's body {@code {"type": "error", "error": {"type", "message"}}}, so Anthropic's SDKs show the
   * message.
   */
  public Routes anthropicCompatible(String path) {
    anthropicPaths.add(path);
    return this;
  }

  /** An error body in the shape the clients of {@code path} read; other bodies as they are. */
  private Object shaped(String path, int status, Object body) {
    if (status < 400) {
      return body;
    }
    if (openAIPaths.contains(path)) {
      return ErrorBodies.openAI(status, body);
    }
    for (String prefix : anthropicPaths) {
      if (path.equals(prefix) || path.startsWith(prefix + "/")) {
        return ErrorBodies.anthropic(status, body);
      }
    }
    return body;
  }

  /** A GET endpoint; HEAD on it answers the same status and headers without the body. */
  public Routes get(String path, JsonHandler handler) {
    Handler wrapped = wrap(path, handler);
    routing.get(path, wrapped);
    routing.route(Method.HEAD, path, wrapped);
    allow(path, "GET", "HEAD");
    endpoints.put("GET " + path, handler);
    endpoints.put("HEAD " + path, handler);
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
      if (!bodyReadable(req)) {
        res.header(HeaderNames.CONNECTION, "close");
        send(req, res, 400, ErrorBodies.detail("the request body could not be read: malformed framing"));
      } else if (allowed == null) {
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
      Incoming in = new Incoming.Http(req);
      Answer answer = answer(route, handler, in, () -> readBody(req), () -> CallerWatch.start(req, res));
      answer.headers.forEach(res::header);
      answer.cookies.forEach(res.headers()::addCookie);
      if (answer.abandoned) {
        throw new io.helidon.webserver.CloseConnectionException("the caller left");
      }
      if (answer.body instanceof ServerSentEvents.Stream stream) {
        stream(route, req, res, stream);
      } else {
        send(req, res, answer.status, answer.body);
      }
      count(route, in.method(), answer.status, answer.start);
    };
  }

  /**
   * What an endpoint answers, and how: status, body, headers and cookies to set. Over HTTP they are written to
   * the response; in process ({@link InProcess}) they become the caller's reply as they are.
   */
  static final class Answer {
    final long start = System.nanoTime();
    int status = 200;
    Object body;
    final Map<String, String> headers = new java.util.LinkedHashMap<>();
    final java.util.List<io.helidon.http.SetCookie> cookies = new java.util.ArrayList<>(2);
    /** The caller left while the endpoint ran: nobody is answered. */
    boolean abandoned;

    Answer status(int status, Object body) {
      this.status = status;
      this.body = body;
      return this;
    }
  }

  /** Reads a request's body: null when over the limit; {@link UnreadableBody} when the framing failed. */
  @FunctionalInterface
  interface BodySource {
    byte[] read();
  }

  /**
   * Runs an endpoint with the plumbing every caller gets, over HTTP or in process: the concurrency bound, the
   * body limit, the session cookie, the caller watch, and failures turned into statuses.
   */
  private Answer answer(String route, JsonHandler handler, Incoming in, BodySource bodySource,
      java.util.function.Supplier<CallerWatch> watcher) {
    Answer answer = new Answer();
    if (maxConcurrentRequests > 0 && ownInFlight.get() >= maxConcurrentRequests) {
      // at capacity: refuse now with a hint when to retry, rather than queue without bound
      answer.headers.put(HeaderNames.RETRY_AFTER.defaultCase(), "1");
      return answer.status(503, ErrorBodies.detail(serverName + " is at capacity (" + maxConcurrentRequests
          + " requests in flight); retry later"));
    }
    inFlight.incrementAndGet();
    ownInFlight.incrementAndGet();
    try {
      handle(handler, in, bodySource, watcher, answer);
      if (answer.abandoned) {
        abandoned(route, in);
      }
      return answer;
    } finally {
      ownInFlight.decrementAndGet();
      inFlight.decrementAndGet();
    }
  }

  private void handle(JsonHandler handler, Incoming in, BodySource bodySource,
      java.util.function.Supplier<CallerWatch> watcher, Answer answer) {
    Map<String, String> cookies = in.cookies();
    java.util.Optional<String> carried = sessionCookie.read(cookies);
    String sessionId = carried.orElseGet(SessionCookie::newSessionId);
    // a valid cookie carried is the very value this server would sign again: set it as it came
    answer.cookies.add(carried.isPresent() ? sessionCookie.signed(cookies.get(sessionCookie.name()))
        : sessionCookie.setCookie(sessionId));
    CallerWatch watch = null;
    try {
      Call call = call(in, bodySource, sessionId, carried.isPresent());
      if (call == null) {
        // the rest of the body is still on the wire: it must never be read as the next request
        answer.headers.put(HeaderNames.CONNECTION.defaultCase(), "close");
        answer.status(413, ErrorBodies.detail("request body is larger than " + maxBodyBytes + " bytes"));
        return;
      }
      watch = watcher.get();
      Object result;
      try {
        result = handler.handle(call);
      } finally {
        watch.close();
      }
      call.responseCookies().forEach((name, value) -> {
        if (!name.equals(sessionCookie.name())) {
          answer.cookies.add(io.helidon.http.SetCookie.builder(name, value).path("/").httpOnly(true).build());
        }
      });
      if (result instanceof Reply reply) {
        answer.status(reply.status(), reply.body());
        answer.headers.putAll(reply.headers());
      } else {
        answer.status(200, result);
      }
    } catch (FieldError e) {
      answer.status(422, ErrorBodies.validation(e));
    } catch (UpstreamException e) {
      // another server failed us: say so with a gateway status, so the caller can record the failure's kind
      answer.headers.put(ServerClient.UPSTREAM_FAILURE_HEADER, e.kind().name().toLowerCase(java.util.Locale.ROOT));
      answer.status(e.kind() == UpstreamException.Kind.TIMEOUT ? 504 : 502,
          ErrorBodies.detail(serverName + ": " + e.getMessage()));
      LOG.debug("{} {} on {}: upstream failure {}", in.method(), in.path(), serverName, e.getMessage());
    } catch (dev.gym4j.agent.RolloutFailure e) {
      // a typed failure of the rollout (a judge that failed, say): its class travels in the body, so the
      // agent and the collector file the rollout under it; the header says it is not worth a retry here
      answer.headers.put(ServerClient.UPSTREAM_FAILURE_HEADER, e.failureClass());
      ObjectNode body = ErrorBodies.detail(serverName + ": " + e.getMessage());
      body.put(dev.gym4j.agent.AgentServer.FAILURE_CLASS, e.failureClass());
      answer.status(e.status(), body);
    } catch (java.util.concurrent.CancellationException e) {
      // the server is stopping under this request
      answer.status(503, ErrorBodies.detail(serverName + " is stopping"));
    } catch (UnreadableBody e) {
      answer.headers.put(HeaderNames.CONNECTION.defaultCase(), "close");
      answer.status(400, ErrorBodies.detail("the request body could not be read: " + e.getMessage()));
    } catch (RequestException e) {
      throw e;
    } catch (OutOfMemoryError e) {
      // what this request held is garbage now; the JVM is not broken, only full: the caller may retry later
      answer.headers.put(HeaderNames.RETRY_AFTER.defaultCase(), "5");
      answer.status(503, ErrorBodies.detail(serverName + " is out of memory; retry later"));
      LOG.warn("{} {} on {}: out of memory (answered 503)", in.method(), in.path(), serverName);
    } catch (Exception | StackOverflowError e) {
      if (watch != null && watch.gone()) {
        // the caller left and its work was interrupted: nobody to answer, nothing went wrong here
        answer.abandoned = true;
        return;
      }
      // the id ties the client's answer to the log line; the body names no class and carries no message,
      // which could hold anything the failing code was given
      String id = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 16);
      LOG.warn("{} {} failed on {} (error {})", in.method(), in.path(), serverName, id, e);
      answer.status(500, ErrorBodies.detail("Internal Server Error in " + serverName + " (error " + id + ")"));
    }
    if (watch != null && watch.gone()) {
      answer.abandoned = true;
    }
    if (watch != null && watch.tookInput()) {
      answer.headers.put(HeaderNames.CONNECTION.defaultCase(), "close");
    }
  }

  /**
   * Writes an event stream; a failure once the 200 is sent can only end the connection (the source reports
   * what it can as an event first).
   */
  private void stream(String route, ServerRequest req, ServerResponse res, ServerSentEvents.Stream stream) {
    try {
      ServerSentEvents.write(res, stream, bodyTimeout);
    } catch (Exception e) {
      LOG.debug("{} {} on {}: the event stream ended early: {}", req.prologue().method().text(), req.path().path(),
          serverName, e.toString());
      io.micrometer.core.instrument.Counter.builder("gym4j.streams.broken").tag("server", serverName)
          .tag("route", route).register(Metrics.REGISTRY).increment();
      throw new io.helidon.webserver.CloseConnectionException("the event stream ended early");
    }
  }

  /** Ends a request whose caller left while it ran (see {@link CallerWatch}): counted, and not answered. */
  private void abandoned(String route, Incoming in) {
    LOG.debug("{} {} on {}: the caller left; its work was cancelled", in.method(), in.path(), serverName);
    io.micrometer.core.instrument.Counter.builder("gym4j.requests.abandoned").tag("server", serverName)
        .tag("route", route).register(Metrics.REGISTRY).increment();
  }

  private void count(String route, String method, int status, long start) {
    // the timer of each route, method and status is looked up once: building its id costs more than recording
    timers.computeIfAbsent(route + ' ' + method + ' ' + status, key -> io.micrometer.core.instrument.Timer
        .builder("gym4j.requests").tag("server", serverName).tag("route", route)
        .tag("method", method).tag("status", String.valueOf(status))
        .publishPercentileHistogram().register(Metrics.REGISTRY))
        .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  /**
   * The call with its body, or null when the body is over the limit. A method of its own, so that no frame
   * of a handler that waits for seconds keeps the raw bytes once the Call has parsed them.
   */
  private static Call call(Incoming in, BodySource source, String sessionId, boolean carriesSession) {
    if (in instanceof InProcess.Request local && local.tree() != null
        && (local.method().equals("POST") || local.method().equals("PUT"))) {
      // handed over in process, within the limit (the client counted its size on the way)
      return new Call(in, local.tree(), sessionId, carriesSession);
    }
    byte[] body = source.read();
    return body == null ? null : new Call(in, body, sessionId, carriesSession);
  }

  /**
   * Reads a body no endpoint takes to its end, so that a malformed one is refused (400) before anything is
   * answered; false when its framing is malformed. A body over the limit is left: the connection closes after it.
   */
  private boolean bodyReadable(ServerRequest req) {
    try {
      readBody(req);
      return true;
    } catch (UnreadableBody e) {
      return false;
    }
  }

  /**
   * The request body, or null when it is over the limit; empty for a method other than POST and PUT, whose body
   * is still read, so that its framing is checked before the answer (a malformed one is a 400).
   */
  private byte[] readBody(ServerRequest req) {
    boolean takesBody = req.prologue().method() == Method.POST || req.prologue().method() == Method.PUT;
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
      return body.length > maxBodyBytes ? null : takesBody ? body : new byte[0];
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

  /** The largest request body read; a larger one is a 413. */
  long maxBodyBytes() {
    return maxBodyBytes;
  }

  /** Writes an answer over HTTP, an error body in the shape its path's clients read ({@link #shaped}). */
  private void send(ServerRequest req, ServerResponse res, int status, Object body) {
    res.status(Status.create(status));
    Rendered rendered = render(status, shaped(req.path().path(), status, body));
    res.header(HeaderNames.CONTENT_TYPE, rendered.contentType());
    if (req.prologue().method() == Method.HEAD) {
      res.header(HeaderNames.CONTENT_LENGTH, String.valueOf(rendered.bytes().length));
      res.send();
      return;
    }
    res.send(rendered.bytes());
  }

  /** A response body as sent: its bytes and content type. */
  record Rendered(String contentType, byte[] bytes) {}

  static Rendered render(int status, Object body) {
    String type;
    byte[] bytes;
    if (body instanceof RawBody raw) {
      type = raw.contentType();
      bytes = raw.bytes();
    } else {
      type = "application/json";
      bytes = body == null ? "null".getBytes() : Json.writeBytes(body);
    }
    if (status >= 400) {
      // an error body may quote what an upstream or a failing call said, which may hold a credential or name a
      // Java type (a Jackson message, an upstream's stack trace): the one place every error body passes
      String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
      String plain = ErrorBodies.withoutJavaTypes(Secrets.redact(text));
      bytes = plain.equals(text) ? bytes : plain.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    return new Rendered(type, bytes);
  }

  /**
   * Serves a request from a client in this JVM ({@link InProcess}) as the HTTP server would: the host check,
   * 414, 404 and 405 first, then the endpoint with its plumbing. Runs on the calling thread, which {@code watch}
   * interrupts when the caller leaves. Returns null when the caller left, as an abandoned HTTP request gets no
   * answer.
   */
  InProcess.Answered serve(InProcess.Request request, CallerWatch watch) {
    String wrongHost = hostCheck.refusal(request.authority());
    if (wrongHost != null) {
      return answered(request, 421, ErrorBodies.detail(wrongHost), Map.of(), java.util.List.of());
    }
    if (request.path().length() > MAX_TARGET_LENGTH) {
      return answered(request, 414, ErrorBodies.detail("the request target is longer than " + MAX_TARGET_LENGTH
          + " characters"), Map.of("Connection", "close"), java.util.List.of());
    }
    JsonHandler handler = endpoints.get(request.method() + " " + request.path());
    if (handler == null) {
      java.util.Set<String> allowed = methods.get(request.path());
      return allowed == null
          ? answered(request, 404, ErrorBodies.detail("Not Found"), Map.of(), java.util.List.of())
          : answered(request, 405, ErrorBodies.detail("Method Not Allowed"), Map.of("Allow", String.join(", ",
              allowed)), java.util.List.of());
    }
    String route = request.path();
    byte[] body = request.body() == null ? new byte[0] : request.body();
    boolean hasBody = request.method().equals("POST") || request.method().equals("PUT");
    Answer answer = answer(route, handler, request, () -> !hasBody ? new byte[0] : body.length > maxBodyBytes ? null
        : body, () -> watch);
    if (answer.abandoned) {
      return null;
    }
    if (answer.body instanceof ServerSentEvents.Stream stream) {
      // a stream asked for in a body the client could not see into: the caller gets it whole
      try {
        answer.body = ServerSentEvents.collect(stream, bodyTimeout);
      } catch (Exception e) {
        LOG.debug("{} {} on {}: the event stream ended early: {}", request.method(), request.path(), serverName,
            e.toString());
        answer.status(500, ErrorBodies.detail("the event stream of " + serverName + " ended early"));
      }
    }
    InProcess.Answered answered = answered(request, answer.status, answer.body, answer.headers, answer.cookies);
    count(route, request.method(), answer.status, answer.start);
    return answered;
  }

  /**
   * The caller's answer: a success's JSON tree as {@link Handover} copies it, else the bytes HTTP would carry (an
   * error body redacted, nothing for HEAD).
   */
  private InProcess.Answered answered(InProcess.Request request, int status, Object answeredBody,
      Map<String, String> headers, java.util.List<io.helidon.http.SetCookie> cookies) {
    Object body = shaped(request.path(), status, answeredBody);
    boolean head = request.method().equals("HEAD");
    tools.jackson.databind.JsonNode tree = status < 400 && !head && body instanceof tools.jackson.databind.JsonNode node
        ? Handover.copy(node, Long.MAX_VALUE).orElse(null) : null;
    Rendered rendered = tree == null ? render(status, body) : null;
    Map<String, String> cookiesSet = new java.util.LinkedHashMap<>();
    for (io.helidon.http.SetCookie cookie : cookies) {
      cookiesSet.put(cookie.name(), cookie.value());
    }
    Map<String, String> named = new java.util.LinkedHashMap<>();
    named.put("content-type", rendered == null ? "application/json" : rendered.contentType());
    headers.forEach((name, value) -> named.put(name.toLowerCase(java.util.Locale.ROOT), value));
    return new InProcess.Answered(status, tree != null ? null : head ? new byte[0] : rendered.bytes(), tree,
        cookiesSet, named);
  }

  /** For servers without endpoints of their own beyond the common ones. */
  static Map<String, String> ok() {
    return Map.of("status", "ok");
  }
}
