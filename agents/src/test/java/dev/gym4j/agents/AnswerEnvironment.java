package dev.gym4j.agents;

import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.Routes;
import dev.gym4j.wire.Response;
import tools.jackson.databind.node.ObjectNode;

/**
 * A test environment that rewards an answer: {@code /verify} gives 1.0 when the response's text contains the
 * row's {@code expected_answer}, and says how many output items it was sent ({@code verified_items}) and whether
 * the session was seeded ({@code seeded}).
 */
@Implementation("test_answer")
public final class AnswerEnvironment extends GymServer {
  private final java.util.Set<String> seeded = java.util.concurrent.ConcurrentHashMap.newKeySet();

  @Override
  public ServerKind kind() {
    return ServerKind.RESOURCES;
  }

  @Override
  protected void routes(Routes routes) {
    routes.post("/seed_session", call -> {
      seeded.add(call.sessionId());
      return Json.object();
    }).post("/verify", call -> {
      ObjectNode verdict = call.bodyObject().deepCopy();
      Response response = Response.of(verdict.get("response"));
      String expected = verdict.path("expected_answer").asString("\u0000");
      verdict.put("reward", response.outputText().contains(expected) ? 1.0 : 0.0);
      verdict.put("verified_items", response.output().size());
      return verdict.put("seeded", seeded.contains(call.sessionId()));
    });
  }
}
