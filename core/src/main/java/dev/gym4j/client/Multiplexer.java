package dev.gym4j.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends requests as HTTP/2 streams over a few cleartext (h2c) connections per upstream.
 *
 * <p>The JDK client upgrades to h2c only on a request without a body, and a POST sent while it holds no
 * HTTP/2 connection to the upstream goes out on an HTTP/1.1 socket of its own: with thousands of requests at
 * once, thousands of sockets. So no request goes out on a lane (one client, one connection per upstream)
 * until a {@code GET /} has upgraded it. The GET is sent again when a request on the lane failed or came back
 * on HTTP/1.1, and before the next request once the lane has had nothing in flight for half a second: the
 * JDK may have closed the connection as idle, or the server (restarting, say) may have. On a live connection
 * the GET is one more stream, a fraction of a millisecond; on a closed one it upgrades a new connection. An
 * upstream that answers the upgrade on HTTP/1.1 does not speak h2c and is handed back to the caller for
 * plain HTTP/1.1.
 */
final class Multiplexer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Multiplexer.class);
  /**
   * Connections per upstream. One carries tens of thousands of streams; a few spread the framing work and
   * keep one slow reader from holding up every request.
   */
  static final int LANES = 16;
  /** Quiet time after which a lane is checked before its next request. */
  private static final Duration RECHECK_AFTER = Duration.ofMillis(500);

  private final HttpClient[] clients = new HttpClient[LANES];
  /** Per upstream authority, one link per lane. */
  private final Map<String, Link[]> links = new ConcurrentHashMap<>();
  private final Set<String> authorities = ConcurrentHashMap.newKeySet();
  /** Upstreams that answered an upgrade on HTTP/1.1: they are not asked again. */
  private final Set<String> plain = ConcurrentHashMap.newKeySet();
  private final AtomicInteger next = new AtomicInteger();
  private final Duration deadline;
  private final long idleNanos;

  /**
   * @param deadline the longest wait for an upgrade, one's own or another caller's
   * @param idleTimeout how long the JDK keeps an idle HTTP/2 connection open
   */
  Multiplexer(Duration connectTimeout, Duration deadline, Duration idleTimeout) {
    this.deadline = deadline;
    // and in any case well before the JDK's idle timer could have closed the connection
    this.idleNanos = Math.min(RECHECK_AFTER.toNanos(), idleTimeout.toNanos() / 2);
    for (int i = 0; i < LANES; i++) {
      clients[i] = HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_2)
          .connectTimeout(connectTimeout)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
    }
  }

  /** The JDK's idle timeout for HTTP/2 connections, read as the JDK reads it (default 30 s). */
  static Duration jdkIdleTimeout() {
    long keepAlive = Long.getLong("jdk.httpclient.keepalive.timeout", 30);
    return Duration.ofSeconds(Long.getLong("jdk.httpclient.keepalive.timeout.h2", keepAlive));
  }

  void add(URI upstream) {
    if (!plain.contains(upstream.getAuthority())) {
      authorities.add(upstream.getAuthority());
    }
  }

  boolean carries(String authority) {
    return authorities.contains(authority);
  }

  /**
   * Sends on the next lane; {@code null} when the upstream turned out not to speak h2c (it is then no
   * longer carried, and the caller sends on HTTP/1.1). An {@link IOException} may come from the upgrade.
   */
  HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
    int lane = Math.floorMod(next.getAndIncrement(), LANES);
    URI url = request.uri();
    Link link = links.computeIfAbsent(url.getAuthority(), key -> newLinks())[lane];
    if (!link.ready(clients[lane], url)) {
      plain.add(url.getAuthority());
      if (authorities.remove(url.getAuthority())) {
        LOG.info("{} does not speak h2c: calls to it stay on HTTP/1.1", url.getAuthority());
      }
      return null;
    }
    link.inFlight.incrementAndGet();
    try {
      HttpResponse<byte[]> response = clients[lane].send(request,
          BoundedAnswer.handler(ServerClient.MAX_ANSWER_BYTES));
      if (response.version() != HttpClient.Version.HTTP_2) {
        // the connection was closed (by the server, say) after the check: upgrade before the next request
        LOG.debug("lane {} to {} answered on {}: upgrading again", lane, url.getAuthority(), response.version());
        link.stale();
      }
      return response;
    } catch (IOException e) {
      LOG.debug("lane {} to {} failed ({}): upgrading again", lane, url.getAuthority(), e.toString());
      link.stale();
      throw e;
    } finally {
      if (link.inFlight.decrementAndGet() == 0) {
        link.idleSince = System.nanoTime();
      }
    }
  }

  private Link[] newLinks() {
    Link[] lanes = new Link[LANES];
    for (int i = 0; i < LANES; i++) {
      lanes[i] = new Link();
    }
    return lanes;
  }

  /** One lane's connection to one upstream. */
  private final class Link {
    /** The last upgrade: true when it reached HTTP/2, false when the upstream answered on HTTP/1.1. */
    private final AtomicReference<CompletableFuture<Boolean>> upgrade = new AtomicReference<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long idleSince = System.nanoTime();

    /** Upgrades the connection unless it is known open; false when the upstream does not speak h2c. */
    boolean ready(HttpClient client, URI url) throws IOException, InterruptedException {
      while (true) {
        CompletableFuture<Boolean> current = upgrade.get();
        if (current != null && !current.isDone()) {
          // another caller is upgrading: a request sent now would open an HTTP/1.1 socket of its own; once
          // it is done, look again, since a busy scheduler may wake this caller long after
          if (!await(current, url)) {
            return false;
          }
          continue;
        }
        if (current != null && current.isDone() && !current.isCompletedExceptionally() && !idledOut()) {
          return current.join();
        }
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        if (upgrade.compareAndSet(current, mine)) {
          LOG.debug("upgrading a lane to {} ({})", url.getAuthority(), current == null ? "first or stale"
              : current.isCompletedExceptionally() ? "the last upgrade failed" : "idle");
          return upgradeNow(client, url, mine);
        }
      }
    }

    private boolean upgradeNow(HttpClient client, URI url, CompletableFuture<Boolean> mine)
        throws IOException, InterruptedException {
      try {
        HttpResponse<Void> response = client.send(HttpRequest.newBuilder(url.resolve("/")).timeout(deadline).GET()
            .build(), HttpResponse.BodyHandlers.discarding());
        boolean http2 = response.version() == HttpClient.Version.HTTP_2;
        // the JDK's idle timer starts now, with no stream open
        idleSince = System.nanoTime();
        mine.complete(http2);
        return http2;
      } catch (IOException | InterruptedException | RuntimeException e) {
        // the waiters fail with this too; the next request after them starts a new upgrade
        mine.completeExceptionally(e);
        throw e;
      }
    }

    private boolean await(CompletableFuture<Boolean> upgrade, URI url) throws IOException, InterruptedException {
      try {
        return upgrade.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException io ? io
            : new IOException("h2c upgrade with " + url.getAuthority() + " failed", e.getCause());
      } catch (TimeoutException e) {
        throw new HttpTimeoutException("h2c upgrade with " + url.getAuthority() + " took longer than "
            + deadline.toSeconds() + " s");
      }
    }

    private boolean idledOut() {
      return inFlight.get() == 0 && System.nanoTime() - idleSince > idleNanos;
    }

    void stale() {
      CompletableFuture<Boolean> current = upgrade.get();
      if (current != null && current.isDone()) {
        upgrade.compareAndSet(current, null);
      }
    }
  }

  @Override
  public void close() {
    for (HttpClient client : clients) {
      client.close();
    }
  }
}
