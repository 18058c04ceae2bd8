package dev.gym4j.models;

import java.io.InputStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.Json;
import dev.gym4j.model.ModelServer;
import dev.gym4j.model.UpstreamHealth;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatChunks;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code anthropic_model}: our Responses and Chat Completions APIs in front of an Anthropic-compatible endpoint,
 * answered by calling its {@code POST /v1/messages} (NeMo Gym's {@code responses_api_models/anthropic_model}).
 *
 * <p>Settings as NeMo Gym's: {@code anthropic_api_key}, {@code anthropic_model}, {@code max_tokens} (required;
 * a request's {@code max_output_tokens} wins); {@code anthropic_base_url} (default
 * {@code https://api.anthropic.com/v1}; {@code /v1} is added when missing), {@code anthropic_version} (default
 * {@code 2023-06-01}), {@code thinking} or {@code thinking_budget_tokens}, {@code extra_body},
 * {@code max_concurrent_requests}. The key goes in the {@code x-api-key} header and nowhere else.
 *
 * <p>{@code stream: true} on either route streams from the upstream ({@link AnthropicStream}); the final
 * Response (or the chat finish and usage) is the one the same upstream message gives unstreamed.
 */
@Implementation("anthropic_model")
public final class AnthropicModel extends ModelServer {
  private URI messagesUrl;
  private URI modelsUrl;
  private String model;
  private long maxTokens;
  private ObjectNode extraBody;
  private Upstream upstream;
  private Map<String, String> headers;

  @Override
  protected void start() {
    String base = context().config().path("anthropic_base_url").asString("https://api.anthropic.com/v1");
    String root = Upstream.root(base);
    messagesUrl = Upstream.resolve(root, "/v1/messages");
    modelsUrl = Upstream.resolve(root, "/v1/models");
    model = context().requiredString("anthropic_model");
    String key = context().requiredString("anthropic_api_key");
    Secrets.add(key);
    JsonNode max = context().required("max_tokens");
    if (!max.isIntegralNumber() || max.asLong() < 1) {
      throw new ConfigException(context().name() + ": max_tokens must be a positive integer");
    }
    maxTokens = max.asLong();
    extraBody = context().config().get("extra_body") instanceof ObjectNode body ? body : Json.object();
    JsonNode thinking = context().config().get("thinking");
    JsonNode budget = context().config().get("thinking_budget_tokens");
    int sources = (extraBody.has("thinking") ? 1 : 0) + (thinking != null && !thinking.isNull() ? 1 : 0)
        + (budget != null && !budget.isNull() ? 1 : 0);
    if (sources > 1) {
      throw new ConfigException(context().name() + ": configure Anthropic thinking in only one place: thinking, "
          + "thinking_budget_tokens, or extra_body");
    }
    if (thinking != null && thinking.isObject()) {
      extraBody.set("thinking", thinking);
    } else if (budget != null && budget.isIntegralNumber()) {
      extraBody.putObject("thinking").put("type", "enabled").put("budget_tokens", budget.asLong());
    }
    Map<String, String> all = new LinkedHashMap<>();
    all.put("x-api-key", key);
    all.put("anthropic-version", context().config().path("anthropic_version").asString("2023-06-01"));
    headers = Map.copyOf(all);
    JsonNode limit = context().config().get("max_concurrent_requests");
    upstream = new Upstream(context().client(), headers, limit != null && limit.isIntegralNumber() ? limit.intValue()
        : null);
  }

  @Override
  protected UpstreamHealth upstreamHealth() {
    return UpstreamHealth.probe(modelsUrl, headers, healthDeadline());
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    ObjectNode body = AnthropicUpstream.request(request, model, maxTokens, extraBody);
    ObjectNode answer = upstream.postForObject(messagesUrl, body);
    return Upstream.validated(messagesUrl, () -> AnthropicUpstream.response(answer, request.json(), model));
  }

  /** Streams from the upstream ({@code stream: true} there): its events become Responses events as they arrive. */
  @Override
  protected Optional<ServerSentEvents.Stream> streamResponses(ResponseCreateParams request, Call call) {
    ObjectNode body = AnthropicUpstream.request(request, model, maxTokens, extraBody);
    body.put("stream", true);
    InputStream events = upstream.openEvents(messagesUrl, body);
    return Optional.of(AnthropicStream.relay(messagesUrl, events, context().client().settings().requestTimeout(),
        sink -> new AnthropicResponseStream(sink, messagesUrl, request.json(), model)));
  }

  /** As {@link #streamResponses}, into chat chunks, with the usage chunk when the caller asked for it. */
  @Override
  protected Optional<ServerSentEvents.Stream> streamChatCompletions(ChatCompletionRequest request, Call call) {
    ObjectNode body = AnthropicUpstream.chatRequest(request.json(), model, maxTokens, extraBody);
    body.put("stream", true);
    boolean usage = ChatChunks.includeUsage(call.bodyObject());
    InputStream events = upstream.openEvents(messagesUrl, body);
    return Optional.of(AnthropicStream.relay(messagesUrl, events, context().client().settings().requestTimeout(),
        sink -> new AnthropicChatStream(sink, messagesUrl, model, usage)));
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    ObjectNode body = AnthropicUpstream.chatRequest(request.json(), model, maxTokens, extraBody);
    ObjectNode answer = upstream.postForObject(messagesUrl, body);
    return Upstream.validated(messagesUrl, () -> ChatCompletion.of(AnthropicUpstream.chatCompletion(answer, model),
        List.of("chat_completion")));
  }
}
