package dev.gym4j.models;

import dev.gym4j.config.ConfigException;
import dev.gym4j.model.ModelServer;
import dev.gym4j.model.UpstreamHealth;
import dev.gym4j.server.Call;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;

/**
 * A NeMo Gym model server that starts vLLM on the machine's own GPUs ({@link LocalVllmModel}, {@link GenRmModel}).
 * gym4j talks to running endpoints only, so such a config is accepted as written (whatever its keys) and the server
 * stops at start with one line saying what to use instead. It never serves.
 */
abstract class RefusingModelServer extends ModelServer {
  private final String instead;

  RefusingModelServer(String instead) {
    this.instead = instead;
  }

  @Override
  protected final void start() {
    throw new ConfigException(context().name() + ": " + instead);
  }

  @Override
  protected final UpstreamHealth upstreamHealth() {
    return UpstreamHealth.none("none");
  }

  @Override
  protected final Response responses(ResponseCreateParams request, Call call) {
    throw new IllegalStateException("a refusing model server never starts");
  }

  @Override
  protected final ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    throw new IllegalStateException("a refusing model server never starts");
  }
}
