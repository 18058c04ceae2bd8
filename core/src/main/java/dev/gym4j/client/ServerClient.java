package dev.gym4j.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Handover;
import dev.gym4j.json.Json;
import dev.gym4j.server.InProcess;
import tools.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls other servers by instance name, or any URL.
 *
 * <p>HTTP/1.1 by default, because the JDK client's h2c upgrade headers break uvicorn, which vLLM serves
 * on; the JDK client then opens a socket per concurrent request. With {@code client_http2} (and for
 * upstreams said to speak h2c) calls are HTTP/2 streams on a few shared connections instead, through a
 * {@link Multiplexer}. Either way a fair semaphore per upstream bounds the requests in flight to it and
 * queues the rest. Connection failures and 429/502/503/504 are retried a bounded number of times
 * with jittered exponential backoff (honouring {@code Retry-After}); a request that times out is not
 * retried, since the server may still be working on it. Cookies are never stored: callers thread them by
 * hand, per rollout, as NeMo Gym's agents do.
 */
public final class ServerClient implements AutoCloseable {
  /**
   * The longest answer read from an upstream over HTTP, the largest request a gym4j server takes by default: a
   * longer one fails the call (502) before it can take the heap.
   */
  static final long MAX_ANSWER_BYTES = dev.gym4j.server.ServerHost.DEFAULT_MAX_BODY_BYTES;
  private static final Logger LOG = LoggerFactory.getLogger(ServerClient.class);
  private static final Set<Integer> RETRY_STATUSES = Set.of(429, 502, 503, 504);
  /** A route: "/" or segments of letters, digits, '_', '-', '~' and '.' (but not a segment of dots only). */
  private static final java.util.regex.Pattern ROUTE =
      java.util.regex.Pattern.compile("/|(/(?!\\.{1,2}(?:/|$))[A-Za-z0-9._~-]+)+");
  /**
   * Marks a 502/504 from a gym4j server whose own upstream failed after that server's retries. Such an
   * answer is not retried again: retrying at every hop would multiply the calls to a failing backend.
   */
  public static final String UPSTREAM_FAILURE_HEADER = "X-Gym4j-Upstream-Failure";
  /** Calls answered by a server of this JVM without a socket ({@link InProcess}). */
  private static final io.micrometer.core.instrument.Counter IN_PROCESS = io.micrometer.core.instrument.Counter
      .builder("gym4j.client.in_process").register(dev.gym4j.server.Metrics.REGISTRY);

  private final ServerDirectory directory;
  private final ClientSettings settings;
  /** For upstreams outside gym4j: vLLM and most model servers speak only HTTP/1.1. */
  private final HttpClient http;
  /** For gym4j servers, and upstreams said to speak h2c: HTTP/2 streams on a few shared connections. */
  private final Multiplexer multiplexer;
  /** Per upstream authority: sockets for HTTP/1.1, streams when multiplexed. */
  private final Map<String, Semaphore> socketPermits = new ConcurrentHashMap<>();
  private final Map<String, Semaphore> streamPermits = new ConcurrentHashMap<>();

  public ServerClient(ServerDirectory directory, ClientSettings settings) {
    this.directory = directory;
    this.settings = settings;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(settings.connectTimeout())
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    this.multiplexer = new Multiplexer(settings.connectTimeout(), settings.requestTimeout(),
        Multiplexer.jdkIdleTimeout());
  }

  /**
   * Sends requests to this upstream as HTTP/2 streams on one connection (h2c), as between gym4j servers;
   * for an upstream known to speak it. An upstream that does not simply keeps HTTP/1.1.
   */
  public void multiplex(URI upstream) {
    multiplexer.add(upstream);
  }

  public ClientSettings settings() {
    return settings;
  }

  /** Where this client finds instances by name. */
  public ServerDirectory directory() {
    return directory;
  }

  /** POSTs a JSON body to a path of an instance, sending the given cookies. */
  public HttpReply post(String instance, String path, Object body, Map<String, String> cookies) {
    // a streamed answer (server-sent events) always goes over HTTP
    boolean streamed = body instanceof JsonNode tree && tree.path("stream").asBoolean(false);
    return send(instance, path, "POST", new Payload(body, null), cookies, !streamed);
  }

