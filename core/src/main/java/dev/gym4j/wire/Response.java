package dev.gym4j.wire;

import java.util.List;
import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A Responses API response object ({@code "object": "response"}). */
public record Response(ObjectNode json) implements JsonView {
  public static final String COMPLETED = "completed";
  public static final String INCOMPLETE = "incomplete";

  public static Response of(JsonNode node, List<Object> path) {
    ObjectNode json = Shape.object(node, path);
    Shape.optionalString(json, "id", path);
    Shape.optionalString(json, "status", path);
    Shape.optionalObject(json, "usage", path);
    if (json.get("usage") instanceof ObjectNode usage) {
      for (String count : List.of("input_tokens", "output_tokens", "total_tokens")) {
        Shape.optionalCount(usage, count, Shape.at(path, "usage"));
      }
    }
    Shape.optionalObject(json, "incomplete_details", path);
    JsonNode output = Shape.required(json, "output", path);
    if (hasTransitions(json)) {
      for (int i = 0; i < output.size(); i++) {
        Items.read(output.get(i), Shape.at(Shape.at(path, "output"), i));
      }
    } else {
      Items.read(output, Shape.at(path, "output"));
    }
    return new Response(json);
  }

  public static Response of(JsonNode node) {
    return of(node, List.of());
  }

  public String id() {
    return Shape.text(json, "id");
  }

  public String model() {
    return Shape.text(json, "model");
  }

  /** {@code completed}, {@code incomplete}, {@code failed} or {@code in_progress}; null when not given. */
  public String status() {
    return Shape.text(json, "status");
  }

  /** True when the model stopped early (token limit, content filter). */
  public boolean isIncomplete() {
    JsonNode details = json.get("incomplete_details");
    return INCOMPLETE.equals(status()) || (details != null && !details.isNull());
  }

  /**
   * The output items. For an agent that records transitions ({@code contains_transitions: true}, whose
   * {@code output} is a list of item lists, one per step), the items of the last transition.
   */
  public List<Item> output() {
    if (hasTransitions(json)) {
      List<List<Item>> transitions = transitions();
      return transitions.isEmpty() ? List.of() : transitions.getLast();
    }
    return Items.read(json.get("output"), List.of("output"));
  }

  /** The steps of a transition-recording agent (Aviary and the like); empty for a plain response. */
  public List<List<Item>> transitions() {
    if (!hasTransitions(json)) {
      return List.of();
    }
    JsonNode output = json.get("output");
    List<List<Item>> transitions = new java.util.ArrayList<>();
    for (int i = 0; i < output.size(); i++) {
      transitions.add(Items.read(output.get(i), List.of("output", i)));
    }
    return transitions;
  }

  private static boolean hasTransitions(ObjectNode json) {
    return json.path("contains_transitions").asBoolean(false);
  }

  /** All {@code output_text} of the assistant messages joined, as the SDK's {@code output_text} property. */
  public String outputText() {
    StringBuilder out = new StringBuilder();
    for (Item item : output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        out.append(message.text());
      }
    }
    return out.toString();
  }

  /**
   * Every {@code output_text} part of every message item, joined with nothing between them: the text
   * NeMo Gym's verifiers read ({@code extract_text}). User messages written as plain strings (the
   * observations of a Gymnasium episode) have no such parts and are left out.
   */
  public String outputTextParts() {
    StringBuilder out = new StringBuilder();
    for (Item item : output()) {
      if (item instanceof Message message && message.json().get("content") instanceof tools.jackson.databind.node.ArrayNode parts) {
        for (JsonNode part : parts) {
          if ("output_text".equals(Shape.text(part, "type"))) {
            out.append(Shape.text(part, "text") == null ? "" : Shape.text(part, "text"));
          }
        }
      }
    }
    return out.toString();
  }

  /** The text of each assistant message, in order. */
  public List<String> assistantTexts() {
    List<String> texts = new java.util.ArrayList<>();
    for (Item item : output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        texts.add(message.text());
      }
    }
    return texts;
  }

  /**
   * The texts of each assistant message, in order: its content when that is a string, else the {@code text} of
   * every content part that has one (whatever the part's type).
   */
  public List<String> assistantContentTexts() {
    List<String> texts = new java.util.ArrayList<>();
    for (Item item : output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.stringValue());
        }
        for (JsonNode part : content.isArray() ? content : List.<JsonNode>of()) {
          if (part.path("text").isString()) {
            texts.add(part.get("text").stringValue());
          }
        }
      }
    }
    return texts;
  }

  public Optional<Usage> usage() {
    JsonNode usage = json.get("usage");
    return usage != null && usage.isObject() ? Optional.of(new Usage((ObjectNode) usage)) : Optional.empty();
  }

  public Response withOutput(List<? extends Item> items) {
    ObjectNode copy = Json.copyClearing(json, java.util.Set.of("output"));
    copy.set("output", Items.write(items));
    return new Response(copy);
  }

  public Response withUsage(Usage usage) {
    ObjectNode copy = Json.copyClearing(json, java.util.Set.of("usage"));
    copy.set("usage", usage == null ? null : usage.json());
    return new Response(copy);
  }
}
