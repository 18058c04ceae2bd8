package dev.gym4j.agents;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.Routes;
import tools.jackson.databind.node.ObjectNode;

/**
 * A test environment whose session starts at its first tool call, as a NeMo Gym resources server's does (its
 * session middleware gives any request without a session a new id and sets the cookie: nemo_gym/server_utils.py):
 * {@code POST /add_to_tally} adds {@code count} to the caller's tally and answers the total, so the cookie a
 * tool call sets mid-episode is what the next call needs to continue. {@code /verify} rewards a total equal to
 * the row's {@code expected_total}.
 */
@Implementation("test_tally")
public final class TallyEnvironment extends GymServer {
  private final Map<String, AtomicInteger> tallies = new ConcurrentHashMap<>();

  @Override
  public ServerKind kind() {
    return ServerKind.RESOURCES;
  }

  @Override
  protected void routes(Routes routes) {
    routes.post("/seed_session", call -> Json.object())
        .post("/add_to_tally", call -> Json.object().put("total", tally(call.sessionId())
            .addAndGet(call.bodyObject().path("count").asInt())))
        .post("/verify", call -> {
          ObjectNode verdict = call.bodyObject().deepCopy();
          int total = tally(call.sessionId()).get();
          verdict.put("reward", total == verdict.path("expected_total").asInt(Integer.MIN_VALUE) ? 1.0 : 0.0);
          return verdict.put("total", total);
        });
  }

  private AtomicInteger tally(String sessionId) {
    return tallies.computeIfAbsent(sessionId, id -> new AtomicInteger());
  }
}
