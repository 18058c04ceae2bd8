package dev.gym4j.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Anthropic Messages API in terms of our Responses items, both ways: a Messages request becomes Responses
 * create params and a Response becomes a Messages answer (what a model server or an agent serves on
 * {@code POST /v1/messages}); Responses params become a Messages request and a Messages answer a Response (what
 * {@code anthropic_model} sends to and reads from its upstream). The mapping is NeMo Gym's
 * ({@code nemo_gym/anthropic_converter.py}); token ids travel as extra fields on the content block made from
 * the item that carried them, and back.
 */
public final class AnthropicMessages {
  private static final Set<String> TOKEN_FIELDS = Set.of(Item.PROMPT_TOKEN_IDS, Item.GENERATION_TOKEN_IDS,
      Item.GENERATION_LOG_PROBS, Item.ROUTED_EXPERTS);
  private static final Set<String> IMAGE_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");

  private AnthropicMessages() {}

  // ---------------------------------------------------------------- Messages request -> Responses params

  /** A Messages request as Responses create params; a field of the wrong shape is a {@link FieldError} naming it. */
  public static ResponseCreateParams toResponses(JsonNode node) {
    ObjectNode body = Shape.object(node, List.of());
    List<Object> root = List.of();
    JsonNode model = Shape.required(body, "model", root);
    if (!model.isString()) {
      throw new FieldError(List.of("model"), "Input should be a valid string", "string_type");
    }
    JsonNode maxTokens = Shape.required(body, "max_tokens", root);
    if (!maxTokens.isIntegralNumber() || Shape.longValue(maxTokens, List.of("max_tokens")) < 1) {
      throw new FieldError(List.of("max_tokens"), "Input should be an integer of at least 1", "int_type");
    }
    Shape.optionalNumber(body, "temperature", root);
    Shape.optionalNumber(body, "top_p", root);
    Shape.optionalBoolean(body, "stream", root);
    JsonNode messages = Shape.required(body, "messages", root);
    if (!messages.isArray()) {
      throw new FieldError(List.of("messages"), "Input should be a valid list", "list_type");
    }
    ObjectNode params = Json.object();
    ArrayNode input = params.putArray("input");
    for (int i = 0; i < messages.size(); i++) {
      List<Object> path = List.of("messages", i);
      ObjectNode message = Shape.object(messages.get(i), path);
      String role = Shape.text(message, "role");
      if (!"user".equals(role) && !"assistant".equals(role)) {
        throw new FieldError(Shape.at(path, "role"), "Input should be 'user' or 'assistant'", "literal_error");
      }
      JsonNode content = Shape.required(message, "content", path);
      if (content.isString()) {
        input.add(easyMessage(role, content.asString()));
      } else if (content.isArray()) {
        blocksToItems(role, content, Shape.at(path, "content"), input);
      } else {
        throw new FieldError(Shape.at(path, "content"), "Input should be a string or a list of content blocks",
            "value_error");
      }
    }
    String instructions = systemText(body.get("system"));
    if (!instructions.isEmpty()) {
      params.put("instructions", instructions);
    }
    params.set("model", model);
    params.set("max_output_tokens", maxTokens);
    for (String field : List.of("temperature", "top_p")) {
      if (body.get(field) instanceof JsonNode value && value.isNumber()) {
        params.set(field, value);
      }
    }
    if (body.get("tools") instanceof JsonNode tools && !tools.isNull()) {
      params.set("tools", toolsToResponses(tools));
    }
    if (body.get("tool_choice") instanceof JsonNode choice && !choice.isNull()) {
      params.set("tool_choice", toolChoiceToResponses(choice));
    }
    return ResponseCreateParams.of(params);
  }

  private static ObjectNode easyMessage(String role, String text) {
    ObjectNode item = Json.object();
    item.put("role", role);
    item.put("content", text);
    item.put("type", Message.TYPE);
    return item;
  }

