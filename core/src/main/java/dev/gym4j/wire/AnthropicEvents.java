package dev.gym4j.wire;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.Secrets;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Responses event stream turned into an Anthropic Messages stream as it goes: a {@link ServerSentEvents.Sink}
 * that takes Responses events ({@link ResponseEvents}' names and fields) and writes Anthropic's to the sink it
 * wraps. {@code response.created} becomes {@code message_start}; each output item becomes the content blocks
 * {@link AnthropicMessages#blocks} makes of it; {@code response.completed} or {@code .incomplete} becomes
 * {@code message_delta} (stop reason and usage, as {@link AnthropicMessages#fromResponse} gives them) and
 * {@code message_stop}; an {@code error} event or {@code response.failed} an Anthropic {@code error} event,
 * redacted. Extra fields of the final event (an agent's {@code gym4j_cookies}) are not passed on.
 *
 * <p>Read back as Anthropic's SDKs accumulate a stream (a block is its start event with its deltas applied), the
 * events rebuild the message {@code fromResponse} makes of the final response. A block's start is the only place
 * for its fields, so fields known only when its item is done (token ids, a function call's arguments that might not
 * parse) decide what goes out when:
 * <ul>
 *   <li>{@link #live}: text and thinking blocks start when their part does and get each delta as it arrives; the
 *   rest of the text, a thinking block's signature and its stop follow when the item is done. Tool-use and
 *   redacted-thinking blocks go out whole when their item is done, token ids included. A live block's token ids
 *   are known only after its start: they do not reach the client (a caller that needs them asks unstreamed).
 *   <li>{@link #itemByItem}: each item's blocks go out whole when the item is done, token ids included; for a
 *   source whose items are final when streamed (an agent's episode), or whose token ids matter more than seeing
 *   text as it is made (a model server for training).
 * </ul>
 */
public final class AnthropicEvents implements ServerSentEvents.Sink {
  private final ServerSentEvents.Sink out;
  private final String id;
  private final String model;
  private final boolean live;
  private final String failureField;
  private int nextIndex;
  private boolean started;
  private boolean ended;
  /** Blocks started live, by output index, in order. */
  private final Map<Integer, List<LiveBlock>> liveByItem = new HashMap<>();
  /** Blocks started live, by the part they stream: {@code "<output>:<content>"} or {@code "<output>:s<summary>"}. */
  private final Map<String, LiveBlock> liveByPart = new HashMap<>();

  private static final class LiveBlock {
    final int index;
    final String type;
    final StringBuilder text = new StringBuilder();

    LiveBlock(int index, String type) {
      this.index = index;
      this.type = type;
    }
  }

  private AnthropicEvents(ServerSentEvents.Sink out, String id, String model, boolean live, String failureField) {
    this.out = out;
    this.id = id;
    this.model = model;
    this.live = live;
    this.failureField = failureField;
  }

  /** Text and thinking stream delta by delta (a model server relaying its upstream). */
  public static AnthropicEvents live(ServerSentEvents.Sink out, String id, String model) {
    return new AnthropicEvents(out, id, model, true, null);
  }

  /**
   * Each item's blocks whole when it is done (an agent's episode); an error event's code is kept in the
   * Anthropic error under {@code failureField}.
   */
  public static AnthropicEvents itemByItem(ServerSentEvents.Sink out, String id, String model, String failureField) {
    return new AnthropicEvents(out, id, model, false, failureField);
  }

  @Override
  public void send(String name, Object data) throws IOException {
    if (ended) {
      return;
    }
    JsonNode event = data instanceof JsonNode node ? node : Json.toTree(data);
    String type = event.path("type").asString(name == null ? "" : name);
    try {
      switch (type) {
        case "response.created", "response.in_progress" -> start();
        case "response.content_part.added" -> {
          JsonNode part = event.path("part");
          if (part.path("type").asString("").equals("refusal") || part.has("text")) {
            startLive(event, event.path("content_index").asInt() + "", "text");
          }
        }
        case "response.reasoning_summary_part.added" -> startLive(event, "s" + event.path("summary_index").asInt(),
            "thinking");
        case "response.output_text.delta", "response.refusal.delta" ->
            delta(event, event.path("content_index").asInt() + "", "text");
        case "response.reasoning_summary_text.delta" ->
            delta(event, "s" + event.path("summary_index").asInt(), "thinking");
        case "response.output_item.done" -> itemDone(event.path("output_index").asInt(), event.path("item"));
        case "response.completed", "response.incomplete" -> finish(event);
        case "response.failed" -> fail("api_error", event.path("response").path("error").path("message")
            .asString("the response failed"), null);
        case "error" -> fail(event.path("code").asString("").contains("timeout") ? "timeout_error" : "api_error",
            event.path("message").asString("the response failed"), event.path("code").asString(null));
        default -> { } // the other Responses events add nothing a Messages client reads
      }
    } catch (dev.gym4j.json.FieldError | IllegalArgumentException e) {
      fail("api_error", "the answer's stream was malformed: " + e.getMessage(), null);
    }
  }

  @Override
  public void sendText(String name, String data) {
    // a Responses stream's events are JSON; raw text (Chat Completions' [DONE]) has no Anthropic counterpart
  }

  /** Whether {@code message_stop} or an error went out. */
  public boolean ended() {
    return ended;
  }

  /** Ends with an Anthropic {@code error} event (its message redacted), unless the message already ended. */
  public void fail(String errorType, String message, String code) throws IOException {
    if (ended) {
      return;
    }
    ended = true;
    ObjectNode error = AnthropicMessages.errorBody(errorType, Secrets.redact(message));
    if (failureField != null && code != null && !code.isEmpty()) {
      error.put(failureField, code);
    }
    emit(new AnthropicMessages.Event("error", error));
  }

  private void start() throws IOException {
    if (!started) {
      started = true;
      emit(AnthropicMessages.start(id, model));
    }
  }

  private LiveBlock startLive(JsonNode event, String part, String type) throws IOException {
    if (!live) {
      return null;
    }
    start();
    int output = event.path("output_index").asInt();
    LiveBlock block = new LiveBlock(nextIndex++, type);
    liveByItem.computeIfAbsent(output, key -> new ArrayList<>()).add(block);
    liveByPart.put(output + ":" + part, block);
    ObjectNode shell = Json.object().put("type", type).put(type, "");
    if (type.equals("thinking")) {
      shell.put("signature", "");
    }
    ObjectNode data = Json.object().put("type", "content_block_start").put("index", block.index);
    data.set("content_block", shell);
    emit(new AnthropicMessages.Event("content_block_start", data));
    return block;
  }

  /** A delta of a live block; a part whose start was not announced starts with its first delta. */
  private void delta(JsonNode event, String part, String type) throws IOException {
    String text = event.path("delta").asString("");
    LiveBlock block = liveByPart.get(event.path("output_index").asInt() + ":" + part);
    if (block == null && !text.isEmpty()) {
      block = startLive(event, part, type);
    }
    if (block != null && !text.isEmpty()) {
      block.text.append(text);
      emitDelta(block, text);
    }
  }

  private void emitDelta(LiveBlock block, String text) throws IOException {
    String deltaType = block.type.equals("text") ? "text_delta" : "thinking_delta";
    ObjectNode data = Json.object().put("type", "content_block_delta").put("index", block.index);
    data.putObject("delta").put("type", deltaType).put(block.type, text);
    emit(new AnthropicMessages.Event("content_block_delta", data));
  }

  /** The item's blocks: those started live get what they still lack and stop; the others go out whole. */
  private void itemDone(int output, JsonNode json) throws IOException {
    start();
    Item item = Item.of(json);
    List<ObjectNode> blocks = AnthropicMessages.blocks(item);
    if (!blocks.isEmpty()) {
      blocks.getLast().setAll(AnthropicMessages.tokenFields(item.json()));
    }
    List<LiveBlock> started = liveByItem.getOrDefault(output, List.of());
    liveByItem.remove(output);
    liveByPart.keySet().removeIf(key -> key.startsWith(output + ":"));
    for (int i = 0; i < blocks.size(); i++) {
      ObjectNode block = blocks.get(i);
      if (i < started.size() && started.get(i).type.equals(block.path("type").asString(""))) {
        complete(started.get(i), block);
      } else {
        for (AnthropicMessages.Event event : AnthropicMessages.blockEvents(nextIndex++, block)) {
          emit(event);
        }
      }
    }
    for (int i = blocks.size(); i < started.size(); i++) {
      stop(started.get(i).index);
    }
  }

  /** A live block's missing text (an upstream may send less in deltas than in the done item), signature and stop. */
  private void complete(LiveBlock live, ObjectNode block) throws IOException {
    String whole = block.path(live.type).asString("");
    if (whole.length() > live.text.length() && whole.startsWith(live.text.toString())) {
      emitDelta(live, whole.substring(live.text.length()));
    }
    String signature = block.path("signature").asString("");
    if (live.type.equals("thinking") && !signature.isEmpty()) {
      ObjectNode data = Json.object().put("type", "content_block_delta").put("index", live.index);
      data.putObject("delta").put("type", "signature_delta").put("signature", signature);
      emit(new AnthropicMessages.Event("content_block_delta", data));
    }
    stop(live.index);
  }

  private void stop(int index) throws IOException {
    emit(new AnthropicMessages.Event("content_block_stop",
        Json.object().put("type", "content_block_stop").put("index", index)));
  }

  private void finish(JsonNode event) throws IOException {
    start();
    for (List<LiveBlock> open : liveByItem.values()) {
      for (LiveBlock block : open) {
        stop(block.index);
      }
    }
    liveByItem.clear();
    ObjectNode message = AnthropicMessages.fromResponse(Response.of(event.path("response")), id, model);
    ended = true;
    for (AnthropicMessages.Event e : AnthropicMessages.end(message)) {
      emit(e);
    }
  }

  private void emit(AnthropicMessages.Event event) throws IOException {
    out.send(event.name(), event.data());
  }
}
