package dev.gym4j.sandbox;

import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One {@link PythonRepl} per rollout, keyed by the rollout's session id: started on its first call, ended by
 * {@link #end} (when the environment's session ends, however it ends) or after {@code idle} without a call, whichever
 * comes first. A session that reaches its lifetime limits is killed by the sandbox; its next call starts afresh.
 *
 * <p>When the sandbox has {@code sandbox_max_live_processes} interpreters open, a new one ends the interpreter unused
 * the longest that is not running code, rather than refusing (its rollout's next call starts afresh, its variables
 * gone); only when every open interpreter is running code is the call refused ({@code BUSY}).
 */
public final class PythonSessions implements AutoCloseable {
  private final Sandbox sandbox;
  private final Limits lifetime;
  private final Duration callLimit;
  private final int outputChars;
  private final long idleNanos;
  private final Map<String, Entry> sessions = new ConcurrentHashMap<>();

  /** An interpreter, when it was last used, and how many calls are running in it now. */
  private static final class Entry {
    final PythonRepl repl;
    final AtomicLong lastUsedNanos = new AtomicLong(System.nanoTime());
    final AtomicInteger running = new AtomicInteger();

    Entry(PythonRepl repl) {
      this.repl = repl;
    }
  }

  public PythonSessions(Sandbox sandbox, Limits lifetime, Duration callLimit, int outputChars, Duration idle) {
    this.sandbox = sandbox;
    this.lifetime = lifetime;
    this.callLimit = callLimit;
    this.outputChars = outputChars;
    this.idleNanos = idle.toNanos();
  }

  /** Runs {@code code} in the session's interpreter. */
  public PythonRepl.Reply execute(String sessionId, String code) {
    sweep();
    Entry entry = sessions.get(sessionId);
    if (entry != null && !entry.repl.alive()) {
      // killed at its lifetime limits: closed, so that its slot is free again
      if (sessions.remove(sessionId, entry)) {
        entry.repl.close();
      }
      entry = null;
    }
    if (entry == null) {
      Entry fresh = new Entry(startFreeingIdle(sessionId));
      entry = sessions.putIfAbsent(sessionId, fresh);
      if (entry == null) {
        entry = fresh;
      } else {
        fresh.repl.close();
      }
    }
    entry.running.incrementAndGet();
    try {
      return entry.repl.execute(code);
    } finally {
      entry.lastUsedNanos.set(System.nanoTime());
      entry.running.decrementAndGet();
    }
  }

  /** A new interpreter; when the sandbox is full, the idlest interpreter of another session ends to make room. */
  private PythonRepl startFreeingIdle(String forSession) {
    while (true) {
      try {
        return PythonRepl.start(sandbox, lifetime, callLimit, outputChars);
      } catch (SandboxException e) {
        if (e.kind() != SandboxException.Kind.BUSY || !endIdlest(forSession)) {
          throw e;
        }
      }
    }
  }

  /** Ends the interpreter unused the longest that runs no code (not {@code except}'s); false when there is none. */
  private boolean endIdlest(String except) {
    Optional<Map.Entry<String, Entry>> idlest = sessions.entrySet().stream()
        .filter(e -> !e.getKey().equals(except) && e.getValue().running.get() == 0)
        .min(Comparator.comparingLong(e -> e.getValue().lastUsedNanos.get()));
    if (idlest.isEmpty()) {
      return false;
    }
    Entry entry = idlest.get().getValue();
    // a call that started in it meanwhile keeps it: another one is looked for
    if (entry.running.get() == 0 && sessions.remove(idlest.get().getKey(), entry)) {
      entry.repl.close();
    }
    return true;
  }

  /** Ends the session's interpreter, if it has one. */
  public void end(String sessionId) {
    Entry entry = sessions.remove(sessionId);
    if (entry != null) {
      entry.repl.close();
    }
  }

  public int size() {
    return sessions.size();
  }

  private void sweep() {
    long now = System.nanoTime();
    sessions.forEach((id, entry) -> {
      if (now - entry.lastUsedNanos.get() > idleNanos && entry.running.get() == 0 && sessions.remove(id, entry)) {
        entry.repl.close();
      }
    });
  }

  @Override
  public void close() {
    sessions.keySet().forEach(this::end);
  }
}