  /** One message's blocks as items in order: text and images make one message, every other block an item of its own. */
  private static void blocksToItems(String role, JsonNode blocks, List<Object> path, ArrayNode items) {
    ArrayNode parts = Json.array();
    ObjectNode tokens = Json.object();
    Runnable flush = () -> {
      if (parts.isEmpty()) {
        return;
      }
      ObjectNode message = easyMessage(role, "");
      if (parts.size() == 1 && "input_text".equals(parts.get(0).path("type").asString(""))) {
        message.set("content", parts.get(0).get("text"));
      } else {
        message.set("content", parts.deepCopy());
      }
      message.setAll(tokens);
      items.add(message);
      parts.removeAll();
      tokens.removeAll();
    };
    for (int i = 0; i < blocks.size(); i++) {
      List<Object> at = Shape.at(path, i);
      ObjectNode block = Shape.object(blocks.get(i), at);
      String type = Shape.text(block, "type");
      switch (type == null ? "" : type) {
        case "text" -> {
          parts.add(Json.object().put("type", "input_text").put("text", string(block, "text", at)));
          tokens.setAll(tokenFields(block));
        }
        case "image" -> parts.add(imagePart(block, at));
        case "tool_use" -> {
          flush.run();
          JsonNode arguments = Shape.required(block, "input", at);
          if (!arguments.isObject()) {
            throw new FieldError(Shape.at(at, "input"), "Input should be a valid dictionary", "dict_type");
          }
          ObjectNode call = Json.object();
          call.put("type", FunctionCall.TYPE);
          call.put("id", string(block, "id", at));
          call.put("call_id", string(block, "id", at));
          call.put("name", string(block, "name", at));
          call.put("arguments", Json.write(arguments));
          call.put("status", "completed");
          call.setAll(tokenFields(block));
          items.add(call);
        }
        case "tool_result" -> {
          flush.run();
          ObjectNode output = Json.object();
          output.put("type", FunctionCallOutput.TYPE);
          output.put("call_id", string(block, "tool_use_id", at));
          output.put("output", toolResultText(block.get("content"), Shape.at(at, "content")));
          items.add(output);
        }
        case "thinking" -> {
          flush.run();
          ObjectNode reasoning = reasoningItem(string(block, "thinking", at));
          if (block.get("signature") instanceof JsonNode signature && signature.isString()
              && !signature.asString().isEmpty()) {
            reasoning.put("encrypted_content", signature.asString());
          }
          reasoning.setAll(tokenFields(block));
          items.add(reasoning);
        }
        case "redacted_thinking" -> {
          flush.run();
          ObjectNode reasoning = Json.object();
          reasoning.put("type", Reasoning.TYPE);
          reasoning.put("id", Ids.reasoning());
          reasoning.putArray("summary");
          reasoning.put("encrypted_content", string(block, "data", at));
          reasoning.setAll(tokenFields(block));
          items.add(reasoning);
        }
        default -> throw new FieldError(Shape.at(at, "type"), "Input should be 'text', 'image', 'tool_use', "
            + "'tool_result', 'thinking' or 'redacted_thinking'", "union_tag_invalid");
      }
    }
    flush.run();
  }

  private static ObjectNode reasoningItem(String text) {
    ObjectNode reasoning = Json.object();
    reasoning.put("type", Reasoning.TYPE);
    reasoning.put("id", Ids.reasoning());
    reasoning.putArray("summary").addObject().put("type", "summary_text").put("text", text);
    return reasoning;
  }

  private static ObjectNode imagePart(ObjectNode block, List<Object> at) {
    ObjectNode source = Shape.object(Shape.required(block, "source", at), Shape.at(at, "source"));
    List<Object> sourcePath = Shape.at(at, "source");
    if (!"base64".equals(Shape.text(source, "type"))) {
      throw new FieldError(Shape.at(sourcePath, "type"), "only base64 image sources are supported", "value_error");
    }
    String mediaType = string(source, "media_type", sourcePath);
    if (!IMAGE_TYPES.contains(mediaType)) {
      throw new FieldError(Shape.at(sourcePath, "media_type"), "Input should be one of " + IMAGE_TYPES, "literal_error");
    }
    ObjectNode part = Json.object();
    part.put("type", "input_image");
    part.put("image_url", "data:" + mediaType + ";base64," + string(source, "data", sourcePath));
    part.put("detail", "auto");
    return part;
  }

