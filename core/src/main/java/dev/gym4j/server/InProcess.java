package dev.gym4j.server;

import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.helidon.webserver.WebServer;

/**
 * Calls between servers of the same JVM without a socket. Every server {@link ServerHost} starts is listed
 * here by port; a client about to call a URL that one of them serves hands the request to that server's
 * {@link Routes} instead, which answers exactly as over HTTP: the host check, 404/405/413/414, the session
 * cookie, the concurrency bound, the caller watch, failures turned into statuses, error bodies redacted,
 * request metrics. The caller gets the status, body, cookies and (on failures) headers an HTTP response
 * would have given it.
 *
 * <p>A JSON body goes as a tree, not bytes, both ways, when {@link dev.gym4j.json.Handover} can copy it: the
 * endpoint reads the tree a parse of its bytes would have given, and the caller gets such a copy of the tree
 * the endpoint answered (a success's; an error body is redacted as bytes, as over HTTP).
 *
 * <p>The endpoint runs on a virtual thread of its own, as it would on the server's, and the caller waits for it
 * within its request deadline: when the deadline passes, or the caller is interrupted, the endpoint is
 * interrupted as a server interrupts the handler of a caller that left ({@link CallerWatch}).
 *
 * <p>Turned off for a client by {@code client_in_process: false}, and for the whole JVM by the system property
 * {@code gym4j.in_process=false} or the environment variable {@code GYM4J_IN_PROCESS=false} (to run a test
 * suite over HTTP).
 */
public final class InProcess {
  /** The servers of this JVM, by port. */
  private static final Map<Integer, Served> SERVED = new ConcurrentHashMap<>();

  private InProcess() {}

  private record Served(String host, WebServer server, Routes routes) {}

  /**
   * A request as a client in this JVM sends it: a body of bytes, or a JSON tree the server now owns ({@code tree},
   * then {@code body} is null); its headers are looked up without case.
   */
  record Request(String method, String path, String authority, byte[] body, tools.jackson.databind.JsonNode tree,
      Map<String, String> cookies, Map<String, String> headers) implements Incoming {
    @Override
    public Optional<String> header(String name) {
      if (tree != null && name.equalsIgnoreCase("Content-Length")) {
        // the tree writes the very bytes the client's would have: their length, counted only when asked
        return Optional.of(String.valueOf(dev.gym4j.json.Json.writeBytes(tree).length));
      }
      return Optional.ofNullable(headers.get(name));
    }

    @Override
    public String protocolVersion() {
      return "1.1";
    }
  }

  /**
   * What the caller gets back.
   *
   * @param body the body's bytes, or null when the answer is {@code tree}
   * @param tree the JSON tree answered, which the caller now owns; null for a body of bytes
   * @param headers every response header the server set, by lower-case name
   */
  public record Answered(int status, byte[] body, tools.jackson.databind.JsonNode tree, Map<String, String> cookies,
      Map<String, String> headers) {}

  /** Whether hops in process are forced off for this JVM ({@code gym4j.in_process} or {@code GYM4J_IN_PROCESS}). */
  public static boolean forcedOff() {
    String value = System.getProperty("gym4j.in_process", System.getenv("GYM4J_IN_PROCESS"));
    return value != null && switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "false", "off", "0", "no" -> true;
      default -> false;
    };
  }

  static void register(String host, WebServer server, Routes routes) {
    SERVED.put(server.port(), new Served(host, server, routes));
  }

  /**
   * The server of this JVM that a URL reaches, if any: an {@code http} URL without user info whose port a
   * running server of this JVM listens on, naming the host it is bound to, or a loopback name or address when
   * it is bound to loopback or to every address. Names are compared as text and never resolved.
   */
  public static Optional<Target> find(URI url) {
    if (!"http".equalsIgnoreCase(url.getScheme()) || url.getRawUserInfo() != null || url.getHost() == null
        || url.getRawQuery() != null || url.getRawFragment() != null) {
      return Optional.empty();
    }
    Served served = SERVED.get(url.getPort() < 0 ? 80 : url.getPort());
    if (served == null) {
      return Optional.empty();
    }
    if (!served.server().isRunning()) {
      SERVED.remove(served.server().port(), served);
      return Optional.empty();
    }
    String host = bare(url.getHost().toLowerCase(Locale.ROOT));
    String bound = bare(served.host().toLowerCase(Locale.ROOT));
    boolean wildcard = bound.equals("0.0.0.0") || bound.equals("::") || bound.equals("0:0:0:0:0:0:0:0");
    boolean reaches = host.equals(bound)
        || HostCheck.isLoopback(host) && (HostCheck.isLoopback(bound) || wildcard);
    return reaches ? Optional.of(new Target(served.routes(), url)) : Optional.empty();
  }

  private static String bare(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  /** A server of this JVM and the URL a client meant to call on it. */
  public static final class Target {
    private final Routes routes;
    private final URI url;

    private Target(Routes routes, URI url) {
      this.routes = routes;
      this.url = url;
    }

    /** The largest request body the server reads; a larger one is its 413. */
    public long maxBodyBytes() {
      return routes.maxBodyBytes();
    }

    /**
     * Sends a request and waits for the answer within {@code timeout}. The headers are those the HTTP client
     * would send: {@code Host}, and {@code Content-Type}/{@code Content-Length} with a body, then the caller's.
     * The body is {@code body}'s bytes, or {@code tree}, which the server then owns (see {@link
     * dev.gym4j.json.Handover}).
     *
     * @throws HttpTimeoutException when no answer came within the deadline (the endpoint is interrupted)
     * @throws CancellationException when the caller was interrupted (so is the endpoint)
     */
    public Answered send(String method, byte[] body, tools.jackson.databind.JsonNode tree,
        Map<String, String> cookies, Map<String, String> headers, Duration timeout) throws HttpTimeoutException {
      Map<String, String> named = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      named.put("Host", url.getRawAuthority());
      if (body != null) {
        named.put("Content-Type", "application/json");
        named.put("Content-Length", String.valueOf(body.length));
      } else if (tree != null) {
        named.put("Content-Type", "application/json");
      }
      named.putAll(headers);
      String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
      Request request = new Request(method, path, url.getRawAuthority(), body, tree,
          java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(cookies)), named);
      CompletableFuture<Answered> answer = new CompletableFuture<>();
      CallerWatch[] watched = new CallerWatch[1];
      Thread handler = Thread.ofVirtual().unstarted(() -> {
        try {
          answer.complete(routes.serve(request, watched[0]));
        } catch (Throwable e) {
          answer.completeExceptionally(e);
        }
      });
      CallerWatch watch = CallerWatch.inProcess(handler);
      // set before the thread starts, which publishes it to that thread
      watched[0] = watch;
      handler.start();
      try {
        Answered answered = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (answered == null) {
          throw new IllegalStateException("the endpoint dropped a caller that had not left");
        }
        return answered;
      } catch (TimeoutException e) {
        watch.leave();
        throw new HttpTimeoutException("request timed out");
      } catch (InterruptedException e) {
        watch.leave();
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted while calling " + url);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
      }
    }
  }
}
