package dev.gym4j.resources;

import java.time.Duration;
import java.util.List;

import dev.gym4j.config.ServerKind;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Routes;
import tools.jackson.databind.node.ObjectNode;

/**
 * An environment: the tools a model may call, per-rollout {@link Session} state, and {@code verify}, which
 * turns a finished rollout into a reward.
 *
 * <p>Endpoints: {@code POST /seed_session} (opens the rollout's session), {@code POST /<tool>} for every
 * {@link Tool} method, and {@code POST /verify}, which answers with the request echoed plus {@code reward}
 * and the verifier's extra fields, then ends the session.
 */
public abstract class ResourcesServer extends GymServer {
  /** Idle sessions are dropped after this unless the instance sets {@code session_ttl_seconds}. */
  public static final Duration DEFAULT_SESSION_TTL = Duration.ofHours(1);

  private SessionStore sessions;

  @Override
  public final ServerKind kind() {
    return ServerKind.RESOURCES;
  }

  /** Prepares a new rollout's session from its task row; the default keeps nothing. */
  protected void seedSession(ObjectNode row, Session session) {}

  /** Scores a finished rollout. */
  protected abstract Verification verify(VerifyRequest request, Session session);

  @Override
  protected final void routes(Routes routes) {
    long ttl = context().config().path("session_ttl_seconds").asLong(DEFAULT_SESSION_TTL.toSeconds());
    sessions = new SessionStore(Duration.ofSeconds(ttl));
    routes.post("/seed_session", call -> {
      seedSession(call.bodyObject(), sessions.open(call.sessionId()));
      return dev.gym4j.json.Json.object();
    });
    routes.post("/verify", call -> {
      VerifyRequest request = VerifyRequest.of(call.body());
      Verification verification = verify(request, sessions.open(call.sessionId()));
      sessions.close(call.sessionId());
      ObjectNode response = request.json().deepCopy();
      response.put("reward", verification.reward());
      response.setAll(verification.extra());
      return response;
    });
    // the tools as Responses API function tools, with schemas generated from their argument records
    routes.get("/tools", call -> {
      var tools = dev.gym4j.json.Json.array();
      tools().forEach(tool -> tools.add(ToolSchemas.functionTool(tool)));
      return tools;
    });
    routes.post("/aggregate_metrics", call -> aggregateMetrics(call.bodyObject()));
    for (ToolMethod tool : tools()) {
      routes.post("/" + tool.name(), call -> tool.invoke(this, call.body(), sessions.open(call.sessionId())));
    }
  }

  /**
   * The answer to {@code POST /aggregate_metrics} ({@code {"verify_responses": [...]}}): by default the
   * standard statistics and pass@k; an environment may add its own metrics to them.
   */
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    return dev.gym4j.metrics.AggregateMetrics.ofRequest(request);
  }

  /** The tools of this environment. */
  public final List<ToolMethod> tools() {
    return ToolMethod.of(getClass());
  }

  /** How many rollouts have a live session (for tests and metrics). */
  public final int openSessions() {
    return sessions == null ? 0 : sessions.size();
  }
}
