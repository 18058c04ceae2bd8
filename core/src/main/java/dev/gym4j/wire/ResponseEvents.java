package dev.gym4j.wire;

import java.io.IOException;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Responses API's stream events for a response, written to a {@link ServerSentEvents.Sink} with
 * sequence numbers from 0: {@code response.created} and {@code response.in_progress}, then per output item
 * {@code response.output_item.added}, the item's deltas ({@code output_text}, function-call arguments,
 * reasoning summary text) and {@code response.output_item.done}, and last {@code response.completed} (or
 * {@code response.incomplete}) with the whole response. Items may be given one at a time as they are ready
 * ({@link #item}), so an agent streams its episode as it goes; the done events carry each item whole, token
 * ids and log-probs included.
 *
 * <p>Event names and fields as in OpenAI's OpenAPI document ({@code ResponseStreamEvent}); NeMo Gym's
 * model servers pass the same events on from their upstream.
 */
public final class ResponseEvents {
  private final ServerSentEvents.Sink sink;
  private int sequence;
  private int outputIndex;

  public ResponseEvents(ServerSentEvents.Sink sink) {
    this.sink = sink;
  }

  /** Streams a finished response whole. */
  public static void replay(Response response, ServerSentEvents.Sink sink) throws IOException {
    ResponseEvents events = new ResponseEvents(sink);
    events.started(response.json());
    for (JsonNode item : response.json().path("output")) {
      events.item(item);
    }
    events.finished(response);
  }

  /**
   * {@code response.created} and {@code response.in_progress}, for a response that has started: {@code head}'s
   * fields with status {@code in_progress}, no output and no usage yet.
   */
  public void started(ObjectNode head) throws IOException {
    ObjectNode response = OpenAIShapes.response(head);
    response.put("status", "in_progress");
    response.putArray("output");
    response.remove("usage");
    if (response.has("completed_at")) {
      response.putNull("completed_at");
    }
    response.putNull("incomplete_details");
    send("response.created", event -> event.set("response", response));
    send("response.in_progress", event -> event.set("response", response));
  }

  /** One output item: added, its deltas, done. */
  public void item(JsonNode given) throws IOException {
    ObjectNode item = OpenAIShapes.item(given);
    int index = outputIndex++;
    String id = item.path("id").asString("");
    ObjectNode added = item.deepCopy();
    for (String field : new String[] {Item.PROMPT_TOKEN_IDS, Item.GENERATION_TOKEN_IDS, Item.GENERATION_LOG_PROBS,
        Item.ROUTED_EXPERTS}) {
      added.remove(field);
    }
    if (added.has("status")) {
      added.put("status", "in_progress");
    }
    switch (item.path("type").asString("message")) {
      case Message.TYPE -> {
        added.putArray("content");
        send("response.output_item.added", event -> event.put("output_index", index).set("item", added));
        messageParts(item, id, index);
      }
      case FunctionCall.TYPE -> {
        added.put("arguments", "");
        send("response.output_item.added", event -> event.put("output_index", index).set("item", added));
        String arguments = item.path("arguments").asString("");
        send("response.function_call_arguments.delta", event -> event.put("item_id", id).put("output_index", index)
            .put("delta", arguments));
        send("response.function_call_arguments.done", event -> event.put("item_id", id)
            .put("name", item.path("name").asString("")).put("output_index", index).put("arguments", arguments));
      }
      case Reasoning.TYPE -> {
        added.putArray("summary");
        send("response.output_item.added", event -> event.put("output_index", index).set("item", added));
        summaries(item, id, index);
      }
      default -> send("response.output_item.added", event -> event.put("output_index", index).set("item", added));
    }
    send("response.output_item.done", event -> event.put("output_index", index).set("item", item));
  }

  private void messageParts(JsonNode item, String id, int index) throws IOException {
    JsonNode content = item.path("content");
    for (int j = 0; j < content.size(); j++) {
      JsonNode part = content.get(j);
      int contentIndex = j;
      ObjectNode empty = part instanceof ObjectNode object ? object.deepCopy() : Json.object();
      boolean text = "output_text".equals(part.path("type").asString(""));
      if (text) {
        empty.put("text", "");
        empty.putArray("annotations");
        empty.putArray("logprobs");
      }
      send("response.content_part.added", event -> event.put("item_id", id).put("output_index", index)
          .put("content_index", contentIndex).set("part", empty));
      if (text) {
        String whole = part.path("text").asString("");
        JsonNode logprobs = part.get("logprobs") instanceof ArrayNode list ? list : Json.array();
        send("response.output_text.delta", event -> event.put("item_id", id).put("output_index", index)
            .put("content_index", contentIndex).put("delta", whole).set("logprobs", logprobs));
        send("response.output_text.done", event -> event.put("item_id", id).put("output_index", index)
            .put("content_index", contentIndex).put("text", whole).set("logprobs", logprobs));
      }
      send("response.content_part.done", event -> event.put("item_id", id).put("output_index", index)
          .put("content_index", contentIndex).set("part", part));
    }
  }

  private void summaries(JsonNode item, String id, int index) throws IOException {
    JsonNode summary = item.path("summary");
    for (int k = 0; k < summary.size(); k++) {
      JsonNode part = summary.get(k);
      int summaryIndex = k;
      String text = part.path("text").asString("");
      ObjectNode empty = Json.object().put("type", "summary_text").put("text", "");
      send("response.reasoning_summary_part.added", event -> event.put("item_id", id).put("output_index", index)
          .put("summary_index", summaryIndex).set("part", empty));
      send("response.reasoning_summary_text.delta", event -> event.put("item_id", id).put("output_index", index)
          .put("summary_index", summaryIndex).put("delta", text));
      send("response.reasoning_summary_text.done", event -> event.put("item_id", id).put("output_index", index)
          .put("summary_index", summaryIndex).put("text", text));
      send("response.reasoning_summary_part.done", event -> event.put("item_id", id).put("output_index", index)
          .put("summary_index", summaryIndex).set("part", part));
    }
  }

  // ---------------------------------------------------------------- an item streamed as it is made

  /**
   * {@code response.output_item.added} for an item whose content follows piece by piece ({@link #itemEvent},
   * then {@link #itemDone}), as an upstream streams it; returns the item's output index.
   */
  public int itemAdded(ObjectNode shell) throws IOException {
    ObjectNode item = OpenAIShapes.item(shell);
    int index = outputIndex++;
    send("response.output_item.added", event -> event.put("output_index", index).set("item", item));
    return index;
  }

  /**
   * One event about the item at {@code index} as it grows, such as {@code response.output_text.delta}:
   * {@code item_id} and {@code output_index}, then the given fields.
   */
  public void itemEvent(String type, String itemId, int index, java.util.function.Consumer<ObjectNode> fields)
      throws IOException {
    send(type, event -> {
      event.put("item_id", itemId).put("output_index", index);
      fields.accept(event);
    });
  }

  /** {@code response.output_item.done} for the item at {@code index}, whole. */
  public void itemDone(int index, JsonNode item) throws IOException {
    ObjectNode whole = OpenAIShapes.item(item);
    send("response.output_item.done", event -> event.put("output_index", index).set("item", whole));
  }

  /** The last event: {@code response.completed}, or {@code response.incomplete}/{@code failed} by the status. */
  public void finished(Response response) throws IOException {
    String type = switch (response.status() == null ? Response.COMPLETED : response.status()) {
      case Response.INCOMPLETE -> "response.incomplete";
      case "failed" -> "response.failed";
      default -> "response.completed";
    };
    ObjectNode whole = OpenAIShapes.response(response.json());
    send(type, event -> event.set("response", whole));
  }

  /** An {@code error} event, for a failure after the stream has started. */
  public void error(String code, String message) throws IOException {
    send("error", event -> event.put("code", code).put("message", message).putNull("param"));
  }

  private void send(String type, java.util.function.Consumer<ObjectNode> fields) throws IOException {
    ObjectNode event = Json.object();
    event.put("type", type);
    fields.accept(event);
    event.put("sequence_number", sequence++);
    sink.send(type, event);
  }
}
