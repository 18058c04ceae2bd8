package dev.gym4j.sandbox;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link PythonRepl} per rollout, keyed by the rollout's session id: started on its first call, ended by
 * {@link #end} (at verify) or after {@code idle} without a call, whichever comes first. A session that reaches its
 * lifetime limits is killed by the sandbox; its next call starts afresh.
 */
public final class PythonSessions implements AutoCloseable {
  private final Sandbox sandbox;
  private final Limits lifetime;
  private final Duration callLimit;
  private final int outputChars;
  private final long idleNanos;
  private final Map<String, Entry> sessions = new ConcurrentHashMap<>();

  private record Entry(PythonRepl repl, long lastUsedNanos) {}

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
    Entry entry = sessions.compute(sessionId, (id, old) -> {
      PythonRepl repl = old != null && old.repl().alive() ? old.repl()
          : PythonRepl.start(sandbox, lifetime, callLimit, outputChars);
      return new Entry(repl, System.nanoTime());
    });
    return entry.repl().execute(code);
  }

  /** Ends the session's interpreter, if it has one. */
  public void end(String sessionId) {
    Entry entry = sessions.remove(sessionId);
    if (entry != null) {
      entry.repl().close();
    }
  }

  public int size() {
    return sessions.size();
  }

  private void sweep() {
    long now = System.nanoTime();
    sessions.forEach((id, entry) -> {
      if (now - entry.lastUsedNanos() > idleNanos && sessions.remove(id, entry)) {
        entry.repl().close();
      }
    });
  }

  @Override
  public void close() {
    sessions.keySet().forEach(this::end);
  }
}
