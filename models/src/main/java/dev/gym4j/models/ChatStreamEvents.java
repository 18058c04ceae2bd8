package dev.gym4j.models;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseEvents;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Responses event stream made from an upstream's Chat Completions stream as its chunks arrive:
 * {@code response.created} at once, then a reasoning item, a message and function calls announced and
 * their deltas sent as the chunks bring them, and at the end each item's done events carrying the final
 * item and {@code response.completed}. The final Response is the one the non-streamed call makes from the
 * same answer (the server's own pipeline runs on the chunks added up, {@link ChunkedCompletion}); only its
 * id and {@code created_at} are those of {@code response.created}, and its reasoning and message items carry
 * the ids announced for them.
 *
 * <p>{@code <think>} blocks in the content become summary parts of the reasoning item, as
 * {@link ChatToResponses} splits them: only a tail that may be the start of a tag is held back, and a block
 * is sent when its closer arrives (an unclosed block stays text, so it goes out as text at the end). Items
 * are announced in the order their first delta arrives; an answer whose parts arrive in another order than
 * the final output's (text before a think block, text after a tool call) has its items' done events name the
 * indexes announced, while {@code response.completed} lists the items in the non-streamed order.
 *
 * <p>The upstream is read under an idle deadline and an event size limit, and what is written waits for our
 * caller, so a slow caller slows the upstream read; what is held is the answer itself (the final Response is
 * made from it), at most {@link EventRelay#MAX_ANSWER_CHARS}. An upstream that breaks, stalls, sends an error or ends
 * without {@code [DONE]}, or whose answer the pipeline refuses, ends the stream with an {@code error} event.
 */
final class ChatStreamEvents {
  private final ResponseEvents events;
  private final boolean splitThinking;
  private final boolean reasoningField;
  private final ChunkedCompletion chat = new ChunkedCompletion();
  private final String reasoningId = Ids.of("rs_");
  private final String messageId = Ids.of("msg_");
  /** Item ids in the order announced: the position is the output index. */
  private final List<String> announced = new ArrayList<>();
  private final Map<Integer, String> callIds = new HashMap<>();
  private int summaryParts;
  private boolean parserPartOpen;
  private final ThinkBlocks.Splitter splitter = new ThinkBlocks.Splitter(new ThinkBlocks.Parts() {
    @Override
    public void text(String text) throws IOException {
      ChatStreamEvents.this.text(text);
    }

    @Override
    public void thought(String text) throws IOException {
      ChatStreamEvents.this.thought(text);
    }
  });
  private final StringBuilder leadingSpace = new StringBuilder();
  /** The text of the summary part being streamed. */
  private final StringBuilder streamedPart = new StringBuilder();

  private ChatStreamEvents(ResponseEvents events, boolean splitThinking, boolean reasoningField) {
    this.events = events;
    this.splitThinking = splitThinking;
    this.reasoningField = reasoningField;
  }

  /**
   * @param head the Response as it starts (its id, {@code created_at} and echoed request fields)
   * @param splitThinking whether the server splits {@code <think>} blocks out of the text
   * @param reasoningField whether {@code reasoning_content}/{@code reasoning} deltas are reasoning (a reasoning
   *     parser), which the server wraps in a think block before the text
   * @param finish the server's pipeline from the added-up chat completion to the Response
   */
  static ServerSentEvents.Stream stream(URI url, InputStream upstream, Duration idle, ObjectNode head,
      boolean splitThinking, boolean reasoningField, Function<ObjectNode, Response> finish) {
    return ServerSentEvents.stream(sink -> {
      ResponseEvents events = new ResponseEvents(EventRelay.callerSink(sink));
      try (upstream) {
        events.started(head);
        ChatStreamEvents stream = new ChatStreamEvents(events, splitThinking, reasoningField);
        stream.read(upstream, idle);
        stream.end();
        Response response = finish.apply(stream.chat.completion());
        response.json().set("id", head.get("id"));
        response.json().set("created_at", head.get("created_at"));
        stream.finish(response);
      } catch (EventRelay.CallerFailed e) {
        throw e.getCause();
      } catch (IOException e) {
        events.error("upstream_error", Secrets.redact("upstream " + Upstream.shown(url) + " failed mid-stream: "
            + e.getMessage()));
      } catch (UpstreamException e) {
        events.error("upstream_error", Secrets.redact(e.getMessage()));
      }
    });
  }

  private void read(InputStream upstream, Duration idle) throws IOException {
    boolean[] done = {false};
    EventRelay.readAnswer(upstream, idle, EventRelay.MAX_ANSWER_CHARS, event -> {
      if (event.data().equals("[DONE]")) {
        done[0] = true;
        return false;
      }
      JsonNode json;
      try {
        json = event.json();
      } catch (JacksonException e) {
        throw new IOException("an event that is not JSON");
      }
      if (!(json instanceof ObjectNode chunk)) {
        throw new IOException("an event that is not a JSON object");
      }
      if (chunk.has("error")) {
        throw new IOException("an error: " + chunk.get("error").path("message").asString(chunk.get("error").toString()));
      }
      this.chat.add(chunk);
      onChunk(chunk);
      return true;
    });
    if (!done[0]) {
      throw new IOException("the stream ended before [DONE]");
    }
  }

  private void onChunk(ObjectNode chunk) throws IOException {
    for (JsonNode choice : chunk.path("choices")) {
      if (choice.path("index").asInt(0) != 0) {
        continue;
      }
      JsonNode delta = choice.path("delta");
      if (reasoningField) {
        JsonNode reasoning = delta.path("reasoning_content").isString() ? delta.get("reasoning_content")
            : delta.path("reasoning");
        if (reasoning.isString() && !reasoning.stringValue().isEmpty()) {
          reasoningDelta(reasoning.stringValue());
        }
      }
      if (delta.path("content").isString()) {
        content(delta.get("content").stringValue());
      }
      for (JsonNode call : delta.path("tool_calls")) {
        toolCall(call);
      }
    }
  }

  /** Reasoning from a reasoning parser: the server puts it first, so it is the first summary part. */
  private void reasoningDelta(String text) throws IOException {
    if (summaryParts == 0) {
      startPart();
      parserPartOpen = true;
    }
    if (parserPartOpen) {
      streamedPart.append(text);
      events.summaryDelta(reasoningId, index(reasoningId), 0, text);
    }
    // reasoning after a think block of the text is only in the final item: the server puts it before them
  }

  private void content(String text) throws IOException {
    if (splitThinking) {
      splitter.add(text);
    } else {
      text(text);
    }
  }

  /** A complete think block: a new summary part of the reasoning item. */
  private void thought(String text) throws IOException {
    startPart();
    parserPartOpen = false;
    streamedPart.append(text);
    if (!text.isEmpty()) {
      events.summaryDelta(reasoningId, index(reasoningId), summaryParts - 1, text);
    }
  }

  private void startPart() throws IOException {
    if (!announced.contains(reasoningId)) {
      ObjectNode item = Json.object().put("id", reasoningId).put("type", "reasoning");
      item.putArray("summary");
      announce(reasoningId, item);
    } else if (summaryParts > 0) {
      // the part before is complete: its text is the one streamed, as in the final item
      events.summaryDone(reasoningId, index(reasoningId), summaryParts - 1, summaryPart(streamedPart));
    }
    events.summaryStarted(reasoningId, index(reasoningId), summaryParts++);
    streamedPart.setLength(0);
  }

  private static ObjectNode summaryPart(CharSequence text) {
    return Json.object().put("type", "summary_text").put("text", text.toString());
  }

  /** Answer text. Whitespace before any item is held, so that a think block after it still comes first. */
  private void text(String text) throws IOException {
    if (text.isEmpty()) {
      return;
    }
    if (!announced.contains(messageId)) {
      if (announced.isEmpty() && text.isBlank()) {
        leadingSpace.append(text);
        return;
      }
      ObjectNode item = Json.object().put("id", messageId).put("type", "message").put("role", "assistant")
          .put("status", "in_progress");
      item.putArray("content");
      announce(messageId, item);
      events.textStarted(messageId, index(messageId), 0);
      text = leadingSpace + text;
      leadingSpace.setLength(0);
    }
    events.textDelta(messageId, index(messageId), 0, text);
  }

  private void toolCall(JsonNode call) throws IOException {
    int position = call.path("index").asInt(callIds.size());
    String id = callIds.get(position);
    if (id == null) {
      id = call.path("id").asString("");
      callIds.put(position, id);
      ObjectNode item = Json.object().put("id", id).put("type", "function_call").put("status", "in_progress")
          .put("arguments", "").put("call_id", id).put("name", call.path("function").path("name").asString(""));
      announce(id, item);
    }
    String arguments = call.path("function").path("arguments").asString("");
    if (!arguments.isEmpty()) {
      events.argumentsDelta(id, index(id), arguments);
    }
  }

  private void announce(String id, ObjectNode item) throws IOException {
    announced.add(id);
    events.itemAdded(item);
  }

  private int index(String id) {
    return announced.indexOf(id);
  }

  /** The stream ended: what was held back is text (an unclosed block stays text, as it does unstreamed). */
  private void end() throws IOException {
    if (splitThinking) {
      splitter.end();
    }
  }

  private void finish(Response response) throws IOException {
    Map<String, JsonNode> finals = new HashMap<>();
    for (JsonNode item : response.json().path("output")) {
      String type = item.path("type").asString("");
      if (type.equals("reasoning")) {
        ((ObjectNode) item).put("id", reasoningId);
      } else if (type.equals("message")) {
        ((ObjectNode) item).put("id", messageId);
      }
      finals.put(item.path("id").asString(""), item);
    }
    for (int index = 0; index < announced.size(); index++) {
      String id = announced.get(index);
      JsonNode item = finals.remove(id);
      if (item != null) {
        close(id, index, item);
      }
    }
    for (JsonNode item : response.json().path("output")) {
      if (finals.containsKey(item.path("id").asString(""))) {
        events.item(item);
      }
    }
    events.finished(response);
  }

  /** The done events of an announced item, from its final form. */
  private void close(String id, int index, JsonNode given) throws IOException {
    JsonNode item = dev.gym4j.wire.OpenAIShapes.item(given);
    switch (item.path("type").asString("")) {
      case "reasoning" -> {
        JsonNode summary = item.path("summary");
        for (int k = Math.max(summaryParts - 1, 0); k < summary.size(); k++) {
          if (k >= summaryParts) {
            events.summaryStarted(id, index, k);
            events.summaryDelta(id, index, k, summary.get(k).path("text").asString(""));
          }
          events.summaryDone(id, index, k, summary.get(k));
        }
      }
      case "message" -> events.textDone(id, index, 0, item.path("content").path(0));
      case "function_call" -> events.argumentsDone(id, index, item.path("name").asString(""),
          item.path("arguments").asString(""));
      default -> { }
    }
    events.itemDone(index, item);
  }
}