  public HttpReply get(String instance, String path) {
    return send(instance, path, "GET", Payload.NONE, Map.of(), true);
  }

  /**
   * A request body: a value written as JSON, or bytes. A JSON tree (or a {@link dev.gym4j.json.JsonView}'s) to a
   * server of this JVM goes as a tree ({@link Handover}); bytes are written only when they are needed.
   */
  private static final class Payload {
    static final Payload NONE = new Payload(null, null);
    private final Object value;
    private byte[] bytes;

    Payload(Object value, byte[] bytes) {
      this.value = value;
      this.bytes = bytes;
    }

    /** The bytes to send; null for no body. */
    byte[] bytes() {
      if (bytes == null && this != NONE) {
        bytes = Json.writeBytes(value);
      }
      return bytes;
    }

    /** The tree to hand to a server of this JVM that reads at most {@code maxBytes}, or null to send bytes. */
    JsonNode tree(long maxBytes) {
      JsonNode tree = value instanceof JsonNode node ? node
          : value instanceof dev.gym4j.json.JsonView view ? view.json() : null;
      return tree == null ? null : Handover.copy(tree, maxBytes).orElse(null);
    }
  }

  private HttpReply send(String instance, String path, String method, Payload body, Map<String, String> cookies,
      boolean mayStayInProcess) {
    URI base = directory.find(instance).orElseThrow(() -> new UpstreamException(UpstreamException.Kind.UNKNOWN_INSTANCE,
        "no server instance named " + instance + " is known"));
    URI url = route(base, path);
    InProcess.Target local = mayStayInProcess ? inProcess(url, Map.of()) : null;
    if (local == null && settings.multiplex()) {
      multiplex(base);
    }
    try {
      return send(url, local, method, body, cookies, Map.of());
    } catch (UpstreamException e) {
      if (e.kind() == UpstreamException.Kind.CONNECTION) {
        directory.invalidate(instance);
      }
      throw e;
    }
  }

  /**
   * The URL of a route of an instance, built and never resolved: {@code URI.resolve} would read
   * {@code //host/x} as another host and {@code ../} as a way out, and a path may carry a model's text
   * (a tool name). Only plain segments are allowed; anything else is a programming error.
   */
  static URI route(URI base, String path) {
    if (!ROUTE.matcher(path).matches()) {
      throw new IllegalArgumentException("not a route path: "
          + (path.length() <= 80 ? path : path.substring(0, 80) + "…"));
    }
    String root = base.toString();
    return URI.create((root.endsWith("/") ? root.substring(0, root.length() - 1) : root) + path);
  }

  /** Sends a request to a URL, with retries and deadlines as described above. */
  public HttpReply send(URI url, String method, byte[] body, Map<String, String> cookies, Map<String, String> headers) {
    return send(url, inProcess(url, headers), method, body == null ? Payload.NONE : new Payload(null, body), cookies,
        headers);
  }

