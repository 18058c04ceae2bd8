package dev.gym4j.models;

import java.math.BigInteger;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.client.HttpReply;
import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.model.ModelServer;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.ChatChunks;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ChatCompletionRequest;
import dev.gym4j.wire.OpenAIShapes;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseEvents;
import dev.gym4j.wire.ResponsesToChat;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code vllm_model}: the training backend. Responses requests become Chat Completions for vLLM (or a
 * NeMo RL vLLM server) and come back as Responses, with reasoning as {@code <think>} text on the wire and
 * as reasoning items in gym4j.
 *
 * <p>With {@code return_token_id_information: true} every call returns its token bundle (prompt ids,
 * sampled ids, log-probs) on its last output item, and history items give their bundles back to the
 * backend, so multi-turn prompts stay append-only. Several {@code base_url}s are replicas: a rollout sticks
 * to one (by a hash of this server's session id) to reuse its prefix cache. A prompt over the context
 * length gives an incomplete response rather than an error, as NeMo Gym does, so the agent stops.
 */
@Implementation("vllm_model")
public class VLLMModel extends ModelServer {
  private volatile List<String> baseUrls;
  private volatile String model;
  private boolean training;
  private boolean requestTokenIds;
  private boolean reasoningParser;
  private boolean interleavedReasoning;
  private boolean preserveReasoning;
  private boolean developerAsSystem;
  private ObjectNode chatTemplateKwargs;
  private ObjectNode extraBody;
  private ObjectNode samplingOverrides;
  private volatile Upstream upstream;
  private volatile Map<String, String> probeHeaders;
  private boolean completionsApi;
  private boolean renderChatTemplate;

  @Override
  protected void start() {
    readSettings();
    target(context().required("base_url"), context().requiredString("api_key"), context().requiredString("model"));
  }

  /** Every setting but the upstream's address, key and model (see {@link #target}). */
  void readSettings() {
    training = context().required("return_token_id_information").asBoolean();
    reasoningParser = context().required("uses_reasoning_parser").asBoolean();
    requestTokenIds = flag("request_prompt_and_generation_token_ids", false);
    interleavedReasoning = flag("uses_interleaved_reasoning", true);
    preserveReasoning = flag("preserve_reasoning_in_assistant_content", false);
    developerAsSystem = flag("replace_developer_role_with_system", false);
    chatTemplateKwargs = object("chat_template_kwargs");
    extraBody = object("extra_body");
    samplingOverrides = object("sampling_overrides");
    completionsApi = flag("use_completions_api", false);
    renderChatTemplate = flag("render_chat_template", false);
  }

  /**
   * Points the server at its upstream: one base URL or a list of replicas, the key and the served model. From the
   * config at start; local_vllm_model_proxy sets them when its model server has told it.
   */
  final void target(JsonNode urls, String key, String servedModel) {
    List<String> bases = new ArrayList<>();
    if (urls.isArray()) {
      urls.forEach(url -> bases.add(url.asString("")));
    } else {
      bases.add(urls.asString(""));
    }
    if (bases.isEmpty() || bases.stream().anyMatch(String::isBlank)) {
      throw new ConfigException(context().path("base_url") + " must be a URL or a list of URLs");
    }
    JsonNode tokenizer = context().config().get("tokenizer");
    if (completionsApi && tokenizer != null && !tokenizer.isNull() && !tokenizer.asString("").equals(servedModel)) {
      throw new ConfigException(context().path("tokenizer") + " is " + tokenizer.asString("") + ", not the model "
          + servedModel + ": with use_completions_api the chat template is rendered by the upstream's /tokenize, with "
          + "the served model's tokenizer; remove tokenizer or set it to " + servedModel);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    context().config().path("default_headers").properties()
        .forEach(entry -> headers.put(entry.getKey(), entry.getValue().asString()));
    headers.put("Authorization", "Bearer " + key);
    Upstream made = new Upstream(context().client(), headers, null);
    if (flag("upstream_http2", false)) {
      // for an upstream that speaks h2c (a proxy, the scripted benchmark model): one multiplexed connection
      bases.forEach(url -> context().client().multiplex(java.net.URI.create(url)));
    }
    baseUrls = List.copyOf(bases);
    model = servedModel;
    probeHeaders = Map.copyOf(headers);
    upstream = made;
  }

  /** Every replica must answer; the first that does not is named. */
  @Override
  protected dev.gym4j.model.UpstreamHealth upstreamHealth() {
    dev.gym4j.model.UpstreamHealth health = null;
    for (String base : baseUrls) {
      health = dev.gym4j.model.UpstreamHealth.probe(Upstream.resolve(base, "/models"), probeHeaders, healthDeadline());
      if (!health.ok()) {
        return health;
      }
    }
    return health;
  }

  private boolean flag(String field, boolean fallback) {
    return context().config().path(field).asBoolean(fallback);
  }

  private ObjectNode object(String field) {
    return context().config().get(field) instanceof ObjectNode object ? object : Json.object();
  }

  @Override
  protected Response responses(ResponseCreateParams request, Call call) {
    ObjectNode chatBody = ResponsesToChat.convert(request.json(), training);
    chatBody.put("model", model);
    return response(complete(chatBody, call.sessionId()), request);
  }

  @Override
  protected ChatCompletion chatCompletions(ChatCompletionRequest request, Call call) {
    return complete(request.json().deepCopy(), call.sessionId());
  }

  /** The chat pipeline shared by both endpoints. */
  private ChatCompletion complete(ObjectNode body, String sessionId) {
    prepare(body);
    String base = replicaBase(sessionId);
    if (completionsApi) {
      return CompletionsApi.complete(this, body, base);
    }
    URI url = Upstream.resolve(base, "/chat/completions");
    HttpReply reply = upstream.post(url, body);
    if (contextOverflow(reply)) {
      return new ChatCompletion(emptyCompletion("length"));
    }
    ObjectNode chat = Upstream.object(url, reply);
    Upstream.validated(url, () -> ChatCompletion.of(chat, List.of("chat_completion")));
    if (chat.path("choices").isEmpty()) {
      throw Upstream.failure(url, reply);
    }
    return completed(chat, url, base, body);
  }

  /** A chat answer as both endpoints give it, streamed or not: reasoning as a think block, the token bundle. */
  private ChatCompletion completed(ObjectNode chat, URI url, String base, ObjectNode body) {
    ObjectNode message = (ObjectNode) chat.path("choices").get(0).get("message");
    if (reasoningParser) {
      wrapReasoning(message);
    }
    if (training) {
      TokenInfo.attach(chat, url, () -> tokenize(base, body));
    }
    return new ChatCompletion(chat);
  }

  private String replicaBase(String sessionId) {
    return baseUrls.get(replica(sessionId, baseUrls.size()));
  }

  private Response response(ChatCompletion chat, ResponseCreateParams request) {
    return ChatToResponses.response(chat, request.json(), model, reasoningParser, training);
  }

  /**
   * {@code stream: true} asks vLLM for a chat stream ({@code stream_options.include_usage}, so the usage is
   * the non-streamed one) and turns its chunks into Responses events as they arrive; the final Response is
   * made from the chunks by the non-streamed pipeline. A prompt over the context length is the same
   * incomplete answer as unstreamed, streamed whole. {@code use_completions_api} streams the finished answer.
   */
  @Override
  protected Optional<ServerSentEvents.Stream> streamResponses(ResponseCreateParams request, Call call) {
    if (completionsApi) {
      return Optional.empty();
    }
    ObjectNode body = ResponsesToChat.convert(request.json(), training);
    prepare(body);
    String base = replicaBase(call.sessionId());
    URI url = Upstream.resolve(base, "/chat/completions");
    ObjectNode streamed = body.deepCopy();
    EventRelay.streamingChat(streamed, EventRelay.WITH_USAGE);
    Upstream.Opened opened = upstream.open(url, streamed);
    if (opened.refusal() != null) {
      if (contextOverflow(opened.refusal())) {
        Response response = response(new ChatCompletion(emptyCompletion("length")), request);
        return Optional.of(ServerSentEvents.stream(sink -> ResponseEvents.replay(response, sink)));
      }
      throw Upstream.failure(url, opened.refusal());
    }
    ObjectNode head = response(new ChatCompletion(emptyCompletion(null)), request).json();
    return Optional.of(ChatStreamEvents.stream(url, opened.events(), context().client().settings().requestTimeout(),
        head, reasoningParser, reasoningParser, chat -> {
          Upstream.validated(url, () -> ChatCompletion.of(chat, List.of("chat_completion")));
          if (chat.path("choices").isEmpty()) {
            throw new dev.gym4j.client.UpstreamException(dev.gym4j.client.UpstreamException.Kind.STATUS,
                "upstream " + Upstream.shown(url) + " streamed an answer without choices", 200, null);
          }
          return response(completed(chat, url, base, body), request);
        }));
  }

  /**
   * {@code stream: true} on chat relays vLLM's chunks as they arrive, with the caller's stream options; with
   * the reasoning parser the reasoning deltas become content inside a think block, so the text adds up to
   * the non-streamed content. Training mode streams the finished answer: its token bundle (prompt ids from
   * {@code /tokenize} among them) is complete only at the end.
   */
  @Override
  protected Optional<ServerSentEvents.Stream> streamChatCompletions(ChatCompletionRequest request, Call call) {
    if (completionsApi || training) {
      return Optional.empty();
    }
    ObjectNode body = request.json().deepCopy();
    prepare(body);
    URI url = Upstream.resolve(replicaBase(call.sessionId()), "/chat/completions");
    EventRelay.streamingChat(body, call.bodyObject().get("stream_options"));
    Upstream.Opened opened = upstream.open(url, body);
    if (opened.refusal() != null) {
      if (contextOverflow(opened.refusal())) {
        ChatCompletion empty = new ChatCompletion(emptyCompletion("length"));
        boolean usage = ChatChunks.includeUsage(call.bodyObject());
        return Optional.of(ServerSentEvents.stream(sink -> ChatChunks.replay(empty, usage, sink)));
      }
      throw Upstream.failure(url, opened.refusal());
    }
    return Optional.of(EventRelay.relay(url, opened.events(), context().client().settings().requestTimeout(),
        reasoningParser ? thinkTags() : OpenAIShapes::chatChunk, "[DONE]", EventRelay::chatError));
  }

  /**
   * Chunks with reasoning deltas as think-block content, as {@link #wrapReasoning} makes it: {@code <think>}
   * before a choice's first reasoning, {@code </think>} before its first content after reasoning or with its
   * finish reason.
   */
  private static java.util.function.UnaryOperator<ObjectNode> thinkTags() {
    java.util.Set<Integer> thinking = new java.util.HashSet<>();
    return chunk -> {
      for (JsonNode entry : chunk.path("choices")) {
        if (!(entry instanceof ObjectNode choice) || !(choice.get("delta") instanceof ObjectNode delta)) {
          continue;
        }
        int index = choice.path("index").asInt(0);
        JsonNode reasoning = delta.path("reasoning_content").isString() ? delta.get("reasoning_content")
            : delta.path("reasoning");
        delta.remove(List.of("reasoning_content", "reasoning"));
        StringBuilder text = new StringBuilder();
        if (reasoning.isString()) {
          if (thinking.add(index)) {
            text.append("<think>");
          }
          text.append(reasoning.stringValue());
        }
        String content = delta.path("content").asString("");
        if ((!content.isEmpty() || choice.hasNonNull("finish_reason")) && thinking.remove(index)) {
          text.append("</think>");
        }
        text.append(content);
        if (!text.isEmpty()) {
          delta.put("content", text.toString());
        }
      }
      return OpenAIShapes.chatChunk(chunk);
    };
  }

  /** The request as vLLM gets it: roles, model, template arguments, defaults, training flags, overrides. */
  private void prepare(ObjectNode body) {
    ArrayNode messages = (ArrayNode) body.get("messages");
    for (JsonNode message : messages) {
      ObjectNode m = (ObjectNode) message;
      if (developerAsSystem && "developer".equals(Shape.text(m, "role"))) {
        m.put("role", "system");
      }
      if (reasoningParser && !preserveReasoning && "assistant".equals(Shape.text(m, "role"))) {
        splitReasoning(m);
      }
    }
    body.put("model", model);
    ObjectNode templateKwargs = chatTemplateKwargs.deepCopy();
    templateKwargs.setAll(metadataObject(body, "chat_template_kwargs"));
    if (!templateKwargs.isEmpty()) {
      templateKwargs.setAll(body.get("chat_template_kwargs") instanceof ObjectNode given ? given : Json.object());
      body.set("chat_template_kwargs", templateKwargs);
    }
    if (training) {
      body.put("logprobs", true);
      body.put("top_logprobs", 0);
      body.put("return_tokens_as_token_ids", true);
      if (requestTokenIds) {
        body.put("return_token_ids", true);
      }
      JsonNode n = body.get("n");
      if (n != null && !n.isNull() && n.asInt() != 1) {
        throw new FieldError(List.of("n"), "training mode takes one sample per call (n = 1)", "value_error");
      }
    }
    if (body.has("top_logprobs") && body.get("top_logprobs").isNull()) {
      body.remove("top_logprobs");
    }
    ObjectNode defaults = extraBody.deepCopy();
    defaults.setAll(metadataObject(body, "extra_body"));
    for (var entry : defaults.properties()) {
      if (!body.has(entry.getKey())) {
        body.set(entry.getKey(), entry.getValue());
      }
    }
    body.setAll(samplingOverrides.deepCopy());
  }

  String model() {
    return model;
  }

  boolean training() {
    return training;
  }

  boolean requestTokenIds() {
    return requestTokenIds;
  }

  boolean renderChatTemplate() {
    return renderChatTemplate;
  }

  Upstream upstream() {
    return upstream;
  }

  /** {@code extra_body} (config, then the request's metadata) as defaults, {@code sampling_overrides} last. */
  void defaultsAndOverrides(ObjectNode body, ObjectNode request) {
    ObjectNode defaults = extraBody.deepCopy();
    defaults.setAll(metadataObject(request, "extra_body"));
    for (var entry : defaults.properties()) {
      if (!body.has(entry.getKey())) {
        body.set(entry.getKey(), entry.getValue());
      }
    }
    body.setAll(samplingOverrides.deepCopy());
  }

  /** History reasoning goes back as {@code reasoning_content} (and {@code reasoning}), not as think tags. */
  private void splitReasoning(ObjectNode message) {
    String content = Shape.text(message, "content");
    if (content == null) {
      return;
    }
    List<String> thoughts = ThinkBlocks.contents(content);
    if (thoughts.isEmpty()) {
      return;
    }
    String first = thoughts.getFirst();
    message.put("content", ThinkBlocks.without(content));
    if (interleavedReasoning) {
      message.put("reasoning_content", first);
      message.put("reasoning", first);
    }
  }

  /** vLLM's reasoning parser gives reasoning beside the content; gym4j carries it as a think block. */
  private static void wrapReasoning(ObjectNode message) {
    JsonNode reasoning = message.has("reasoning_content") && !message.get("reasoning_content").isNull()
        ? message.get("reasoning_content") : message.get("reasoning");
    message.remove(List.of("reasoning_content", "reasoning"));
    if (reasoning != null && reasoning.isString()) {
      String content = Shape.text(message, "content");
      message.put("content", "<think>" + reasoning.stringValue() + "</think>" + (content == null ? "" : content));
    }
  }

  /**
   * A JSON object in a string at {@code metadata.<key>}, the per-request channel NeMo Gym rows use (OpenAI's
   * metadata holds strings only). Anything else there is a 422 naming the field.
   */
  private static ObjectNode metadataObject(ObjectNode body, String key) {
    JsonNode given = body.path("metadata").path(key);
    if (given.isMissingNode() || given.isNull()) {
      return Json.object();
    }
    if (given.isString()) {
      try {
        if (Json.parse(given.stringValue()) instanceof ObjectNode object) {
          return object;
        }
      } catch (JacksonException e) {
        // the error below says what is expected
      }
    }
    throw new FieldError(List.of("metadata", key), "must be a JSON object in a string", "value_error");
  }

  ArrayNode tokenize(String base, ObjectNode body) {
    ObjectNode request = Json.object();
    for (String field : List.of("model", "messages", "prompt", "tools", "chat_template_kwargs", "mm_processor_kwargs",
        "required_prefix_token_ids", "add_generation_prompt")) {
      if (body.has(field)) {
        request.set(field, body.get(field));
      }
    }
    URI url = Upstream.resolve(Upstream.root(base), "/tokenize");
    JsonNode tokens = upstream.postForObject(url, request).get("tokens");
    if (tokens == null || !tokens.isArray()) {
      throw new dev.gym4j.client.UpstreamException(dev.gym4j.client.UpstreamException.Kind.STATUS,
          "upstream " + Upstream.shown(url) + " answered without tokens", 200, null);
    }
    return (ArrayNode) tokens;
  }

  /**
   * vLLM's own error for a prompt over the context length: a 400 whose JSON {@code message} (or
   * {@code error.message}) says {@code maximum context length is <n> tokens} (its serving layer, for the
   * prompt alone or with {@code max_tokens}) or {@code is longer than the maximum model length of <n>} (its
   * engine). NeMo Gym takes any 400 that mentions {@code context length} or {@code max_tokens}
   * (responses_api_models/vllm_model/app.py); we do not: a 400 for a bad {@code max_tokens} value or a
   * proxy's page that happens to say "context length" is the upstream's failure, not an answer to score.
   */
  static boolean contextOverflow(HttpReply reply) {
    if (reply.status() != 400) {
      return false;
    }
    JsonNode body;
    try {
      body = reply.json();
    } catch (JacksonException e) {
      return false;
    }
    JsonNode message = body.path("message").isString() ? body.get("message") : body.path("error").path("message");
    return message.isString() && CONTEXT_OVERFLOW.matcher(message.stringValue()).find();
  }

  private static final java.util.regex.Pattern CONTEXT_OVERFLOW = java.util.regex.Pattern.compile(
      "maximum context length is \\d{1,12} tokens|is longer than the maximum model length of \\d{1,12}");

  /** The answer NeMo Gym gives for a prompt over the context length: empty, cut short, no token ids. */
  ObjectNode emptyCompletion(String finishReason) {
    ObjectNode chat = Json.object();
    chat.put("id", Ids.of("chatcmpl-"));
    chat.put("object", "chat.completion");
    chat.put("created", System.currentTimeMillis() / 1000);
    chat.put("model", model);
    ObjectNode choice = chat.putArray("choices").addObject();
    choice.put("index", 0);
    choice.put("finish_reason", finishReason);
    ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    message.putNull("content");
    return chat;
  }

  /** The replica for a session: the first 8 bytes of SHA-256 of its id, big-endian, modulo the count. */
  static int replica(String sessionId, int replicas) {
    if (replicas == 1) {
      return 0;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(sessionId.getBytes(StandardCharsets.UTF_8));
      return new BigInteger(1, Arrays.copyOf(digest, 8)).mod(BigInteger.valueOf(replicas)).intValue();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
