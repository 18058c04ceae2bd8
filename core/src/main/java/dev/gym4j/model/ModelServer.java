package dev.gym4j.model;

import java.time.Duration;

import dev.gym4j.config.ServerKind;
import dev.gym4j.server.Call;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Reply;
import dev.gym4j.server.Routes;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;

/**
 * A model server: a policy or judge model behind {@code POST /v1/responses} and
 * {@code POST /v1/chat/completions}, and the Anthropic Messages API on {@code POST /v1/messages} (see
 * {@link MessagesRoute}). Requests are checked before an implementation sees them; an upstream
 * that fails or times out is answered with 502 or 504 (never a made-up answer).
 */
public abstract class ModelServer extends GymServer {

  @Override
  public final ServerKind kind() {
    return ServerKind.MODEL;
  }

  protected abstract Response responses(ResponseCreateParams request, Call call);

  protected abstract ChatCompletion chatCompletions(ChatCompletionRequest request, Call call);

  /**
   * Whether the upstream answers ({@code GET /upstream_health}: 200 when it does, 503 naming what failed):
   * a model server with an upstream probes it once per call, with {@link #healthDeadline()}.
   */
  protected UpstreamHealth upstreamHealth() {
    return UpstreamHealth.none(getClass().getSimpleName());
  }

  /** How long a health probe waits: {@code upstream_health_timeout_seconds}, default 5. */
  protected final Duration healthDeadline() {
    double seconds = context().config().path("upstream_health_timeout_seconds").asDouble(5);
    return Duration.ofMillis(Math.max(1, (long) (Math.min(seconds, 60) * 1000)));
  }

  @Override
  protected void routes(Routes routes) {
    routes.post("/v1/responses", call -> responses(ResponseCreateParams.of(call.body()), call));
    routes.post("/v1/chat/completions", call -> chatCompletions(ChatCompletionRequest.of(call.body()), call));
    routes.post("/v1/messages", call -> MessagesRoute.handle(call, params -> responses(params, call)));
    routes.get("/upstream_health", call -> {
      UpstreamHealth health = upstreamHealth();
      return Reply.of(health.ok() ? 200 : 503, health.json());
    });
  }
}
