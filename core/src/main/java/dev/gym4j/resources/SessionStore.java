package dev.gym4j.resources;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live sessions of one environment. A session ends at {@code verify}; one that a failed rollout left
 * behind is dropped after it has been idle for the time to live, so memory stays bounded.
 */
final class SessionStore {
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final long ttlNanos;
  private final AtomicLong nextSweep = new AtomicLong(System.nanoTime());

  SessionStore(Duration ttl) {
    this.ttlNanos = ttl.toNanos();
  }

  Session open(String id) {
    sweepIfDue();
    Session session = sessions.computeIfAbsent(id, Session::new);
    session.touch();
    return session;
  }

  void close(String id) {
    sessions.remove(id);
  }

  int size() {
    return sessions.size();
  }

  private void sweepIfDue() {
    long now = System.nanoTime();
    long due = nextSweep.get();
    if (now - due >= 0 && nextSweep.compareAndSet(due, now + Math.max(ttlNanos / 10, 1))) {
      sessions.values().removeIf(session -> session.idleNanos() > ttlNanos);
    }
  }
}
