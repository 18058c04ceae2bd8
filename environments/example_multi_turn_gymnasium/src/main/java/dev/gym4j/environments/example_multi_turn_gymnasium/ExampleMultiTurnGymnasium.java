package dev.gym4j.environments.example_multi_turn_gymnasium;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import dev.gym4j.json.Json;
import dev.gym4j.resources.GymnasiumServer;
import dev.gym4j.resources.Session;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A conversation of several user turns in the Gymnasium style: after each answer the next of the row's
 * {@code follow_ups} is asked; after the last, the answer is right (reward 1) when it contains
 * {@code expected_answer}, ignoring case.
 */
@Implementation("example_multi_turn_gymnasium")
public final class ExampleMultiTurnGymnasium extends GymnasiumServer {
  private static final String TURN = "turn";

  @Override
  protected Reset reset(ObjectNode row, Session session) {
    session.put(TURN, new AtomicInteger());
    return new Reset(null, Json.object());
  }

  @Override
  protected Step step(ObjectNode row, Response response, Session session) {
    int turn = session.computeIfAbsent(TURN, AtomicInteger::new).getAndIncrement();
    JsonNode followUps = row.path("follow_ups");
    if (turn < followUps.size()) {
      // a row is untrusted input: a follow-up that is not text is the caller's error (422), not ours (500)
      if (!followUps.get(turn).isString()) {
        throw new dev.gym4j.json.FieldError(java.util.List.of("follow_ups", turn), "must be a string", "string_type");
      }
      return Step.next(followUps.get(turn).stringValue());
    }
    JsonNode expectedAnswer = row.path("expected_answer");
    if (!expectedAnswer.isMissingNode() && !expectedAnswer.isString()) {
      throw new dev.gym4j.json.FieldError(java.util.List.of("expected_answer"), "must be a string", "string_type");
    }
    String expected = expectedAnswer.asString("").toLowerCase(Locale.ROOT);
    boolean right = text(response).toLowerCase(Locale.ROOT).contains(expected);
    return Step.end(right ? 1.0 : 0.0, Json.object());
  }
}
