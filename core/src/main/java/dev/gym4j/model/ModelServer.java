package dev.gym4j.model;

import java.time.Duration;

import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Reply;
import dev.gym4j.server.Routes;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatChunks;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.OpenAIShapes;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import dev.gym4j.wire.ResponseEvents;
import dev.gym4j.wire.Streaming;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model server: a policy or judge model behind {@code POST /v1/responses} and
 * {@code POST /v1/chat/completions}, and the Anthropic Messages API on {@code POST /v1/messages} (see
 * {@link MessagesRoute}). Requests are checked before an implementation sees them; an upstream
 * that fails or times out is answered with 502 or 504 (never a made-up answer).
 *
 * <p>Both routes stream when asked ({@code "stream": true}): from the upstream as it arrives when the
 * implementation can ({@link #streamResponses}), else made from the finished answer. What they send is
 * made valid by OpenAI's schema ({@link OpenAIShapes}); errors carry OpenAI's error object beside
 * {@code detail}. {@code GET /v1/models} names the configured model.
 */
public abstract class ModelServer extends GymServer {

  @Override
  public final ServerKind kind() {
    return ServerKind.MODEL;
  }

  /**
   * The model's answer to a request. The answer's tree is the caller's: it is made valid in place and sent,
   * so an implementation that keeps the tree (a recording, a cache) answers with a copy of it.
   */
  protected abstract Response responses(ResponseCreateParams request, Call call);

  /** As {@link #responses}: the completion's tree is the caller's. */
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

  /** The model {@code GET /v1/models} names: {@code openai_model} or {@code model} from the config, else the instance's name. */
  protected String modelName() {
    for (String key : java.util.List.of("openai_model", "model")) {
      tools.jackson.databind.JsonNode value = context().config().get(key);
      if (value != null && value.isString()) {
        return value.stringValue();
      }
    }
    return context().name();
  }

  /**
   * A stream of Responses events straight from a streaming upstream, as it arrives; empty (the default) to
   * have the stream made from {@link #responses}'s finished answer. An implementation that streams must
   * have checked the upstream's status before it returns, so that failures keep their HTTP status.
   */
  protected java.util.Optional<ServerSentEvents.Stream> streamResponses(ResponseCreateParams request, Call call) {
    return java.util.Optional.empty();
  }

  /** As {@link #streamResponses}, for Chat Completions chunks; {@code request} keeps its stream options. */
  protected java.util.Optional<ServerSentEvents.Stream> streamChatCompletions(ChatCompletionRequest request,
      Call call) {
    return java.util.Optional.empty();
  }

  @Override
  protected void routes(Routes routes) {
    routes.post("/v1/responses", call -> {
      ObjectNode body = call.bodyObject();
      if (!Streaming.asked(body)) {
        return OpenAIShapes.responseInPlace(responses(ResponseCreateParams.of(body), call).json());
      }
      ResponseCreateParams request = ResponseCreateParams.of(Streaming.without(body));
      var upstream = streamResponses(request, call);
      if (upstream.isPresent()) {
        return upstream.get();
      }
      Response response = responses(request, call);
      return ServerSentEvents.stream(sink -> ResponseEvents.replay(response, sink));
    });
    routes.post("/v1/chat/completions", call -> {
      ObjectNode body = call.bodyObject();
      if (!Streaming.asked(body)) {
        return OpenAIShapes.chatCompletionInPlace(chatCompletions(ChatCompletionRequest.of(body), call).json());
      }
      boolean usage = ChatChunks.includeUsage(body);
      ChatCompletionRequest request = ChatCompletionRequest.of(Streaming.without(body));
      var upstream = streamChatCompletions(request, call);
      if (upstream.isPresent()) {
        return upstream.get();
      }
      ChatCompletion completion = chatCompletions(request, call);
      return ServerSentEvents.stream(sink -> ChatChunks.replay(completion, usage, sink));
    });
    routes.openAICompatible("/v1/responses").openAICompatible("/v1/chat/completions").openAICompatible("/v1/models");
    routes.get("/v1/models", call -> {
      ObjectNode list = Json.object();
      list.put("object", "list");
      ObjectNode model = list.putArray("data").addObject();
      model.put("id", modelName());
      model.put("object", "model");
      model.put("created", 0);
      model.put("owned_by", "gym4j");
      return list;
    });
    routes.post("/v1/messages", call -> MessagesRoute.handle(call, params -> responses(params, call),
        params -> streamResponses(params, call).orElse(null),
        // token ids come with an item's end, after a live block's start: such answers stream item by item
        context().config().path("return_token_id_information").asBoolean(false) ? MessagesRoute.Live.ITEMS
            : MessagesRoute.Live.DELTAS));
    routes.anthropicCompatible("/v1/messages");
    routes.get("/upstream_health", call -> {
      UpstreamHealth health = upstreamHealth();
      return Reply.of(health.ok() ? 200 : 503, health.json());
    });
  }
}
