package dev.gym4j.wire;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.JsonView;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One item of a Responses API {@code input} or {@code output} list.
 *
 * <p>The discriminator is {@code type}; an item with a {@code role} and no {@code type} is a message (the
 * "easy" input form datasets use). Hosted-tool items and types gym4j does not model are kept as
 * {@link OtherItem}, whole.
 */
public sealed interface Item extends JsonView permits Message, FunctionCall, FunctionCallOutput, Reasoning, OtherItem {
  String PROMPT_TOKEN_IDS = "prompt_token_ids";
  String GENERATION_TOKEN_IDS = "generation_token_ids";
  String GENERATION_LOG_PROBS = "generation_log_probs";
  String ROUTED_EXPERTS = "routed_experts";

  /** Wraps a JSON item without copying it; the item's shape is checked, naming the bad field. */
  static Item of(JsonNode node, List<Object> path) {
    ObjectNode json = Shape.object(node, path);
    String type = Shape.text(json, "type");
    if (type == null && json.has("type") && !json.get("type").isNull()) {
      throw new FieldError(Shape.at(path, "type"), "Input should be a valid string", "string_type");
    }
    if (type == null) {
      if (!json.has("role")) {
        throw new FieldError(Shape.at(path, "type"), "Field required: an item needs a type, or a role for a message",
            "missing");
      }
      type = Message.TYPE;
    }
    checkTokenBundle(json, path);
    Item item = switch (type) {
      case Message.TYPE -> new Message(json);
      case FunctionCall.TYPE -> new FunctionCall(json);
      case FunctionCallOutput.TYPE -> new FunctionCallOutput(json);
      case Reasoning.TYPE -> new Reasoning(json);
      default -> new OtherItem(json);
    };
    item.validate(path);
    return item;
  }

  static Item of(JsonNode node) {
    return of(node, List.of());
  }

  /** Checks the fields this item type requires; the default accepts anything. */
  default void validate(List<Object> path) {}

  default String type() {
    String type = Shape.text(json(), "type");
    return type == null ? Message.TYPE : type;
  }

  /** True when the item carries the token ids and log-probs of the model call that produced it. */
  default boolean hasTokenInfo() {
    return json().has(GENERATION_TOKEN_IDS);
  }

  private static void checkTokenBundle(ObjectNode json, List<Object> path) {
    boolean any = json.has(PROMPT_TOKEN_IDS) || json.has(GENERATION_TOKEN_IDS)
        || json.has(GENERATION_LOG_PROBS) || json.has(ROUTED_EXPERTS);
    if (!any) {
      return;
    }
    for (String field : List.of(PROMPT_TOKEN_IDS, GENERATION_TOKEN_IDS, GENERATION_LOG_PROBS)) {
      JsonNode value = json.get(field);
      if (value == null || !value.isArray()) {
        throw new FieldError(Shape.at(path, field),
            "token information comes as a bundle: prompt_token_ids, generation_token_ids and generation_log_probs "
                + "must all be lists when any of them is present", "missing");
      }
    }
    if (json.get(GENERATION_TOKEN_IDS).size() != json.get(GENERATION_LOG_PROBS).size()) {
      throw new FieldError(Shape.at(path, GENERATION_LOG_PROBS),
          "generation_log_probs must have one entry per generation token id", "value_error");
    }
  }
}
