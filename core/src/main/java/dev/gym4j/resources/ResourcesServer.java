package dev.gym4j.resources;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
 *
 * <p>{@code POST /close} ends the caller's session (by its cookie) with whatever it holds: an agent calls it when a
 * rollout ends without verify (a failed model call, a deadline, a caller gone), so that nothing of the rollout
 * outlives it. gym4j's route; NeMo Gym has none, and its sessions live as long as the server.
 *
 * <p>Only {@code seed_session} creates a session. A tool that takes a {@link Session} answers 409 to a call
 * without a live one (no cookie, a forged one, or a session that expired, was evicted or was verified);
 * {@code verify} without a session cookie scores on an empty session that is not kept, and refuses (409) a
 * session that ended before it. See {@link SessionStore} for the bounds.
 */
public abstract class ResourcesServer extends GymServer {
  /** Idle sessions are dropped after this unless the instance sets {@code session_ttl_seconds}. */
  public static final Duration DEFAULT_SESSION_TTL = Duration.ofHours(1);

  /**
   * The config key that also serves the tools over MCP at {@code /mcp} (NeMo Gym's name): {@code /seed_session} then
   * answers an {@code mcp} field with the rollout's session token ({@link McpEndpoint}).
   */
  public static final String EXPOSE_TOOLS_OVER_MCP = "expose_tools_over_mcp";

  private SessionStore sessions;

  @Override
  public final ServerKind kind() {
    return ServerKind.RESOURCES;
  }

  /**
   * A tool whose arguments are free JSON, as NeMo Gym's catch-all {@code POST /{path}} route takes them (keyword
   * arguments of any type, checked by the tool itself). It runs in a seeded session; what it returns is written
   * back as JSON.
   */
  @FunctionalInterface
  public interface FreeTool {
    Object call(ObjectNode arguments, Session session);
  }

  /**
   * Tools served besides the {@link Tool} methods, by name (1 to 64 letters, digits, '_' or '-'); none by
   * default. For environments whose tools Python code types loosely, where an argument record would refuse
   * calls NeMo Gym answers.
   */
  protected java.util.Map<String, FreeTool> freeTools() {
    return java.util.Map.of();
  }

  /**
   * Called once when a session has ended, however it ended: verified, closed ({@code POST /close}), idle past
   * {@code session_ttl_seconds}, evicted past {@code max_sessions}, replaced by a new seed, or the server stopping.
   * An environment that holds something per session outside the {@link Session} (a process, a file) releases it
   * here. Runs on the thread that ended the session, outside the store's lock; by default nothing.
   */
  protected void sessionEnded(String sessionId) {}

  /** Prepares a new rollout's session from its task row; the default keeps nothing. */
  protected void seedSession(ObjectNode row, Session session) {}

  /** Scores a finished rollout. */
  protected abstract Verification verify(VerifyRequest request, Session session);

