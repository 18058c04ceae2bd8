package dev.gym4j.testing;

import java.util.concurrent.atomic.AtomicInteger;

import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.node.ObjectNode;

/** A test environment with per-rollout state: a counter seeded from the row, and a tool that fails. */
@Implementation("test_counter")
public final class CounterEnvironment extends ResourcesServer {
  public record Increment(int count) {}

  public record Nothing() {}

  public record CounterValue(int count) {}

  /** The ids of the sessions that ended, in order (see {@link #sessionEnded}). */
  public final java.util.List<String> ended = new java.util.concurrent.CopyOnWriteArrayList<>();

  @Override
  protected void sessionEnded(String sessionId) {
    ended.add(sessionId);
  }

  @Override
  protected void seedSession(ObjectNode row, Session session) {
    session.put("count", new AtomicInteger(row.path("initial_count").asInt(0)));
  }

  @Tool(description = "Add to the counter.")
  public CounterValue incrementCounter(Increment increment, Session session) {
    return new CounterValue(counter(session).addAndGet(increment.count()));
  }

  @Tool(description = "Read the counter.")
  public CounterValue getCounterValue(Nothing nothing, Session session) {
    return new CounterValue(counter(session).get());
  }

  @Tool(description = "Always fails.")
  public CounterValue explode(Nothing nothing) {
    throw new IllegalStateException("the tool broke");
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    int count = counter(session).get();
    boolean right = count == request.field("expected_count").asInt(Integer.MIN_VALUE);
    return Verification.of(right ? 1.0 : 0.0).with("final_count", count);
  }

  private static AtomicInteger counter(Session session) {
    return session.computeIfAbsent("count", () -> new AtomicInteger());
  }
}
