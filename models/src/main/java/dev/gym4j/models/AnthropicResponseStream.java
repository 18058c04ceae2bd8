package dev.gym4j.models;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.OpenAIShapes;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An Anthropic event stream as Responses events, as the pieces arrive: text blocks in a row are one message
 * item's {@code output_text} deltas, a thinking block a reasoning item's summary-text deltas, a tool_use block a
 * function call's argument deltas (the {@code input_json_delta} pieces as sent; the done event has the arguments
 * as the non-streamed answer writes them). The items and the Response in {@code response.completed} are the
 * non-streaming path's ({@link AnthropicUpstream#response}) for the message the events made, with the item ids
 * announced in the stream and {@code response.created}'s id and time.
 */
final class AnthropicResponseStream implements AnthropicStream.Output {
  private final ResponseEvents events;
  private final URI url;
  private final ObjectNode request;
  private final String model;
  private final ObjectNode head;
  /** The ids of the reasoning and message items announced, in output order. */
  private final Deque<String> announced = new ArrayDeque<>();
  private String itemId;
  private int itemIndex;
  /** The message item of the text blocks so far, open until a block of another kind or the end. */
  private StringBuilder text;
  private boolean anyItem;

  AnthropicResponseStream(ServerSentEvents.Sink sink, URI url, ObjectNode request, String model) {
    this.events = new ResponseEvents(sink);
    this.url = url;
    this.request = request;
    this.model = model;
    this.head = AnthropicUpstream.head(request, model, Ids.of("resp_"), Instant.now().getEpochSecond());
  }

  @Override
  public void started(ObjectNode message) throws IOException {
    events.started(head);
  }

  @Override
  public void blockStarted(int index, ObjectNode block) throws IOException {
    String type = block.path("type").asString("");
    if (type.equals("text")) {
      if (text == null) {
        openMessage();
      }
      textDelta(block.path("text").asString(""));
      return;
    }
    closeMessage();
    anyItem = true;
    switch (type) {
      case "thinking" -> {
        itemId = announce("rs_");
        itemIndex = events.itemAdded(Json.object().put("type", "reasoning").put("id", itemId).set("summary",
            Json.array()));
        events.itemEvent("response.reasoning_summary_part.added", itemId, itemIndex, event -> event
            .put("summary_index", 0).set("part", Json.object().put("type", "summary_text").put("text", "")));
        thinkingDelta(block.path("thinking").asString(""));
      }
      case "redacted_thinking" -> {
        itemId = announce("rs_");
        itemIndex = events.itemAdded(Json.object().put("type", "reasoning").put("id", itemId).set("summary",
            Json.array()));
      }
      case "tool_use" -> {
        itemId = block.path("id").asString("");
        itemIndex = events.itemAdded(Json.object().put("type", "function_call").put("id", itemId)
            .put("call_id", itemId).put("name", block.path("name").asString("")).put("arguments", "")
            .put("status", "in_progress"));
      }
      default -> throw new FieldError(List.of("content", index, "type"), "unsupported content block '" + type + "'",
          "value_error");
    }
  }

  @Override
  public void delta(int index, ObjectNode block, ObjectNode delta) throws IOException {
    switch (delta.path("type").asString("")) {
      case "text_delta" -> textDelta(delta.path("text").asString(""));
      case "thinking_delta" -> thinkingDelta(delta.path("thinking").asString(""));
      case "input_json_delta" -> {
        String piece = delta.path("partial_json").asString("");
        if (!piece.isEmpty()) {
          events.itemEvent("response.function_call_arguments.delta", itemId, itemIndex, event -> event
              .put("delta", piece));
        }
      }
      default -> { } // a signature comes whole with the item
    }
  }

  @Override
  public void blockStopped(int index, ObjectNode block) throws IOException {
    String type = block.path("type").asString("");
    if (type.equals("text")) {
      return;
    }
    String id = itemId;
    ObjectNode item = AnthropicUpstream.item(block, List.of("content", index), prefix -> id);
    if (type.equals("thinking")) {
      JsonNode part = item.path("summary").path(0);
      events.itemEvent("response.reasoning_summary_text.done", id, itemIndex, event -> event.put("summary_index", 0)
          .put("text", part.path("text").asString("")));
      events.itemEvent("response.reasoning_summary_part.done", id, itemIndex, event -> event.put("summary_index", 0)
          .set("part", part));
    } else if (type.equals("tool_use")) {
      events.itemEvent("response.function_call_arguments.done", id, itemIndex, event -> event
          .put("name", item.path("name").asString("")).put("arguments", item.path("arguments").asString("")));
    }
    events.itemDone(itemIndex, item);
  }

  @Override
  public void finished(ObjectNode message) throws IOException {
    if (!anyItem && text == null) {
      openMessage();
    }
    closeMessage();
    Response response = Upstream.validated(url, () -> AnthropicUpstream.response(message, request, model, head,
        this::announcedId));
    events.finished(response);
  }

  @Override
  public void failed(String message) throws IOException {
    events.error("upstream_error", message);
  }

  private String announce(String prefix) {
    String id = Ids.of(prefix);
    announced.add(id);
    return id;
  }

  /** The next announced id, which has the prefix asked when the stream and the converter agree on the items. */
  private String announcedId(String prefix) {
    String next = announced.poll();
    return next != null && next.startsWith(prefix) ? next : Ids.of(prefix);
  }

  private void openMessage() throws IOException {
    itemId = announce("msg_");
    text = new StringBuilder();
    itemIndex = events.itemAdded(Json.object().put("type", "message").put("id", itemId).put("role", "assistant")
        .put("status", "in_progress").set("content", Json.array()));
    events.itemEvent("response.content_part.added", itemId, itemIndex, event -> event.put("content_index", 0)
        .set("part", Json.object().put("type", "output_text").put("text", "").set("annotations", Json.array())));
  }

  private void textDelta(String piece) throws IOException {
    if (!piece.isEmpty()) {
      text.append(piece);
      events.itemEvent("response.output_text.delta", itemId, itemIndex, event -> event.put("content_index", 0)
          .put("delta", piece).set("logprobs", Json.array()));
    }
  }

  private void thinkingDelta(String piece) throws IOException {
    if (!piece.isEmpty()) {
      events.itemEvent("response.reasoning_summary_text.delta", itemId, itemIndex, event -> event
          .put("summary_index", 0).put("delta", piece));
    }
  }

  /** Ends the open message item, if any: its text and part done, then the item. */
  private void closeMessage() throws IOException {
    if (text == null) {
      return;
    }
    ObjectNode item = AnthropicUpstream.outputMessage(text.toString(), itemId);
    JsonNode part = OpenAIShapes.item(item).path("content").path(0);
    events.itemEvent("response.output_text.done", itemId, itemIndex, event -> event.put("content_index", 0)
        .put("text", part.path("text").asString("")).set("logprobs", Json.array()));
    events.itemEvent("response.content_part.done", itemId, itemIndex, event -> event.put("content_index", 0)
        .set("part", part));
    events.itemDone(itemIndex, item);
    text = null;
    anyItem = true;
  }
}
