package dev.gym4j.environments.example_session_state_mgmt;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.gym4j.json.Shape;
import dev.gym4j.resources.Description;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A counter kept per rollout: {@code seed_session} sets it to the row's {@code initial_count}, the model
 * adds to it and reads it with tools, and the rollout is right when the counter ends at
 * {@code expected_count}. It shows how an environment keeps state across the tool calls of one rollout.
 */
@Implementation("example_session_state_mgmt")
public final class ExampleSessionStateMgmt extends ResourcesServer {
  private static final String COUNTER = "counter";

  public record Increment(@Description("How much to add") long count) {}

  public record Nothing() {}

  public record Success(boolean success) {}

  public record CounterValue(long count) {}

  @Override
  protected void seedSession(ObjectNode row, Session session) {
    session.put(COUNTER, new AtomicLong(row.path("initial_count").asLong(0)));
  }

  @Tool(description = "Add a number to the counter.")
  public Success incrementCounter(Increment increment, Session session) {
    counter(session).addAndGet(increment.count());
    return new Success(true);
  }

  @Tool(description = "Read the counter.")
  public CounterValue getCounterValue(Nothing nothing, Session session) {
    return new CounterValue(counter(session).get());
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    var counter = session.get(COUNTER, AtomicLong.class);
    JsonNode expected = request.field("expected_count");
    // a count past a long's range is a 422 naming the field, as a tool argument's is; NeMo Gym's int takes it
    Long wanted = expected.isNumber() ? Shape.longValue(expected, List.of("expected_count")) : null;
    boolean right = counter.isPresent() && wanted != null && counter.get().get() == wanted;
    return Verification.of(right ? 1.0 : 0.0);
  }

  private static AtomicLong counter(Session session) {
    return session.computeIfAbsent(COUNTER, AtomicLong::new);
  }
}
