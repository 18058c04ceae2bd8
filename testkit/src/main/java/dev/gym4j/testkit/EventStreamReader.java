package dev.gym4j.testkit;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads a whole {@code text/event-stream} body, and rebuilds an Anthropic message from its events as a client does. */
public final class EventStreamReader {
  /** One event: its {@code event:} name and its {@code data:} as JSON. */
  public record Event(String name, JsonNode data) {}

  private EventStreamReader() {}

  public static List<Event> read(String body) {
    List<Event> events = new ArrayList<>();
    for (String block : body.replace("\r\n", "\n").split("\n\n")) {
      String name = null;
      StringBuilder data = new StringBuilder();
      for (String line : block.split("\n")) {
        if (line.startsWith("event:")) {
          name = line.substring(6).strip();
        } else if (line.startsWith("data:")) {
          data.append(line.substring(5).strip());
        }
      }
      if (name != null || !data.isEmpty()) {
        events.add(new Event(name, data.isEmpty() ? null : Json.parse(data.toString())));
      }
    }
    return events;
  }

  /** The message Anthropic's events describe: the start's shell, each block with its deltas applied, the final delta. */
  public static ObjectNode anthropicMessage(List<Event> events) {
    ObjectNode message = null;
    // a tool_use block's input arrives as pieces of JSON that parse only once the block stops (as the SDKs read it)
    java.util.Map<Integer, StringBuilder> json = new java.util.HashMap<>();
    // text and thinking grow in place, set on the block when it stops or the events end: a long answer has
    // tens of thousands of deltas, and a string rebuilt per delta would copy it quadratically
    java.util.Map<Integer, StringBuilder> text = new java.util.TreeMap<>();
    for (Event event : events) {
      JsonNode data = event.data();
      switch (event.name()) {
        case "message_start" -> message = (ObjectNode) data.get("message").deepCopy();
        case "content_block_start" -> {
          ((ArrayNode) message.get("content")).add(data.get("content_block").deepCopy());
        }
        case "content_block_delta" -> {
          ObjectNode block = (ObjectNode) message.get("content").get(data.get("index").asInt());
          JsonNode delta = data.get("delta");
          switch (delta.get("type").asString()) {
            case "text_delta", "thinking_delta" -> {
              String field = delta.get("type").asString().equals("text_delta") ? "text" : "thinking";
              text.computeIfAbsent(data.get("index").asInt(), key -> new StringBuilder(block.get(field).asString()))
                  .append(delta.get(field).asString());
            }
            case "signature_delta" -> block.put("signature", delta.get("signature").asString());
            case "input_json_delta" -> json.computeIfAbsent(data.get("index").asInt(), key -> new StringBuilder())
                .append(delta.get("partial_json").asString());
            default -> throw new AssertionError("unknown delta " + delta);
          }
        }
        case "content_block_stop" -> {
          grown(message, data.get("index").asInt(), text.remove(data.get("index").asInt()));
          StringBuilder input = json.remove(data.get("index").asInt());
          if (input != null && !input.isEmpty()) {
            ((ObjectNode) message.get("content").get(data.get("index").asInt())).set("input", Json.parse(input.toString()));
          }
        }
        case "message_delta" -> {
          message.setAll((ObjectNode) data.get("delta"));
          ((ObjectNode) message.get("usage")).setAll((ObjectNode) data.get("usage"));
        }
        default -> { } // ping, message_stop
      }
    }
    for (var open : text.entrySet()) { // blocks an error cut short keep what came
      grown(message, open.getKey(), open.getValue());
    }
    return message;
  }

  private static void grown(ObjectNode message, int index, StringBuilder text) {
    if (text != null) {
      ObjectNode block = (ObjectNode) message.get("content").get(index);
      block.put(block.has("text") ? "text" : "thinking", text.toString());
    }
  }
}
