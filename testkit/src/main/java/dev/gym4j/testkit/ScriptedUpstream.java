package dev.gym4j.testkit;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.gym4j.json.Json;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted stand-in for an OpenAI-compatible inference server (OpenAI, vLLM, a NeMo RL vLLM server),
 * on a real socket: {@code POST /v1/chat/completions}, {@code POST /v1/responses}, {@code POST /v1/completions}
 * (a prompt as text or token ids, as vLLM takes it), {@code POST /tokenize}
 * and {@code GET /v1/models}, answering in their exact wire formats, including usage, log-probs and token
 * ids, and failing on cue (HTTP errors, dropped connections, context-length errors, latency).
 *
 * <p>Answers come from a queue ({@link #enqueue}); when it is empty, from a fallback function of the
 * request (by default the text {@code "OK"}). Every request is recorded for assertions.
 *
 * <p>A chat request with {@code stream: true} is answered as vLLM streams: {@code chat.completion.chunk}s
 * (the role, then the reasoning, the content and each tool call's arguments in pieces of
 * {@link #streamInPiecesOf} characters, log-probs and token ids spread over the chunks in order, the finish
 * reason), a usage chunk when {@code stream_options.include_usage} asks, and {@code [DONE]}. A stream can be
 * held back, broken or stalled after its first events ({@link #holdStreamAfter}, {@link #breakStreamAfter},
 * {@link #stallStreamAfter}).
 */
public final class ScriptedUpstream implements AutoCloseable {
  /** A request the upstream received; {@code query} is the raw query string, empty when there is none. */
  public record Received(String path, ObjectNode body, Map<String, String> headers, String query) {}

  private final Queue<Answer> script = new ConcurrentLinkedQueue<>();
  /** The most recent requests, oldest first; bounded, so that a long benchmark does not keep them all. */
  private final java.util.ArrayDeque<Received> received = new java.util.ArrayDeque<>();
  private volatile int keep = 10_000;
  private final AtomicInteger calls = new AtomicInteger();
  private volatile Function<ObjectNode, Answer> fallback = request -> Answer.text("OK");
  private final WebServer server;
  private volatile int pieceChars = 4;
  private volatile int holdAfter = -1;
  private volatile java.util.concurrent.CountDownLatch hold;
  private volatile int breakAfter = -1;
  private volatile int stallAfter = -1;
  /** Released on close, so that a stalled stream's handler ends with the server. */
  private final java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);

  private ScriptedUpstream() {
    HttpRouting.Builder routing = HttpRouting.builder()
        .post("/v1/chat/completions", (req, res) -> answerChat(req, res))
        // Azure OpenAI's form of the same endpoint
        .post("/openai/deployments/{deployment}/chat/completions", (req, res) -> answerChat(req, res))
        .post("/v1/responses", (req, res) -> answer(req, res, this::responses))
        .post("/v1/completions", (req, res) -> answer(req, res, this::completion))
        .post("/tokenize", this::tokenize)
        .get("/v1/models", (req, res) -> send(res, 200, models()));
    server = dev.gym4j.server.ServerHost.builder("127.0.0.1", 0).routing(routing).build().start();
  }

  public static ScriptedUpstream start() {
    return new ScriptedUpstream();
  }

  /** The OpenAI-style base URL, ending in {@code /v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.port() + "/v1";
  }

  public URI root() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  public ScriptedUpstream enqueue(Answer... answers) {
    script.addAll(List.of(answers));
    return this;
  }

  /** How to answer when the queue is empty. */
  public ScriptedUpstream otherwise(Function<ObjectNode, Answer> answer) {
    this.fallback = answer;
    return this;
  }

  /** The requests received, oldest first (at most the last {@link #keepReceived} of them). */
  public List<Received> received() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  /** Keeps only the last {@code count} requests for {@link #received()}; 0 keeps none (benchmarks). */
  public ScriptedUpstream keepReceived(int count) {
    keep = count;
    synchronized (received) {
      while (received.size() > count) {
        received.pollFirst();
      }
    }
    return this;
  }

  /** Model calls answered or failed so far (chat and responses). */
  public int calls() {
    return calls.get();
  }

  /** Streamed content, reasoning and tool-call arguments come in pieces of this many characters (default 4). */
  public ScriptedUpstream streamInPiecesOf(int chars) {
    if (chars < 1) {
      throw new IllegalArgumentException("a piece has at least one character");
    }
    pieceChars = chars;
    return this;
  }

  /**
   * Every stream sends its first {@code events} events, then waits until {@code until} is released before it
   * sends the rest: a test proves that its caller saw the start as it arrived. Not released within 30 s, the
   * stream breaks (an event that is not JSON), so that a caller that waited for the whole answer fails.
   */
  public ScriptedUpstream holdStreamAfter(int events, java.util.concurrent.CountDownLatch until) {
    hold = until;
    holdAfter = events;
    return this;
  }

  /** Every stream sends its first {@code events} events, then an event that is not JSON, and ends. */
  public ScriptedUpstream breakStreamAfter(int events) {
    breakAfter = events;
    return this;
  }

  /** Every stream sends its first {@code events} events, then stays silent until this upstream is closed. */
  public ScriptedUpstream stallStreamAfter(int events) {
    stallAfter = events;
    return this;
  }

  private interface Renderer {
    ObjectNode render(ObjectNode request, Answer answer);
  }

  private void answerChat(ServerRequest req, ServerResponse res) throws Exception {
    answer(req, res, this::chat, true);
  }

  private void answer(ServerRequest req, ServerResponse res, Renderer renderer) throws Exception {
    answer(req, res, renderer, false);
  }

  private void answer(ServerRequest req, ServerResponse res, Renderer renderer, boolean streams) throws Exception {
    ObjectNode body = record(req);
    calls.incrementAndGet();
    Answer answer = script.poll();
    if (answer == null) {
      answer = fallback.apply(body);
    }
    if (!answer.latency.isZero()) {
      Thread.sleep(answer.latency);
    }
    if (answer.drop) {
      throw new CloseConnectionException("scripted: drop the connection");
    }
    if (answer.errorStatus != 0) {
      res.status(Status.create(answer.errorStatus));
      res.header(HeaderNames.CONTENT_TYPE, "application/json");
      if (answer.errorStatus == 429 || answer.errorStatus == 503) {
        res.header(HeaderNames.RETRY_AFTER, "0");
      }
      res.send(answer.errorBody.getBytes());
      return;
    }
    if (streams && body.path("stream").asBoolean(false)) {
      streamChat(res, body, renderer.render(body, answer));
      return;
    }
    send(res, 200, renderer.render(body, answer));
  }

  /** A rendered chat completion as vLLM streams it (see the class comment). */
  private void streamChat(ServerResponse res, ObjectNode request, ObjectNode chat) throws Exception {
    List<ObjectNode> chunks = ChatStreamChunks.of(chat, pieceChars);
    res.status(Status.OK_200);
    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
    try (java.io.OutputStream out = res.outputStream()) {
      int sent = 0;
      for (ObjectNode chunk : chunks) {
        if (sent == breakAfter) {
          event(out, "{not json");
          return;
        }
        if (sent == stallAfter) {
          closing.await(60, java.util.concurrent.TimeUnit.SECONDS);
          return;
        }
        if (sent == holdAfter && hold != null && !hold.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
          event(out, "{not json");
          return;
        }
        event(out, Json.write(chunk));
        sent++;
      }
      if (request.path("stream_options").path("include_usage").asBoolean(false)) {
        ObjectNode last = ChatStreamChunks.head(chat);
        last.putArray("choices");
        last.set("usage", chat.get("usage"));
        event(out, Json.write(last));
      }
      event(out, "[DONE]");
    }
  }

  private static void event(java.io.OutputStream out, String data) throws java.io.IOException {
    out.write(("data: " + data + "\n\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    out.flush();
  }

  private ObjectNode record(ServerRequest req) {
    ObjectNode body = (ObjectNode) Json.parse(req.content().as(byte[].class));
    Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    req.headers().forEach(header -> headers.put(header.name(), header.get()));
    synchronized (received) {
      received.addLast(new Received(req.path().path(), body, headers, req.query().rawValue()));
      if (received.size() > keep) {
        received.pollFirst();
      }
    }
    return body;
  }

  private ObjectNode chat(ObjectNode request, Answer answer) {
    if (answer.items != null) {
      throw new IllegalStateException("recorded Responses items can only be replayed on /v1/responses");
    }
    List<Integer> prompt = ScriptedTokenizer.prompt(request.get("messages"));
    List<Integer> generation = generation(answer);
    ObjectNode chat = Json.object();
    chat.put("id", "chatcmpl-" + hex());
    chat.put("object", "chat.completion");
    chat.put("created", Instant.now().getEpochSecond());
    chat.put("model", request.path("model").asString("scripted"));
    ObjectNode choice = chat.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode message = choice.putObject("message");
    message.put("role", "assistant");
    if (answer.text == null) {
      message.putNull("content");
    } else {
      message.put("content", answer.text);
    }
    if (answer.reasoning != null) {
      message.put("reasoning_content", answer.reasoning);
    }
    if (!answer.toolCalls.isEmpty()) {
      ArrayNode calls = message.putArray("tool_calls");
      for (Answer.ToolCall call : answer.toolCalls) {
        ObjectNode toolCall = calls.addObject();
        toolCall.put("id", "chatcmpl-tool-" + hex());
        toolCall.put("type", "function");
        ObjectNode function = toolCall.putObject("function");
        function.put("name", call.name());
        function.put("arguments", call.arguments());
      }
    }
    boolean asIds = request.path("return_tokens_as_token_ids").asBoolean(false);
    if (request.path("logprobs").asBoolean(false) && answer.tokenIds != Answer.TokenIds.ON_MESSAGE) {
      ArrayNode content = choice.putObject("logprobs").putArray("content");
      for (int i = 0; i < generation.size(); i++) {
        ObjectNode entry = content.addObject();
        entry.put("token", asIds ? "token_id:" + generation.get(i) : "w" + generation.get(i));
        entry.put("logprob", logProb(i));
        entry.putArray("bytes").add(65);
        entry.putArray("top_logprobs");
      }
    } else {
      choice.putNull("logprobs");
    }
    if (answer.tokenIds == Answer.TokenIds.ON_MESSAGE) {
      message.set("prompt_token_ids", Json.toTree(prompt));
      message.set("generation_token_ids", Json.toTree(generation));
      ArrayNode logProbs = message.putArray("generation_log_probs");
      for (int i = 0; i < generation.size(); i++) {
        logProbs.add(logProb(i));
      }
    }
    if (answer.tokenIds == Answer.TokenIds.ON_RESPONSE || request.path("return_token_ids").asBoolean(false)) {
      chat.set("prompt_token_ids", Json.toTree(prompt));
      choice.set("token_ids", Json.toTree(generation));
    }
    choice.put("finish_reason", answer.finishReasonOrDefault());
    choice.putNull("stop_reason");
    ObjectNode usage = chat.putObject("usage");
    usage.put("prompt_tokens", prompt.size());
    usage.put("total_tokens", prompt.size() + generation.size());
    usage.put("completion_tokens", generation.size());
    usage.putNull("prompt_tokens_details");
    return chat;
  }

  /** vLLM's {@code /v1/completions}: the answer's text (reasoning as a think block before it), no tool calls. */
  private ObjectNode completion(ObjectNode request, Answer answer) {
    if (answer.items != null || !answer.toolCalls.isEmpty()) {
      throw new IllegalStateException("/v1/completions answers text only");
    }
    JsonNode prompt = request.get("prompt");
    List<Integer> promptIds = new ArrayList<>();
    if (prompt != null && prompt.isArray()) {
      prompt.forEach(id -> promptIds.add(id.asInt()));
    } else {
      promptIds.addAll(ScriptedTokenizer.words(prompt == null ? "" : prompt.asString("")));
    }
    List<Integer> generation = generation(answer);
    ObjectNode completion = Json.object();
    completion.put("id", "cmpl-" + hex());
    completion.put("object", "text_completion");
    completion.put("created", Instant.now().getEpochSecond());
    completion.put("model", request.path("model").asString("scripted"));
    ObjectNode choice = completion.putArray("choices").addObject();
    choice.put("index", 0);
    choice.put("text", (answer.reasoning == null ? "" : "<think>" + answer.reasoning + "</think>")
        + (answer.text == null ? "" : answer.text));
    if (request.hasNonNull("logprobs")) {
      boolean asIds = request.path("return_tokens_as_token_ids").asBoolean(false);
      ObjectNode logprobs = choice.putObject("logprobs");
      ArrayNode tokens = logprobs.putArray("tokens");
      ArrayNode values = logprobs.putArray("token_logprobs");
      for (int i = 0; i < generation.size(); i++) {
        tokens.add(asIds ? "token_id:" + generation.get(i) : "w" + generation.get(i));
        values.add(logProb(i));
      }
      logprobs.putNull("top_logprobs");
    } else {
      choice.putNull("logprobs");
    }
    if (request.path("return_token_ids").asBoolean(false)) {
      choice.set("prompt_token_ids", Json.toTree(promptIds));
      choice.set("token_ids", Json.toTree(generation));
    }
    choice.put("finish_reason", answer.finishReasonOrDefault());
    choice.putNull("stop_reason");
    ObjectNode usage = completion.putObject("usage");
    usage.put("prompt_tokens", promptIds.size());
    usage.put("total_tokens", promptIds.size() + generation.size());
    usage.put("completion_tokens", generation.size());
    return completion;
  }

  private ObjectNode responses(ObjectNode request, Answer answer) {
    List<Integer> prompt = ScriptedTokenizer.input(request.get("input"));
    List<Integer> generation = generation(answer);
    ObjectNode response = Json.object();
    response.put("id", "resp_" + hex());
    response.put("object", "response");
    response.put("created_at", Instant.now().getEpochSecond());
    response.put("status", "length".equals(answer.finishReason) ? "incomplete" : "completed");
    response.putNull("error");
    if ("length".equals(answer.finishReason)) {
      response.putObject("incomplete_details").put("reason", "max_output_tokens");
    } else {
      response.putNull("incomplete_details");
    }
    response.set("instructions", request.get("instructions"));
    response.set("max_output_tokens", request.get("max_output_tokens"));
    response.put("model", request.path("model").asString("scripted"));
    ArrayNode output = response.putArray("output");
    if (answer.items != null) {
      output.addAll(answer.items.deepCopy());
    }
    if (answer.reasoning != null) {
      ObjectNode reasoning = output.addObject();
      reasoning.put("id", "rs_" + hex());
      reasoning.put("type", "reasoning");
      ObjectNode summary = reasoning.putArray("summary").addObject();
      summary.put("type", "summary_text");
      summary.put("text", answer.reasoning);
      reasoning.put("status", "completed");
    }
    if (answer.text != null) {
      ObjectNode message = output.addObject();
      message.put("id", "msg_" + hex());
      message.put("type", "message");
      message.put("status", "completed");
      message.put("role", "assistant");
      ObjectNode text = message.putArray("content").addObject();
      text.put("type", "output_text");
      text.putArray("annotations");
      text.putArray("logprobs");
      text.put("text", answer.text);
    }
    for (Answer.ToolCall call : answer.toolCalls) {
      ObjectNode item = output.addObject();
      item.put("id", "fc_" + hex());
      item.put("type", "function_call");
      item.put("status", "completed");
      item.put("arguments", call.arguments());
      item.put("call_id", "call_" + hex());
      item.put("name", call.name());
    }
    response.put("parallel_tool_calls", request.path("parallel_tool_calls").asBoolean(true));
    response.set("temperature", request.has("temperature") ? request.get("temperature") : Json.toTree(1.0));
    response.set("tool_choice", request.has("tool_choice") ? request.get("tool_choice") : Json.toTree("auto"));
    response.set("tools", request.has("tools") ? request.get("tools") : Json.array());
    response.set("top_p", request.has("top_p") ? request.get("top_p") : Json.toTree(1.0));
    ObjectNode usage = response.putObject("usage");
    usage.put("input_tokens", prompt.size());
    usage.putObject("input_tokens_details").put("cached_tokens", 0);
    usage.put("output_tokens", generation.size());
    usage.putObject("output_tokens_details").put("reasoning_tokens",
        ScriptedTokenizer.words(answer.reasoning).size());
    usage.put("total_tokens", prompt.size() + generation.size());
    return response;
  }

  private void tokenize(ServerRequest req, ServerResponse res) {
    ObjectNode body = record(req);
    List<Integer> tokens = body.has("messages") ? ScriptedTokenizer.prompt(body.get("messages"))
        : ScriptedTokenizer.words(body.path("prompt").asString(""));
    ObjectNode answer = Json.object();
    answer.put("count", tokens.size());
    answer.put("max_model_len", 4096);
    answer.set("tokens", Json.toTree(tokens));
    answer.putNull("token_strs");
    send(res, 200, answer);
  }

  private static ObjectNode models() {
    ObjectNode list = Json.object();
    list.put("object", "list");
    ObjectNode model = list.putArray("data").addObject();
    model.put("id", "scripted");
    model.put("object", "model");
    model.put("owned_by", "gym4j");
    return list;
  }

  private static List<Integer> generation(Answer answer) {
    List<Integer> ids = new ArrayList<>(ScriptedTokenizer.words(answer.reasoning));
    ids.addAll(ScriptedTokenizer.words(answer.text));
    for (Answer.ToolCall call : answer.toolCalls) {
      ids.addAll(ScriptedTokenizer.words(call.name()));
      ids.addAll(ScriptedTokenizer.words(call.arguments()));
    }
    ids.add(ScriptedTokenizer.EOS);
    return ids;
  }

  private static double logProb(int index) {
    return -0.001 * (index % 7 + 1);
  }

  private static String hex() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  private static void send(ServerResponse res, int status, JsonNode body) {
    res.status(Status.create(status));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(Json.writeBytes(body));
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop();
  }
}
