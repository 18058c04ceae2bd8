package dev.gym4j.models;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.model.ModelServer;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code openai_model}: the Responses API passed through to an OpenAI-compatible endpoint
 * ({@code {openai_base_url}/responses}, and {@code /chat/completions} for the chat endpoint), with the
 * server's model, key and default body fields.
 *
 * <p>Settings as NeMo Gym's: {@code openai_base_url}, {@code openai_api_key}, {@code openai_model} (required);
 * {@code extra_body} (defaults the request overrides), {@code openai_default_headers},
 * {@code max_concurrent_requests}, {@code drop_input_reasoning_items}.
 */
@Implementation("openai_model")
public class OpenAIModel extends ModelServer {
  private String baseUrl;
  private String model;
  private ObjectNode extraBody;
  private boolean dropInputReasoning;
  private Upstream upstream;
  private Map<String, String> probeHeaders;

  @Override
  protected void start() {
    baseUrl = context().requiredString("openai_base_url");
    model = context().requiredString("openai_model");
    String key = context().requiredString("openai_api_key");
    extraBody = context().config().get("extra_body") instanceof ObjectNode body ? body : Json.object();
    dropInputReasoning = context().config().path("drop_input_reasoning_items").asBoolean(false);
    Map<String, String> headers = new LinkedHashMap<>();
    context().config().path("openai_default_headers").properties()
        .forEach(entry -> headers.put(entry.getKey(), entry.getValue().asString()));
    headers.put("Authorization", "Bearer " + key);
    JsonNode limit = context().config().get("max_concurrent_requests");
    upstream = new Upstream(context().client(), headers, limit != null && limit.isIntegralNumber() ? limit.intValue() : null);
    probeHeaders = Map.copyOf(headers);
  }

  @Override
  protected dev.gym4j.model.UpstreamHealth upstreamHealth() {
    return dev.gym4j.model.UpstreamHealth.probe(Upstream.resolve(baseUrl, "/models"), probeHeaders, healthDeadline());
  }

  /** Streams the upstream's Responses events as they arrive ({@code stream: true} upstream). */
  @Override
  protected java.util.Optional<dev.gym4j.server.ServerSentEvents.Stream> streamResponses(ResponseCreateParams request,
      Call call) {
    ObjectNode body = responsesBody(request);
    body.put("stream", true);
    URI url = Upstream.resolve(baseUrl, "/responses");
    java.io.InputStream events = upstream.openEvents(url, body);
    return java.util.Optional.of(EventRelay.relay(url, events, context().client().settings().requestTimeout(),
        OpenAIModel::shapeEvent, null, EventRelay::responsesError));
  }

  /** Streams the upstream's chat chunks as they arrive, with the caller's stream options. */
  @Override
  protected java.util.Optional<dev.gym4j.server.ServerSentEvents.Stream> streamChatCompletions(
      ChatCompletionRequest request, Call call) {
    ObjectNode body = withDefaults(request.json());
    EventRelay.streamingChat(body, call.bodyObject().get("stream_options"));
    URI url = Upstream.resolve(baseUrl, "/chat/completions");
    java.io.InputStream events = upstream.openEvents(url, body);
    return java.util.Optional.of(EventRelay.relay(url, events, context().client().settings().requestTimeout(),
        dev.gym4j.wire.OpenAIShapes::chatChunkInPlace, "[DONE]", EventRelay::chatError));
  }

  /**
   * A Responses event as we pass it on: its response or item valid by the schema, reasoning without status;
   * shaped in place, as the event was parsed for this call alone.
   */
  private static ObjectNode shapeEvent(ObjectNode event) {
    if (event.get("response") instanceof ObjectNode response) {
      withoutReasoningStatus(response);
      dev.gym4j.wire.OpenAIShapes.responseInPlace(response);
    }
    if (event.get("item") instanceof ObjectNode item) {
      if ("reasoning".equals(item.path("type").asString(""))) {
        item.remove("status");
      }
      dev.gym4j.wire.OpenAIShapes.itemInPlace(item);
    }
    return event;
  }

  // OpenAI rejects a replayed reasoning item that carries a status, so history must not have one
  private static void withoutReasoningStatus(ObjectNode response) {
    for (JsonNode item : response.path("output")) {
      if ("reasoning".equals(item.path("type").asString("")) && item instanceof ObjectNode reasoning) {
        reasoning.remove("status");
      }
    }
  }

  private ObjectNode responsesBody(ResponseCreateParams request) {
    ObjectNode body = withDefaults(request.json());
    if (dropInputReasoning && body.get("input") instanceof ArrayNode input) {
      ArrayNode kept = Json.array();
      input.forEach(item -> {
        if (!"reasoning".equals(item.path("type").asString(""))) {
          kept.add(item);
        }
      });
      body.set("input", kept);
    }
    return body;
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    ObjectNode body = responsesBody(request);
    URI url = Upstream.resolve(baseUrl, "/responses");
    ObjectNode answer = normalized(upstream.postForObject(url, body));
    withoutReasoningStatus(answer);
    return Upstream.validated(url, () -> Response.of(answer, List.of("response")));
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    URI url = Upstream.resolve(baseUrl, "/chat/completions");
    ObjectNode answer = upstream.postForObject(url, withDefaults(request.json()));
    return Upstream.validated(url, () -> ChatCompletion.of(answer, List.of("chat_completion")));
  }

  /**
   * The upstream's Responses answer as this server gives it on; by default as it came. A server for an endpoint
   * with quirks (litellm_model) puts them right here, before the answer is validated.
   */
  protected ObjectNode normalized(ObjectNode answer) {
    return answer;
  }

  /** The configured {@code openai_base_url}. */
  protected final String baseUrl() {
    return baseUrl;
  }

  /** The headers every upstream call carries: {@code openai_default_headers} and the bearer key. */
  protected final Map<String, String> upstreamHeaders() {
    return probeHeaders;
  }

  /** {@code extra_body} under the request (the request wins), and the server's model. */
  private ObjectNode withDefaults(ObjectNode request) {
    ObjectNode body = extraBody.deepCopy();
    body.setAll(request.deepCopy());
    body.put("model", model);
    return body;
  }
}
