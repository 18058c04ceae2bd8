package dev.gym4j.resources;

import java.util.List;
import java.util.Optional;

import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Routes;
import dev.gym4j.wire.Response;
import tools.jackson.databind.node.ObjectNode;

/**
 * An environment in the Gymnasium style (NeMo Gym's {@code GymnasiumServer}): {@code POST /reset} starts an
 * episode from a task row and may give a first observation; {@code POST /step} takes the row and the
 * model's latest response and answers with the next observation, the step's reward and whether the episode
 * ended. The {@code gymnasium_agent} drives it and sums the rewards; there is no {@code /verify}.
 *
 * <p>Per-episode state lives in the {@link Session}, which ends with the episode. Only {@code /reset} starts
 * one; {@code /step} without a live session answers 409 (NeMo Gym would step an empty state).
 */
public abstract class GymnasiumServer extends GymServer {
  private SessionStore sessions;

  /** The start of an episode: an optional first observation (a user message) and information. */
  public record Reset(String observation, ObjectNode info) {
    public static Reset of(String observation) {
      return new Reset(observation, Json.object());
    }
  }

  /** One step's outcome. */
  public record Step(String observation, double reward, boolean terminated, boolean truncated, ObjectNode info) {
    /** The episode goes on with a new observation and no reward yet. */
    public static Step next(String observation) {
      return new Step(observation, 0.0, false, false, Json.object());
    }

    /** The episode ends with a reward. */
    public static Step end(double reward, ObjectNode info) {
      return new Step(null, reward, true, false, info);
    }
  }

  @Override
  public final ServerKind kind() {
    return ServerKind.RESOURCES;
  }

  protected abstract Reset reset(ObjectNode row, Session session);

  protected abstract Step step(ObjectNode row, Response response, Session session);

  @Override
  protected final void routes(Routes routes) {
    sessions = ResourcesServer.sessionStore(this, id -> { });
    routes.post("/reset", call -> {
      ObjectNode row = call.bodyObject();
      Reset reset = reset(row, sessions.start(call.sessionId()));
      ObjectNode body = Json.object();
      body.put("observation", reset.observation());
      body.set("info", reset.info());
      return body;
    });
    routes.post("/step", call -> {
      ObjectNode row = call.bodyObject();
      Response response = Response.of(Shape.required(row, "response", List.of()), List.of("response"));
      Optional<Session> session = sessions.find(call.sessionId());
      if (session.isEmpty()) {
        return sessions.noSession(call.sessionId(), "/reset");
      }
      Step step = step(row, response, session.get());
      if (step.terminated() || step.truncated()) {
        sessions.end(call.sessionId());
      }
      ObjectNode body = Json.object();
      body.put("observation", step.observation());
      body.put("reward", step.reward());
      body.put("terminated", step.terminated());
      body.put("truncated", step.truncated());
      body.set("info", step.info());
      return body;
    });
    var metricsLimits = dev.gym4j.metrics.MetricsLimits.of(context());
    routes.post("/aggregate_metrics", call -> metricsLimits.serve(call, dev.gym4j.metrics.AggregateMetrics::ofRequest));
  }

  /** Stops the session sweep; a subclass that overrides this calls {@code super.stop()}. */
  @Override
  protected void stop() {
    if (sessions != null) {
      sessions.close();
    }
  }

  /** The text of a response: all {@code output_text} of its messages, joined. */
  public static String text(Response response) {
    return response.outputTextParts();
  }

  /** Episodes in progress (for tests and metrics). */
  public final int openEpisodes() {
    return sessions == null ? 0 : sessions.size();
  }
}
