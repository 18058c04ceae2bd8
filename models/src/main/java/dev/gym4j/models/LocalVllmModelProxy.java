package dev.gym4j.models;

import java.util.Optional;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.model.UpstreamHealth;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code local_vllm_model_proxy}: a vllm_model that shares the vLLM server another model server started, as NeMo Gym's
 * responses_api_models/local_vllm_model_proxy/app.py does, so two model configs need not take two sets of GPUs. The
 * other server ({@code model_server: {type: responses_api_models, name: …}}, a NeMo Gym local_vllm_model in the same
 * deployment) tells the vLLM server's address, key and model at {@code GET /get_inner_vllm_config}.
 *
 * <p>NeMo Gym asks at start and polls every 10 seconds until the other server is up; gym4j's servers start together,
 * so the proxy asks at its first call instead (and again after a failed ask): until the other server answers, a
 * call fails as an upstream failure (502) rather than waiting without a deadline. Every other setting is
 * vllm_model's; {@code base_url}, {@code api_key} and {@code model} are not read from the config.
 */
@Implementation("local_vllm_model_proxy")
public final class LocalVllmModelProxy extends VLLMModel {
  private String modelServer;
  private volatile boolean targeted;

  @Override
  protected void start() {
    readSettings();
    JsonNode reference = context().required("model_server");
    JsonNode name = reference.path("name");
    if (!name.isString() || name.asString().isBlank()) {
      throw new dev.gym4j.config.ConfigException(context().path("model_server.name")
          + " must name the local_vllm_model instance whose vLLM server this proxy shares");
    }
    modelServer = name.asString();
  }

  /** Asks the model server for its vLLM server once it answers; a failed ask is asked again at the next call. */
  private void ensureTarget() {
    if (targeted) {
      return;
    }
    synchronized (this) {
      if (targeted) {
        return;
      }
      HttpReply reply;
      try {
        reply = context().client().get(modelServer, "/get_inner_vllm_config");
      } catch (UpstreamException e) {
        throw new UpstreamException(e.kind(), "the model server " + modelServer + " this proxy shares is not up yet: "
            + e.getMessage(), e.status(), null);
      }
      if (!reply.ok()) {
        throw new UpstreamException(UpstreamException.Kind.STATUS, "the model server " + modelServer
            + " answered /get_inner_vllm_config with " + reply.status(), reply.status(), null);
      }
      JsonNode inner;
      try {
        inner = reply.json();
      } catch (JacksonException e) {
        throw malformed("is not JSON");
      }
      JsonNode urls = inner.path("base_url");
      boolean urlsOk = urls.isArray() ? !urls.isEmpty() && allHttp(urls) : isHttp(urls);
      if (!urlsOk || !inner.path("api_key").isString() || !inner.path("model").isString()) {
        throw malformed("lacks base_url (http URLs), api_key or model");
      }
      target(urls, inner.get("api_key").asString(), inner.get("model").asString());
      targeted = true;
    }
  }

  private static boolean allHttp(JsonNode urls) {
    for (JsonNode url : urls) {
      if (!isHttp(url)) {
        return false;
      }
    }
    return true;
  }

  /** The address comes from a peer: only an absolute http(s) URL is taken. */
  private static boolean isHttp(JsonNode url) {
    if (!url.isString()) {
      return false;
    }
    try {
      java.net.URI uri = java.net.URI.create(url.asString());
      return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private UpstreamException malformed(String what) {
    return new UpstreamException(UpstreamException.Kind.STATUS, "the model server " + modelServer
        + "'s /get_inner_vllm_config answer " + what, 200, null);
  }

  @Override
  protected UpstreamHealth upstreamHealth() {
    try {
      ensureTarget();
    } catch (UpstreamException e) {
      return new UpstreamHealth(false, modelServer, "unreachable", e.getMessage());
    }
    return super.upstreamHealth();
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    ensureTarget();
    return super.responses(request, call);
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    ensureTarget();
    return super.chatCompletions(request, call);
  }

  @Override
  protected Optional<ServerSentEvents.Stream> streamResponses(ResponseCreateParams request, Call call) {
    ensureTarget();
    return super.streamResponses(request, call);
  }

  @Override
  protected Optional<ServerSentEvents.Stream> streamChatCompletions(ChatCompletionRequest request, Call call) {
    ensureTarget();
    return super.streamChatCompletions(request, call);
  }
}