  private static String toolResultText(JsonNode content, List<Object> at) {
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isString()) {
      return content.asString();
    }
    if (!content.isArray()) {
      throw new FieldError(at, "Input should be a string or a list of text blocks", "value_error");
    }
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < content.size(); i++) {
      ObjectNode block = Shape.object(content.get(i), Shape.at(at, i));
      if (!"text".equals(Shape.text(block, "type"))) {
        throw new FieldError(Shape.at(Shape.at(at, i), "type"), "only text blocks are supported in a tool result",
            "value_error");
      }
      texts.add(string(block, "text", Shape.at(at, i)));
    }
    return String.join("\n", texts);
  }

  private static String systemText(JsonNode system) {
    if (system == null || system.isNull()) {
      return "";
    }
    if (system.isString()) {
      return system.asString();
    }
    if (!system.isArray()) {
      throw new FieldError(List.of("system"), "Input should be a string or a list of text blocks", "value_error");
    }
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < system.size(); i++) {
      ObjectNode block = Shape.object(system.get(i), List.of("system", i));
      if (!"text".equals(Shape.text(block, "type"))) {
        throw new FieldError(List.of("system", i, "type"), "Input should be 'text'", "literal_error");
      }
      String text = string(block, "text", List.of("system", i));
      if (!text.isEmpty()) {
        texts.add(text);
      }
    }
    return String.join("\n", texts);
  }

  private static ArrayNode toolsToResponses(JsonNode tools) {
    if (!tools.isArray()) {
      throw new FieldError(List.of("tools"), "Input should be a valid list", "list_type");
    }
    ArrayNode out = Json.array();
    for (int i = 0; i < tools.size(); i++) {
      List<Object> at = List.of("tools", i);
      ObjectNode tool = Shape.object(tools.get(i), at);
      ObjectNode function = out.addObject();
      function.put("type", "function");
      function.put("name", string(tool, "name", at));
      JsonNode description = tool.get("description");
      if (description != null && !description.isNull() && !description.isString()) {
        throw new FieldError(Shape.at(at, "description"), "Input should be a valid string", "string_type");
      }
      if (description == null) {
        function.putNull("description");
      } else {
        function.set("description", description);
      }
      JsonNode schema = tool.get("input_schema");
      if (schema != null && !schema.isObject()) {
        throw new FieldError(Shape.at(at, "input_schema"), "Input should be a valid dictionary", "dict_type");
      }
      function.set("parameters", schema == null ? emptySchema() : schema);
      function.put("strict", false);
    }
    return out;
  }

  private static ObjectNode emptySchema() {
    ObjectNode schema = Json.object();
    schema.put("type", "object");
    schema.putObject("properties");
    return schema;
  }

  private static JsonNode toolChoiceToResponses(JsonNode choice) {
    ObjectNode object = Shape.object(choice, List.of("tool_choice"));
    String type = Shape.text(object, "type");
    return switch (type == null ? "" : type) {
      case "auto" -> Json.toTree("auto");
      case "none" -> Json.toTree("none");
      case "any" -> Json.toTree("required");
      case "tool" -> Json.object().put("type", "function").put("name", string(object, "name", List.of("tool_choice")));
      default -> throw new FieldError(List.of("tool_choice", "type"), "Input should be 'auto', 'any', 'tool' or 'none'",
          "literal_error");
    };
  }

  // ---------------------------------------------------------------- Response -> Messages answer

  /**
   * A Response as a Messages answer with the given id and model: output text becomes text blocks, reasoning
   * thinking blocks (redacted_thinking when it has only encrypted content), function calls tool_use blocks.
   */
  public static ObjectNode fromResponse(Response response, String id, String model) {
    ArrayNode content = Json.array();
    java.util.Set<String> pending = new java.util.HashSet<>();
    for (Item item : response.output()) {
      List<ObjectNode> blocks = blocks(item);
      if (item instanceof FunctionCall call) {
        pending.add(call.callId());
      } else if (item instanceof FunctionCallOutput output) {
        pending.remove(output.callId());
      }
      if (!blocks.isEmpty()) {
        blocks.getLast().setAll(tokenFields(item.json()));
      }
      blocks.forEach(content::add);
    }
    ObjectNode message = Json.object();
    message.put("id", id);
    message.put("type", "message");
    message.put("role", "assistant");
    message.put("model", model);
    message.set("content", content);
    // an agent's episode ran its tool calls: only a call still waiting for its output stops for tool use
    message.put("stop_reason", stopReason(response, !pending.isEmpty()));
    message.putNull("stop_sequence");
    message.set("usage", usage(response));
    return message;
  }

  /**
   * The assistant content blocks of one output item, without token ids: text blocks for a message's text and
   * refusal parts, thinking blocks for reasoning, a tool_use block for a function call; none for other items.
   */
  public static List<ObjectNode> blocks(Item item) {
    List<ObjectNode> blocks = new ArrayList<>();
    switch (item) {
      case Message message -> {
        JsonNode parts = message.json().get("content");
        if (parts != null && parts.isString()) {
          blocks.add(textBlock(parts.asString()));
        } else if (parts != null && parts.isArray()) {
          for (JsonNode part : parts) {
            if (part.path("type").asString("").equals("refusal")) {
              blocks.add(textBlock(part.path("refusal").asString("")));
            } else if (part.has("text")) {
              blocks.add(textBlock(part.path("text").asString("")));
            }
          }
        }
      }
      case Reasoning reasoning -> blocks.addAll(thinkingBlocks(reasoning.json()));
      case FunctionCall call -> blocks.add(toolUseBlock(call));
      default -> { } // hosted-tool items and tool outputs have no block in an answer
    }
    return blocks;
  }

  private static ObjectNode textBlock(String text) {
    return Json.object().put("type", "text").put("text", text);
  }

  private static List<ObjectNode> thinkingBlocks(ObjectNode reasoning) {
    List<ObjectNode> blocks = new ArrayList<>();
    String signature = Shape.text(reasoning, "encrypted_content");
    for (JsonNode summary : reasoning.path("summary")) {
      ObjectNode block = Json.object();
      block.put("type", "thinking");
      block.put("thinking", summary.path("text").asString(""));
      block.put("signature", signature == null ? "" : signature);
      blocks.add(block);
    }
    if (blocks.isEmpty() && signature != null) {
      blocks.add(Json.object().put("type", "redacted_thinking").put("data", signature));
    }
    return blocks;
  }

  private static ObjectNode toolUseBlock(FunctionCall call) {
    ObjectNode block = Json.object();
    block.put("type", "tool_use");
    block.put("id", call.callId());
    block.put("name", call.name());
    JsonNode input = null;
    try {
      input = Json.parse(call.arguments().isBlank() ? "{}" : call.arguments());
    } catch (JacksonException e) {
      // the model wrote arguments that do not parse: the block keeps them as written (see README)
    }
    if (input instanceof ObjectNode object) {
      block.set("input", object);
    } else {
      block.putObject("input");
      block.put("arguments", call.arguments());
    }
    return block;
  }

  private static String stopReason(Response response, boolean toolUse) {
    String reason = response.json().path("incomplete_details").path("reason").asString("");
    if (reason.equals("max_output_tokens")) {
      return "max_tokens";
    }
    if (reason.equals("content_filter")) {
      return "refusal";
    }
    if (response.json().get(STOP_SEQUENCE) instanceof JsonNode stop && stop.isString()) {
      return "stop_sequence";
    }
    return toolUse ? "tool_use" : "end_turn";
  }

  private static ObjectNode usage(Response response) {
    ObjectNode usage = Json.object();
    Usage counts = response.usage().orElse(null);
    usage.put("input_tokens", counts == null ? 0 : counts.inputTokens());
    usage.put("output_tokens", counts == null ? 0 : counts.outputTokens());
    if (counts != null && counts.json().path("input_tokens_details").get("cached_tokens") instanceof JsonNode cached
        && cached.isIntegralNumber() && cached.canConvertToLong() && cached.asLong() > 0) {
      // 0 is what an absent count means: OpenAI's schema requires cached_tokens, so a response made valid has it
      usage.put("cache_read_input_tokens", cached.asLong());
    }
    return usage;
  }

  // ---------------------------------------------------------------- Messages answer -> server-sent events

  /** One server-sent event: its name and its JSON data. */
  public record Event(String name, ObjectNode data) {}

  /** {@code message_start}: the answer's shell, before any content is known. */
  public static Event start(String id, String model) {
    ObjectNode message = Json.object();
    message.put("id", id);
    message.put("type", "message");
    message.put("role", "assistant");
    message.put("model", model);
    message.putArray("content");
    message.putNull("stop_reason");
    message.putNull("stop_sequence");
    message.putObject("usage").put("input_tokens", 0).put("output_tokens", 0);
    ObjectNode data = Json.object().put("type", "message_start");
    data.set("message", message);
    return new Event("message_start", data);
  }

  public static Event ping() {
    return new Event("ping", Json.object().put("type", "ping"));
  }

  /** An {@code error} event: {@code {"type": "error", "error": {"type", "message"}}}. */
  public static Event error(String type, String message) {
    return new Event("error", errorBody(type, message));
  }

  /** Anthropic's error body. */
  public static ObjectNode errorBody(String type, String message) {
    ObjectNode body = Json.object().put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return body;
  }

  /**
   * The events after {@code message_start} that rebuild {@code message}: each block's start (with the block's
   * token ids), its deltas and its stop; then {@code message_delta} with the stop reason and the usage, and
   * {@code message_stop}.
   */
  public static List<Event> rest(ObjectNode message) {
    List<Event> events = new ArrayList<>();
    JsonNode content = message.path("content");
    for (int index = 0; index < content.size(); index++) {
      events.addAll(blockEvents(index, (ObjectNode) content.get(index)));
    }
    events.addAll(end(message));
    return events;
  }

  /**
   * The events of one whole content block at {@code index}: its start (the block with its text emptied, its
   * other fields, token ids included, as they are), its deltas and its stop.
   */
  public static List<Event> blockEvents(int index, ObjectNode block) {
    List<Event> events = new ArrayList<>();
    String type = block.path("type").asString("");
    ObjectNode shell = block.deepCopy();
    List<ObjectNode> deltas = new ArrayList<>();
    switch (type) {
      case "text" -> {
        shell.put("text", "");
        deltas.add(Json.object().put("type", "text_delta").put("text", block.path("text").asString("")));
      }
      case "thinking" -> {
        shell.put("thinking", "");
        shell.put("signature", "");
        deltas.add(Json.object().put("type", "thinking_delta").put("thinking", block.path("thinking").asString("")));
        String signature = block.path("signature").asString("");
        if (!signature.isEmpty()) {
          deltas.add(Json.object().put("type", "signature_delta").put("signature", signature));
        }
      }
      case "tool_use" -> {
        shell.putObject("input");
        String json = block.has("arguments") ? "{}" : Json.write(block.path("input"));
        deltas.add(Json.object().put("type", "input_json_delta").put("partial_json", json));
      }
      default -> { } // redacted_thinking comes whole in its start event
    }
    ObjectNode startData = Json.object().put("type", "content_block_start").put("index", index);
    startData.set("content_block", shell);
    events.add(new Event("content_block_start", startData));
    for (ObjectNode delta : deltas) {
      ObjectNode deltaData = Json.object().put("type", "content_block_delta").put("index", index);
      deltaData.set("delta", delta);
      events.add(new Event("content_block_delta", deltaData));
    }
    events.add(new Event("content_block_stop", Json.object().put("type", "content_block_stop").put("index", index)));
    return events;
  }

  /** The last two events of {@code message}: {@code message_delta} with the stop reason and the usage, {@code message_stop}. */
  public static List<Event> end(ObjectNode message) {
    List<Event> events = new ArrayList<>();
    ObjectNode delta = Json.object().put("type", "message_delta");
    delta.putObject("delta").set("stop_reason", message.path("stop_reason"));
    ((ObjectNode) delta.get("delta")).set("stop_sequence", message.get("stop_sequence"));
    delta.set("usage", message.path("usage").deepCopy());
    events.add(new Event("message_delta", delta));
    events.add(new Event("message_stop", Json.object().put("type", "message_stop")));
    return events;
  }

  /** The Anthropic error type of an HTTP status. */
  public static String errorType(int status) {
    return switch (status) {
      case 400, 422 -> "invalid_request_error";
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 413 -> "request_too_large";
      case 429 -> "rate_limit_error";
      case 504 -> "timeout_error";
      case 503, 529 -> "overloaded_error";
      // Anthropic: invalid_request_error may also stand for 4xx statuses it does not list
      default -> status < 500 ? "invalid_request_error" : "api_error";
    };
  }

  // ---------------------------------------------------------------- helpers

  /**
   * The field a Response carries (as an extra property) when the Messages answer it came from stopped at one of
   * the request's stop sequences: the sequence. Responses has no such stop, so the field keeps it.
   */
  public static final String STOP_SEQUENCE = "stop_sequence";

  static ObjectNode tokenFields(ObjectNode json) {
    ObjectNode fields = Json.object();
    for (Map.Entry<String, JsonNode> entry : json.properties()) {
      if (TOKEN_FIELDS.contains(entry.getKey())) {
        fields.set(entry.getKey(), entry.getValue());
      }
    }
    return fields;
  }

  private static String string(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = Shape.required(parent, field, path);
    if (!value.isString()) {
      throw new FieldError(Shape.at(path, field), "Input should be a valid string", "string_type");
    }
    return value.asString();
  }

  /** Item ids of the kinds Responses uses. */
  static final class Ids {
    static String reasoning() {
      return "rs_" + java.util.UUID.randomUUID().toString().replace("-", "");
    }
  }
}
