package dev.gym4j.resources;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.gym4j.server.Metrics;
import io.micrometer.core.instrument.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live sessions of one environment, bounded in number and in time. Only {@link #start} creates a
 * session ({@code seed_session}, {@code reset}); every other route finds one or does without. A session
 * ends at {@code verify} (or a final {@code step}); one a failed rollout left behind is dropped once it has
 * been idle for the time to live, by a sweep on a timer; and when {@code max_sessions} are live, starting
 * one more evicts the one idle the longest. Evictions are counted in {@value #EVICTED_METRIC}, tagged with
 * the server and the reason ({@code capacity} or {@code expired}); {@value #LIVE_METRIC} is the number live.
 *
 * <p>The store remembers the ids of the last {@code max_sessions} ended sessions and why they ended, so
 * that a late call on one is refused with the reason. However a session ends (verified, closed, expired, evicted,
 * replaced by a new seed of the same id, or the store closed), its listener hears of it once, after the store's
 * lock is released: what the environment holds for the session outside it (an interpreter process) ends too.
 * Thread-safe; {@link #close} stops its sweep.
 */
final class SessionStore implements AutoCloseable {
  static final String EVICTED_METRIC = "gym4j.sessions.evicted";
  static final String LIVE_METRIC = "gym4j.sessions.live";
  /** Live sessions per server unless the instance sets {@code max_sessions}. */
  static final int DEFAULT_MAX_SESSIONS = 10_000;

  private static final Logger LOG = LoggerFactory.getLogger(SessionStore.class);
  private static final ScheduledExecutorService SWEEPER = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().name("gym4j-session-sweeper").daemon().factory());
  private static final Duration WARN_EVERY = Duration.ofMinutes(1);

  /** Why a session is no longer live. */
  enum Ended {
    VERIFIED("it was verified or its episode ended"),
    EXPIRED("it was idle longer than session_ttl_seconds"),
    EVICTED("more than max_sessions were live and it was idle the longest");

    final String reason;

    Ended(String reason) {
      this.reason = reason;
    }
  }

  private final String server;
  private final long ttlNanos;
  private final int capacity;
  /** In access order: the first entry is the session idle the longest. */
  private final LinkedHashMap<String, Session> live = new LinkedHashMap<>(16, 0.75f, true);
  private final LinkedHashMap<String, Ended> ended = new LinkedHashMap<>();
  private final AtomicInteger liveGauge;
  private final Counter evictedForCapacity;
  private final Counter expired;
  private final AtomicLong lastWarningNanos = new AtomicLong(System.nanoTime() - WARN_EVERY.toNanos());
  private final ScheduledFuture<?> sweep;
  private final java.util.function.Consumer<String> onEnd;

  SessionStore(String server, Duration ttl, int capacity) {
    this(server, ttl, capacity, id -> { });
  }

  /** @param onEnd told the id of every session that ended, once, outside the store's lock; never throws */
  SessionStore(String server, Duration ttl, int capacity, java.util.function.Consumer<String> onEnd) {
    if (capacity < 1 || ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("max_sessions and session_ttl_seconds must be positive");
    }
    this.server = server;
    this.ttlNanos = ttl.toNanos();
    this.capacity = capacity;
    this.onEnd = onEnd;
    this.liveGauge = Metrics.gauge(LIVE_METRIC, server);
    this.evictedForCapacity = Counter.builder(EVICTED_METRIC).tag("server", server).tag("reason", "capacity")
        .register(Metrics.REGISTRY);
    this.expired = Counter.builder(EVICTED_METRIC).tag("server", server).tag("reason", "expired")
        .register(Metrics.REGISTRY);
    long period = Math.clamp(ttl.toMillis() / 4, 10, 60_000);
    // weakly held: a server dropped without close() does not stay reachable through the timer
    WeakReference<SessionStore> self = new WeakReference<>(this);
    this.sweep = SWEEPER.scheduleWithFixedDelay(() -> {
      SessionStore store = self.get();
      if (store != null) {
        store.sweep();
      }
    }, period, period, TimeUnit.MILLISECONDS);
  }

  /** A new, empty session under this id, replacing any live one; the idlest is evicted past the cap. */
  Session start(String id) {
    java.util.List<String> gone = new java.util.ArrayList<>(1);
    Session session;
    synchronized (this) {
      ended.remove(id);
      if (live.put(id, new Session(id)) != null) {
        gone.add(id);
      }
      while (live.size() > capacity) {
        Iterator<Map.Entry<String, Session>> idlest = live.entrySet().iterator();
        String evicted = idlest.next().getKey();
        idlest.remove();
        remember(evicted, Ended.EVICTED);
        evictedForCapacity.increment();
        warnOfEviction();
        gone.add(evicted);
      }
      liveGauge.set(live.size());
      session = live.get(id);
    }
    // the replaced session's resources end before the new one can make any
    gone.forEach(this::notifyEnded);
    return session;
  }

  /** The live session of this id, marked as used now. */
  Optional<Session> find(String id) {
    synchronized (this) {
      Session session = live.get(id);
      if (session != null && session.idleNanos() <= ttlNanos) {
        session.touch();
        return Optional.of(session);
      }
      if (session == null) {
        return Optional.empty();
      }
      expire(id);
    }
    notifyEnded(id);
    return Optional.empty();
  }

  /** Why a session of this id is not live, if it was live not long ago. */
  synchronized Optional<Ended> ended(String id) {
    return Optional.ofNullable(ended.get(id));
  }

  /** Ends a session (verified, closed, or its episode is over); nothing when it is not live. */
  void end(String id) {
    synchronized (this) {
      if (live.remove(id) == null) {
        return;
      }
      remember(id, Ended.VERIFIED);
      liveGauge.set(live.size());
    }
    notifyEnded(id);
  }

  private void notifyEnded(String id) {
    try {
      onEnd.accept(id);
    } catch (RuntimeException e) {
      LOG.warn("{}: ending the resources of a session failed", server, e);
    }
  }

  /**
   * The answer to a call that needs a live session and has none: 409, saying why and what starts one.
   * Nothing is created, so calls without a session cost no memory.
   */
  dev.gym4j.server.Reply noSession(String id, String start) {
    String why = ended(id).map(e -> "this rollout's session has ended: " + e.reason)
        .orElse("the request carries no live session of this server");
    return dev.gym4j.server.Reply.of(409, dev.gym4j.server.ErrorBodies.detail(why + "; a session starts with POST "
        + start + ", whose session cookie the following calls must carry"));
  }

  synchronized int size() {
    return live.size();
  }

  /** Drops every session idle past the time to live; the idlest come first, so it stops at the first fresh one. */
  void sweep() {
    java.util.List<String> gone = new java.util.ArrayList<>();
    synchronized (this) {
      Iterator<Map.Entry<String, Session>> sessions = live.entrySet().iterator();
      while (sessions.hasNext()) {
        Map.Entry<String, Session> idlest = sessions.next();
        if (idlest.getValue().idleNanos() <= ttlNanos) {
          break;
        }
        sessions.remove();
        remember(idlest.getKey(), Ended.EXPIRED);
        expired.increment();
        gone.add(idlest.getKey());
      }
      liveGauge.set(live.size());
    }
    gone.forEach(this::notifyEnded);
  }

  private void expire(String id) {
    live.remove(id);
    remember(id, Ended.EXPIRED);
    expired.increment();
    liveGauge.set(live.size());
  }

  private void remember(String id, Ended why) {
    ended.put(id, why);
    if (ended.size() > capacity) {
      Iterator<String> oldest = ended.keySet().iterator();
      oldest.next();
      oldest.remove();
    }
  }

  private void warnOfEviction() {
    long now = System.nanoTime();
    long last = lastWarningNanos.get();
    if (now - last >= WARN_EVERY.toNanos() && lastWarningNanos.compareAndSet(last, now)) {
      LOG.warn("{}: {} sessions are live, so the one idle the longest was evicted (its rollout will fail); raise "
          + "max_sessions if that many rollouts are really in flight", server, capacity);
    }
  }

  @Override
  public void close() {
    sweep.cancel(false);
    java.util.List<String> gone;
    synchronized (this) {
      gone = java.util.List.copyOf(live.keySet());
      live.clear();
      ended.clear();
      liveGauge.set(0);
    }
    gone.forEach(this::notifyEnded);
  }
}
