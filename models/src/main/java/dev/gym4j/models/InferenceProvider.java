package dev.gym4j.models;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.model.ModelServer;
import dev.gym4j.model.UpstreamHealth;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import dev.gym4j.wire.ResponsesToChat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code inference_provider}: a hosted provider's OpenAI-compatible Chat Completions endpoint (Fireworks, Together,
 * Baseten, DeepInfra, Nebius, Friendli, OpenRouter, HF Inference, Gemini, …) behind the Responses API, as NeMo Gym's
 * responses_api_models/inference_provider/app.py serves it: Responses requests become chat requests and the answers
 * come back as Responses, without token ids (for training, use vllm_model).
 *
 * <p>Settings as NeMo Gym's: {@code base_url}, {@code api_key}, {@code model} (required); {@code uses_reasoning_parser}
 * (default false: the provider's {@code reasoning_content}/{@code reasoning} becomes a {@code <think>} block, and
 * think blocks are taken out of history before it goes back), {@code num_concurrent_requests} (default 1000),
 * {@code extra_body} (defaults the request overrides). NeMo Gym's presets for each provider are in
 * models/configs/inference_provider/.
 */
@Implementation("inference_provider")
public final class InferenceProvider extends ModelServer {
  private String baseUrl;
  private String model;
  private boolean reasoningParser;
  private ObjectNode extraBody;
  private Upstream upstream;
  private Map<String, String> headers;

  @Override
  protected void start() {
    baseUrl = context().requiredString("base_url");
    model = context().requiredString("model");
    String key = context().requiredString("api_key");
    reasoningParser = context().config().path("uses_reasoning_parser").asBoolean(false);
    extraBody = context().config().get("extra_body") instanceof ObjectNode body ? body : Json.object();
    JsonNode limit = context().config().path("num_concurrent_requests");
    if (!limit.isMissingNode() && !(limit.isIntegralNumber() && limit.asInt() > 0)) {
      throw new ConfigException(context().path("num_concurrent_requests") + " must be a positive integer");
    }
    headers = Map.of("Authorization", "Bearer " + key);
    upstream = new Upstream(context().client(), headers, limit.isMissingNode() ? 1000 : limit.asInt());
  }

  @Override
  protected UpstreamHealth upstreamHealth() {
    return UpstreamHealth.probe(Upstream.resolve(baseUrl, "/models"), headers, healthDeadline());
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    ObjectNode chatBody = ResponsesToChat.convert(request.json(), false);
    ChatCompletion chat = complete(chatBody);
    ObjectNode echoed = request.json().deepCopy();
    Response response = ChatToResponses.response(chat, echoed, model, reasoningParser, false);
    // NeMo Gym stamps the time of the answer, not the provider's created
    response.json().put("created_at", Instant.now().getEpochSecond());
    return response;
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    return complete(request.json().deepCopy());
  }

  /** One chat call: the server's model and defaults, history without think blocks, reasoning as a think block. */
  private ChatCompletion complete(ObjectNode body) {
    ObjectNode request = extraBody.deepCopy();
    request.setAll(body);
    request.put("model", model);
    if (reasoningParser) {
      for (JsonNode message : request.path("messages")) {
        if (message instanceof ObjectNode m && "assistant".equals(Shape.text(m, "role")) && m.path("content").isString()) {
          m.put("content", ThinkBlocks.without(m.get("content").asString()));
        }
      }
    }
    URI url = Upstream.resolve(baseUrl, "/chat/completions");
    ObjectNode chat = upstream.postForObject(url, request);
    Upstream.validated(url, () -> ChatCompletion.of(chat, List.of("chat_completion")));
    if (!(chat.path("choices").path(0).path("message") instanceof ObjectNode message)) {
      throw new dev.gym4j.client.UpstreamException(dev.gym4j.client.UpstreamException.Kind.STATUS,
          "upstream " + Upstream.shown(url) + " answered without a message", 200, null);
    }
    if (reasoningParser) {
      JsonNode reasoning = message.path("reasoning_content").isString() && !message.get("reasoning_content")
          .asString().isEmpty() ? message.get("reasoning_content") : message.path("reasoning");
      if (reasoning.isString() && !reasoning.asString().isEmpty()) {
        String content = message.path("content").isString() ? message.get("content").asString() : "";
        message.remove(List.of("reasoning_content", "reasoning"));
        message.put("content", "<think>" + reasoning.asString() + "</think>" + content);
      }
    }
    return new ChatCompletion(chat);
  }
}
