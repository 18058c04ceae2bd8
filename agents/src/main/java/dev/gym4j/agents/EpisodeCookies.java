package dev.gym4j.agents;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

import dev.gym4j.config.ConfigException;
import dev.gym4j.server.Call;
import dev.gym4j.server.GymServer;

/**
 * The cookies an agent's episodes ended with when their answer could not carry them (a stream's headers leave
 * before the episode runs), kept by the agent's own session id so that the caller's next request continues the
 * same environment and model sessions. A later request's own cookies win over the kept ones.
 *
 * <p>Bounded: at most {@code max_sessions} entries (default 10,000; past it the entry used the longest ago goes)
 * and each for {@code session_ttl_seconds} since it was last used (default one hour). Expired entries are dropped
 * as the store is used, so it needs no timer. Only ids from the agent's signed session cookie key it, so a
 * client can reach only the entry of a session the agent gave it. Thread-safe.
 */
final class EpisodeCookies {
  static final int DEFAULT_MAX_SESSIONS = 10_000;
  static final Duration DEFAULT_TTL = Duration.ofHours(1);

  private record Entry(Map<String, String> cookies, long usedNanos) {}

  /** The agent's own session cookie: the caller holds it already, so it is never kept or announced. */
  private final String ownCookie;
  private final int capacity;
  private final long ttlNanos;
  private final LongSupplier clock;
  /** In order of last use: the first entry is the one used the longest ago. */
  private final LinkedHashMap<String, Entry> kept = new LinkedHashMap<>(16, 0.75f, true);

  EpisodeCookies(String ownCookie, int capacity, Duration ttl, LongSupplier clock) {
    if (capacity < 1 || ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("the capacity and the time to live must be positive");
    }
    this.ownCookie = ownCookie;
    this.capacity = capacity;
    this.ttlNanos = ttl.toNanos();
    this.clock = clock;
  }

  /** The store an agent's config asks for: {@code max_sessions} and {@code session_ttl_seconds}. */
  static EpisodeCookies of(GymServer agent) {
    var context = agent.context();
    double ttl = context.config().path("session_ttl_seconds").asDouble(DEFAULT_TTL.toSeconds());
    int max = context.config().path("max_sessions").asInt(DEFAULT_MAX_SESSIONS);
    if (!(ttl >= 0.001) || max <= 0) {
      throw new ConfigException(context.path(ttl >= 0.001 ? "max_sessions" : "session_ttl_seconds")
          + " must be a positive number");
    }
    return new EpisodeCookies(agent.sessionCookieName(), max, Duration.ofMillis((long) Math.min(ttl * 1000,
        Long.MAX_VALUE)), System::nanoTime);
  }

  /**
   * The cookies an episode for this call starts with: the call's own over those kept for its session. Only a
   * session the agent signed has any kept; a forged or absent agent cookie gets the call's cookies alone.
   */
  Map<String, String> startingWith(Call call) {
    return call.carriesSession() ? under(call.sessionId(), call.cookies()) : new LinkedHashMap<>(call.cookies());
  }

  /**
   * After an episode for this call: the cookies it ended with that the caller does not hold (what a streamed
   * answer announces). They are kept for the call's session when the answer cannot set them ({@code
   * streamed}); otherwise they replace what the session had kept, if anything, so that the store never holds
   * an older episode's cookies than the caller.
   */
  Map<String, String> ended(Call call, Map<String, String> finalCookies, boolean streamed) {
    Map<String, String> held = call.cookies();
    Map<String, String> unheld = new LinkedHashMap<>();
    finalCookies.forEach((name, value) -> {
      if (!name.equals(ownCookie) && !value.equals(held.get(name))) {
        unheld.put(name, value);
      }
    });
    if (streamed) {
      keep(call.sessionId(), unheld);
    } else {
      replaceIfKept(call.sessionId(), unheld);
    }
    return unheld;
  }

  /**
   * Whether the call is answered with a stream whose headers leave before the episode ends: an Anthropic
   * Messages call with {@code "stream": true} ({@code /v1/responses} streams are told apart by their route's
   * handler).
   */
  static boolean streamedMessages(Call call) {
    return call.path().equals("/v1/messages") && call.bodyObject().path("stream").asBoolean(false);
  }

  /** Keeps the cookies a session's episode ended with, replacing what it kept before. */
  synchronized void keep(String sessionId, Map<String, String> cookies) {
    long now = clock.getAsLong();
    dropExpired(now);
    kept.put(sessionId, new Entry(Map.copyOf(cookies), now));
    while (kept.size() > capacity) {
      Iterator<String> oldest = kept.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
  }

  /** As {@link #keep}, only for a session that has cookies kept (a later unstreamed episode of it). */
  synchronized void replaceIfKept(String sessionId, Map<String, String> cookies) {
    if (kept.containsKey(sessionId)) {
      keep(sessionId, cookies);
    }
  }

  /** The cookies kept for the session with {@code explicit} over them; {@code explicit} alone when none are. */
  synchronized Map<String, String> under(String sessionId, Map<String, String> explicit) {
    long now = clock.getAsLong();
    dropExpired(now);
    Entry entry = kept.get(sessionId);
    if (entry == null) {
      return new LinkedHashMap<>(explicit);
    }
    kept.put(sessionId, new Entry(entry.cookies(), now));
    Map<String, String> merged = new LinkedHashMap<>(entry.cookies());
    merged.putAll(explicit);
    return merged;
  }

  synchronized int size() {
    return kept.size();
  }

  /** The least recently used come first, so the sweep stops at the first entry still fresh. */
  private void dropExpired(long now) {
    Iterator<Entry> entries = kept.values().iterator();
    while (entries.hasNext()) {
      if (now - entries.next().usedNanos() <= ttlNanos) {
        return;
      }
      entries.remove();
    }
  }
}
