package dev.gym4j.agents;

import java.util.Locale;

import dev.gym4j.json.Json;
import dev.gym4j.resources.GymnasiumServer;
import dev.gym4j.resources.Session;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Response;
import tools.jackson.databind.node.ObjectNode;

/** A one-question Gymnasium environment for tests: reward 1 when the answer contains the row's expected_answer. */
@Implementation("test_echo_gymnasium")
public final class EchoGymnasium extends GymnasiumServer {
  @Override
  protected Reset reset(ObjectNode row, Session session) {
    return Reset.of("Say the word.");
  }

  @Override
  protected Step step(ObjectNode row, Response response, Session session) {
    String expected = row.path("expected_answer").asString("").toLowerCase(Locale.ROOT);
    boolean right = !expected.isEmpty() && text(response).toLowerCase(Locale.ROOT).contains(expected);
    return Step.end(right ? 1.0 : 0.0, Json.object());
  }
}
