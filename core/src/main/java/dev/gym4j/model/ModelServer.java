package dev.gym4j.model;

import dev.gym4j.config.ServerKind;
import dev.gym4j.server.Call;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Routes;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;

/**
 * A model server: a policy or judge model behind {@code POST /v1/responses} and
 * {@code POST /v1/chat/completions}. Requests are checked before an implementation sees them; an upstream
 * that fails or times out is answered with 502 or 504 (never a made-up answer).
 */
public abstract class ModelServer extends GymServer {

  @Override
  public final ServerKind kind() {
    return ServerKind.MODEL;
  }

  protected abstract Response responses(ResponseCreateParams request, Call call);

  protected abstract ChatCompletion chatCompletions(ChatCompletionRequest request, Call call);

  @Override
  protected void routes(Routes routes) {
    routes.post("/v1/responses", call -> responses(ResponseCreateParams.of(call.body()), call));
    routes.post("/v1/chat/completions", call -> chatCompletions(ChatCompletionRequest.of(call.body()), call));
  }
}
