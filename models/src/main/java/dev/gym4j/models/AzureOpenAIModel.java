package dev.gym4j.models;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.model.ModelServer;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.OpenAIShapes;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponsesToChat;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code azure_openai_model}: an Azure OpenAI deployment, reached at
 * {@code {openai_base_url}/openai/deployments/{openai_model}/chat/completions?api-version=…} with an
 * {@code api-key} header. Responses requests are converted to Chat Completions and back; unlike NeMo Gym,
 * usage and {@code status}/{@code incomplete_details} are kept.
 *
 * <p>Settings: {@code openai_base_url}, {@code openai_api_key}, {@code openai_model} (the deployment),
 * {@code default_query} with {@code api-version} (required), {@code num_concurrent_requests} (default 8).
 */
@Implementation("azure_openai_model")
public final class AzureOpenAIModel extends ModelServer {
  private URI chatUrl;
  private String model;
  private Upstream upstream;
  private URI healthUrl;
  private String apiKey;

  @Override
  protected void start() {
    String base = context().requiredString("openai_base_url");
    model = context().requiredString("openai_model");
    String key = context().requiredString("openai_api_key");
    if (!(context().required("default_query") instanceof ObjectNode query) || !query.has("api-version")) {
      throw new ConfigException("missing required value " + context().path("default_query") + ".api-version: Azure "
          + "needs the API version, e.g. default_query: {api-version: 2024-10-21}");
    }
    StringJoiner parameters = new StringJoiner("&");
    query.properties().forEach(entry -> parameters.add(encode(entry.getKey()) + "=" + encode(entry.getValue().asString())));
    chatUrl = Upstream.resolve(base, "/openai/deployments/" + encode(model) + "/chat/completions?" + parameters);
    int concurrency = context().config().path("num_concurrent_requests").asInt(8);
    upstream = new Upstream(context().client(), Map.of("api-key", key), concurrency);
    healthUrl = Upstream.resolve(base, "/openai/models?" + parameters);
    apiKey = key;
  }

  @Override
  protected dev.gym4j.model.UpstreamHealth upstreamHealth() {
    return dev.gym4j.model.UpstreamHealth.probe(healthUrl, Map.of("api-key", apiKey), healthDeadline());
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    ObjectNode body = ResponsesToChat.convert(request.json(), false);
    body.put("model", model);
    return response(upstream.postForObject(chatUrl, body), request);
  }

  private Response response(ObjectNode answer, ResponseCreateParams request) {
    ChatCompletion chat = Upstream.validated(chatUrl, () -> ChatCompletion.of(answer, List.of("chat_completion")));
    return ChatToResponses.response(chat, request.json(), model, true, false);
  }

  /**
   * {@code stream: true} asks the deployment for a chat stream (with the usage chunk) and turns its chunks
   * into Responses events as they arrive; the final Response is the non-streamed one made from the chunks.
   */
  @Override
  protected Optional<ServerSentEvents.Stream> streamResponses(ResponseCreateParams request, Call call) {
    ObjectNode body = ResponsesToChat.convert(request.json(), false);
    body.put("model", model);
    EventRelay.streamingChat(body, EventRelay.WITH_USAGE);
    java.io.InputStream events = upstream.openEvents(chatUrl, body);
    ObjectNode started = Json.object().put("object", "chat.completion").put("created", Instant.now().getEpochSecond());
    started.putArray("choices");
    ObjectNode head = ChatToResponses.response(new ChatCompletion(started), request.json(), model, true, false).json();
    return Optional.of(ChatStreamEvents.stream(chatUrl, events, context().client().settings().requestTimeout(), head,
        true, false, chat -> response(chat, request)));
  }

  /** {@code stream: true} on chat relays the deployment's chunks as they arrive, with the caller's stream options. */
  @Override
  protected Optional<ServerSentEvents.Stream> streamChatCompletions(ChatCompletionRequest request, Call call) {
    ObjectNode body = request.json().deepCopy();
    body.put("model", model);
    EventRelay.streamingChat(body, call.bodyObject().get("stream_options"));
    java.io.InputStream events = upstream.openEvents(chatUrl, body);
    return Optional.of(EventRelay.relay(chatUrl, events, context().client().settings().requestTimeout(),
        OpenAIShapes::chatChunk, "[DONE]", EventRelay::chatError));
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    ObjectNode body = request.json().deepCopy();
    body.put("model", model);
    ObjectNode answer = upstream.postForObject(chatUrl, body);
    return Upstream.validated(chatUrl, () -> ChatCompletion.of(answer, List.of("chat_completion")));
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