  @Override
  protected final void routes(Routes routes) {
    sessions = sessionStore(this, this::sessionEnded);
    routes.post("/close", call -> {
      sessions.end(call.sessionId());
      return dev.gym4j.json.Json.object();
    });
    java.util.Map<String, McpEndpoint.ServedTool> served = servedTools();
    McpEndpoint mcp = context().config().path(EXPOSE_TOOLS_OVER_MCP).asBoolean(false)
        ? new McpEndpoint(context().name(), served) : null;
    routes.post("/seed_session", call -> {
      ObjectNode row = call.bodyObject();
      seedSession(row, sessions.start(call.sessionId()));
      ObjectNode answer = dev.gym4j.json.Json.object();
      if (mcp != null) {
        answer.set("mcp", mcp.metadata(call.sessionId()));
      }
      return answer;
    });
    if (mcp != null) {
      routes.post(McpEndpoint.PATH, mcp::handle);
    }
    routes.post("/verify", call -> {
      VerifyRequest request = VerifyRequest.of(call.body());
      // A call without a session cookie (a stateless check of a recorded rollout) is verified on an empty
      // session that is not kept; a rollout whose session is gone (expired, evicted, verified) is refused
      // rather than scored from an empty state.
      Optional<Session> live = sessions.find(call.sessionId());
      if (live.isEmpty() && call.carriesSession()) {
        return sessions.noSession(call.sessionId(), "/seed_session");
      }
      // judge calls made while verifying name this rollout (see JudgedRollout: replay_model replays verdicts)
      // over MCP a client may record a tool call as mcp__<server>__<tool>: scored under the bare name, echoed as sent
      VerifyRequest scored = mcp == null ? request : McpToolNames.bare(request, context().name());
      Verification verification;
      try {
        verification = dev.gym4j.model.JudgedRollout.during(request.json(),
            () -> verify(scored, live.orElseGet(() -> new Session(call.sessionId()))));
      } catch (ZeroReward zero) {
        verification = new Verification(0.0, zero.fields());
      }
      sessions.end(call.sessionId());
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
    var metricsLimits = dev.gym4j.metrics.MetricsLimits.of(context());
    routes.post("/aggregate_metrics", call -> metricsLimits.serve(call, this::aggregateMetrics));
    served.forEach((name, tool) -> routes.post("/" + name, call -> tool.runner().run(call.body(), call.sessionId())));
  }

  /**
   * Every tool as served, over HTTP ({@code POST /<name>}) and MCP alike, by name: the {@link Tool} methods, then
   * the {@link #freeTools()}. A tool that uses the session runs only in a live one; otherwise it answers 409.
   */
  private java.util.Map<String, McpEndpoint.ServedTool> servedTools() {
    java.util.Map<String, McpEndpoint.ServedTool> served = new java.util.LinkedHashMap<>();
    freeTools().forEach((name, tool) -> {
      if (!ToolMethod.NAME.matcher(name).matches() || ToolMethod.PROTOCOL_ROUTES.contains(name)) {
        throw new IllegalStateException("free tool '" + name + "': a tool name is 1 to 64 letters, digits, '_' "
            + "or '-', and not one of the environment's own routes");
      }
      ObjectNode function = dev.gym4j.json.Json.object();
      function.put("type", "function");
      function.put("name", name);
      function.putObject("parameters").put("type", "object").put("additionalProperties", true);
      served.put(name, new McpEndpoint.ServedTool(function, (arguments, sessionId) -> {
        Optional<Session> session = sessions.find(sessionId);
        return session.isPresent() ? tool.call(dev.gym4j.json.Shape.object(arguments, List.of()), session.get())
            : sessions.noSession(sessionId, "/seed_session");
      }));
    });
    for (ToolMethod tool : tools()) {
      served.put(tool.name(), new McpEndpoint.ServedTool(ToolSchemas.functionTool(tool), (body, sessionId) -> {
        Record arguments = tool.bindArguments(body);
        if (!tool.wantsSession()) {
          return tool.invoke(this, arguments, null);
        }
        Optional<Session> session = sessions.find(sessionId);
        return session.isPresent() ? tool.invoke(this, arguments, session.get())
            : sessions.noSession(sessionId, "/seed_session");
      }));
    }
    return served;
  }

  /**
   * The session store of a server, sized by its {@code max_sessions} (default 10,000) and
   * {@code session_ttl_seconds} (default one hour).
   */
  static SessionStore sessionStore(GymServer server, java.util.function.Consumer<String> onEnd) {
    ObjectNode config = server.context().config();
    double ttl = config.path("session_ttl_seconds").asDouble(DEFAULT_SESSION_TTL.toSeconds());
    int max = config.path("max_sessions").asInt(SessionStore.DEFAULT_MAX_SESSIONS);
    if (!(ttl >= 0.001) || max <= 0) {
      throw new dev.gym4j.config.ConfigException(server.context().path(ttl >= 0.001 ? "max_sessions"
          : "session_ttl_seconds") + " must be a positive number");
    }
    return new SessionStore(server.context().name(), Duration.ofMillis((long) Math.min(ttl * 1000, Long.MAX_VALUE)),
        max, onEnd);
  }

  /** Stops the session sweep; a subclass that overrides this calls {@code super.stop()}. */
  @Override
  protected void stop() {
    if (sessions != null) {
      sessions.close();
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
