package dev.gym4j.resources;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The state of one rollout on an environment, from {@code seed_session} to {@code verify}. It is found by
 * the session cookie the agent threads through every call of that rollout.
 */
public final class Session {
  private final String id;
  private final Map<String, Object> values = new ConcurrentHashMap<>();
  private volatile long lastUsedNanos = System.nanoTime();

  Session(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public <T> Optional<T> get(String key, Class<T> type) {
    return Optional.ofNullable(values.get(key)).map(type::cast);
  }

  public void put(String key, Object value) {
    values.put(key, value);
  }

  @SuppressWarnings("unchecked")
  public <T> T computeIfAbsent(String key, Supplier<T> initial) {
    return (T) values.computeIfAbsent(key, k -> initial.get());
  }

  void touch() {
    lastUsedNanos = System.nanoTime();
  }

  long idleNanos() {
    return System.nanoTime() - lastUsedNanos;
  }
}