  /**
   * The server of this JVM that serves the URL, when calls in process are on and the caller does not ask for
   * server-sent events; null when the request goes over HTTP.
   */
  private InProcess.Target inProcess(URI url, Map<String, String> headers) {
    if (!settings.inProcess() || InProcess.forcedOff()) {
      return null;
    }
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase("Accept") && header.getValue().contains("text/event-stream")) {
        return null;
      }
    }
    return InProcess.find(url).orElse(null);
  }

  private HttpReply send(URI url, InProcess.Target local, String method, Payload body, Map<String, String> cookies,
      Map<String, String> headers) {
    HttpRequest request = local == null ? request(url, method, body.bytes(), cookies, headers) : null;
    // what a failure or a retry shows of the request: built only then, the redactor is not free
    java.util.function.Supplier<String> shown = () -> method + " " + dev.gym4j.config.Secrets.redact(url.toString());
    Exception lastFailure = null;
    for (int attempt = 1; ; attempt++) {
      HttpReply reply;
      try {
        reply = local != null ? inProcess(local, url, method, body, cookies, headers) : reply(sendOnce(request));
      } catch (HttpConnectTimeoutException | ConnectException e) {
        lastFailure = e;
        reply = null;
      } catch (HttpTimeoutException e) {
        throw new UpstreamException(UpstreamException.Kind.TIMEOUT, shown.get() + " got no response within "
            + settings.requestTimeout().toSeconds() + " s", 0, e);
      } catch (IOException e) {
        if (BoundedAnswer.tooLarge(e)) {
          throw new UpstreamException(UpstreamException.Kind.STATUS, shown.get() + " answered more than "
              + MAX_ANSWER_BYTES + " bytes", 0, e);
        }
        // a reset or a stale keep-alive socket: no response byte was read, so trying again is safe
        lastFailure = e;
        reply = null;
      }
      if (reply != null) {
        boolean retriedDownstream = reply.upstreamFailure();
        if (!RETRY_STATUSES.contains(reply.status()) || retriedDownstream || attempt >= settings.maxAttempts()) {
          return reply;
        }
        LOG.debug("{} answered {}, retry {} of {}", shown.get(), reply.status(), attempt, settings.maxAttempts() - 1);
        retried(url, "status_" + reply.status());
        pause(attempt, reply.header("Retry-After").orElse(null));
        continue;
      }
      if (attempt >= settings.maxAttempts()) {
        throw new UpstreamException(UpstreamException.Kind.CONNECTION, shown.get() + " failed after "
            + attempt + " attempts: " + describe(lastFailure), 0, lastFailure);
      }
      LOG.debug("{} failed ({}), retry {} of {}", shown.get(), describe(lastFailure), attempt,
          settings.maxAttempts() - 1);
      retried(url, "connection");
      pause(attempt, null);
    }
  }

  private static HttpReply reply(HttpResponse<byte[]> response) {
    return new HttpReply(response.statusCode(), response.body(), cookies(response), failureHeaders(response));
  }

  /**
   * One try in process, holding a permit as over HTTP (a stream's when multiplexing, else a socket's), so
   * that the bound on requests in flight to one upstream holds either way.
   */
  private HttpReply inProcess(InProcess.Target local, URI url, String method, Payload body,
      Map<String, String> cookies, Map<String, String> headers) throws HttpTimeoutException {
    String authority = url.getAuthority();
    Semaphore permit = settings.multiplex()
        ? streamPermits.computeIfAbsent(authority, key -> new Semaphore(settings.maxStreamsPerUpstream(), true))
        : socketPermits.computeIfAbsent(authority, key -> new Semaphore(settings.maxConnectionsPerUpstream(), true));
    acquire(permit, authority);
    InProcess.Answered answered;
    try {
      // a copy for each try: the server owns what it is handed
      JsonNode tree = body.tree(local.maxBodyBytes());
      answered = local.send(method, tree == null ? body.bytes() : null, tree, cookies, headers,
          settings.requestTimeout());
    } finally {
      permit.release();
    }
    IN_PROCESS.increment();
    Map<String, String> replyHeaders = answered.status() < 400 ? Map.of() : answered.headers();
    return answered.tree() != null
        ? HttpReply.ofTree(answered.status(), answered.tree(), answered.cookies(), replyHeaders)
        : new HttpReply(answered.status(), answered.body(), answered.cookies(), replyHeaders);
  }

  /**
   * POSTs a JSON body once, without retries (a stream may have been half read), and returns the response as it
   * arrives: the status and headers within the request deadline, the body as a stream the caller reads under
   * its own deadlines and must close. For server-sent events from an upstream outside gym4j (HTTP/1.1).
   */
  public HttpResponse<java.io.InputStream> stream(URI url, byte[] body, Map<String, String> headers) {
    HttpRequest request = request(url, "POST", body, Map.of(), headers);
    String shown = "POST " + dev.gym4j.config.Secrets.redact(url.toString());
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpConnectTimeoutException | ConnectException e) {
      throw new UpstreamException(UpstreamException.Kind.CONNECTION, shown + " failed: " + describe(e), 0, e);
    } catch (HttpTimeoutException e) {
      throw new UpstreamException(UpstreamException.Kind.TIMEOUT, shown + " got no response within "
          + settings.requestTimeout().toSeconds() + " s", 0, e);
    } catch (IOException e) {
      throw new UpstreamException(UpstreamException.Kind.CONNECTION, shown + " failed: " + describe(e), 0, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while calling " + url);
    }
  }

  /**
   * One try, holding one of the upstream's permits: sockets for HTTP/1.1, streams for a multiplexed
   * upstream. Callers past the bound queue here, in arrival order.
   */
  private HttpResponse<byte[]> sendOnce(HttpRequest request) throws IOException {
    String authority = request.uri().getAuthority();
    boolean multiplexed = multiplexer.carries(authority);
    Semaphore permit = multiplexed
        ? streamPermits.computeIfAbsent(authority, key -> new Semaphore(settings.maxStreamsPerUpstream(), true))
        : socketPermits.computeIfAbsent(authority, key -> new Semaphore(settings.maxConnectionsPerUpstream(), true));
    acquire(permit, authority);
    try {
      if (multiplexed) {
        HttpResponse<byte[]> response = multiplexer.send(request);
        if (response != null) {
          return response;
        }
      }
      return http.send(request, BoundedAnswer.handler(MAX_ANSWER_BYTES));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while calling " + request.uri());
    } finally {
      permit.release();
    }
  }

  /** Waits for a permit to call an upstream, within the request deadline. */
  private void acquire(Semaphore permit, String authority) throws HttpTimeoutException {
    try {
      if (!permit.tryAcquire(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        throw new HttpTimeoutException("no free connection to " + authority + " within the deadline");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting for a connection to " + authority);
    }
  }

  private HttpRequest request(URI url, String method, byte[] body, Map<String, String> cookies,
      Map<String, String> headers) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(url).timeout(settings.requestTimeout());
    if (body == null) {
      builder.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      builder.method(method, HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json");
    }
    if (!cookies.isEmpty()) {
      StringJoiner cookie = new StringJoiner("; ");
      cookies.forEach((name, value) -> cookie.add(name + "=" + value));
      builder.header("Cookie", cookie.toString());
    }
    headers.forEach(builder::header);
    return builder.build();
  }

  private static void retried(URI url, String reason) {
    // host and port only: the authority would carry a base URL's user info into every scrape
    io.micrometer.core.instrument.Counter.builder("gym4j.client.retries").tag("upstream", url.getHost() + ":" + url.getPort())
        .tag("reason", reason).register(dev.gym4j.server.Metrics.REGISTRY).increment();
  }

  private void pause(int attempt, String retryAfter) {
    long cap = settings.maxBackoff().toMillis();
    long exponential = Math.min(cap, settings.initialBackoff().toMillis() << Math.min(attempt - 1, 20));
    long delay = exponential / 2 + ThreadLocalRandom.current().nextLong(exponential / 2 + 1);
    if (retryAfter != null) {
      try {
        delay = Math.max(delay, Math.min(cap, Long.parseLong(retryAfter.strip()) * 1000));
      } catch (NumberFormatException ignored) {
        // an HTTP date: keep our own backoff
      }
    }
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted during retry backoff");
    }
  }

  /** The headers a caller may act on, kept only on failures (a success's headers are never read). */
  private static Map<String, String> failureHeaders(HttpResponse<?> response) {
    if (response.statusCode() < 400) {
      return Map.of();
    }
    Map<String, String> headers = new LinkedHashMap<>();
    response.headers().map().forEach((name, values) -> {
      if (!values.isEmpty()) {
        headers.put(name.toLowerCase(java.util.Locale.ROOT), values.getFirst());
      }
    });
    return headers;
  }

  private static Map<String, String> cookies(HttpResponse<?> response) {
    List<String> setCookies = response.headers().allValues("Set-Cookie");
    if (setCookies.isEmpty()) {
      return Map.of();
    }
    Map<String, String> cookies = new LinkedHashMap<>();
    for (String header : setCookies) {
      String pair = header.split(";", 2)[0];
      int eq = pair.indexOf('=');
      if (eq > 0) {
        cookies.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
      }
    }
    return cookies;
  }

  /** What went wrong with a connection, in words: these messages reach users and failure rows. */
  public static String describe(Exception e) {
    if (e instanceof HttpConnectTimeoutException) {
      return "no connection within the connect deadline";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e == null || e.getMessage() == null || e.getMessage().isBlank()) {
      return "the connection failed";
    }
    return e.getMessage();
  }

  @Override
  public void close() {
    http.close();
    multiplexer.close();
  }
}
