package dev.gym4j.models;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.wire.AnthropicMessages;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import dev.gym4j.wire.Reasoning;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code anthropic_model} sends to an Anthropic-compatible upstream and makes of its answers: Responses
 * params (or a Chat request) as a Messages request, and a Messages answer as a Response (or a Chat completion).
 * The mapping is NeMo Gym's ({@code AnthropicConverter.responses_to_anthropic} and {@code anthropic_to_responses}
 * in {@code nemo_gym/anthropic_converter.py}); what it cannot map is a 422 naming the field, not a 500.
 */
final class AnthropicUpstream {
  private AnthropicUpstream() {}

  // ------------------------------------------------------------------ Responses -> Messages request

  static ObjectNode request(ResponseCreateParams params, String model, long maxTokens, ObjectNode extraBody) {
    ObjectNode json = params.json();
    ObjectNode body = base(json, model, maxTokens, extraBody, "max_output_tokens");
    ArrayNode messages = body.putArray("messages");
    List<String> system = new ArrayList<>();
    if (json.get("instructions") instanceof JsonNode instructions && instructions.isString()) {
      system.add(instructions.asString());
    }
    List<Item> input = params.input();
    for (int i = 0; i < input.size(); i++) {
      List<Object> at = List.of("input", i);
      switch (input.get(i)) {
        case Message message -> {
          String role = message.role();
          if (role.equals("system") || role.equals("developer")) {
            system.add(message.text());
          } else if (role.equals("user") || role.equals("assistant")) {
            append(messages, role, contentBlocks(message.json().get("content"), role, Shape.at(at, "content")));
          } else {
            throw new FieldError(Shape.at(at, "role"), "role '" + role + "' has no Anthropic form", "value_error");
          }
        }
        case Reasoning reasoning -> append(messages, "assistant", AnthropicMessages.blocks(reasoning));
        case FunctionCall call -> append(messages, "assistant", AnthropicMessages.blocks(call));
        case FunctionCallOutput output -> {
          ObjectNode result = Json.object().put("type", "tool_result").put("tool_use_id", output.callId());
          result.put("content", output.output());
          append(messages, "user", List.of(result));
        }
        default -> throw new FieldError(Shape.at(at, "type"), "item type '" + input.get(i).type()
            + "' has no Anthropic form", "value_error");
      }
    }
    ArrayNode blocks = Json.array();
    system.stream().filter(text -> !text.isEmpty()).forEach(text -> blocks.addObject().put("type", "text")
        .put("text", text));
    if (!blocks.isEmpty()) {
      body.set("system", blocks);
    }
    if (json.get("tools") instanceof JsonNode tools && tools.isArray() && !tools.isEmpty()) {
      body.set("tools", tools(tools));
    }
    if (json.get("tool_choice") instanceof JsonNode choice && !choice.isNull()) {
      body.set("tool_choice", toolChoice(choice));
    }
    return body;
  }

  /** The body's defaults, model, token limit and sampling settings; NeMo Gym refuses sampling for the models that do. */
  private static ObjectNode base(ObjectNode request, String model, long maxTokens, ObjectNode extraBody,
      String limitField) {
    ObjectNode body = extraBody.deepCopy();
    body.put("model", model);
    JsonNode limit = request.get(limitField);
    // the caller's limit, checked as a count: 2**70 is a 422 naming the field, not Jackson's exception
    long asked = limit != null && limit.isIntegralNumber() ? Shape.longValue(limit, List.of(limitField)) : 0;
    body.put("max_tokens", asked > 0 ? asked : maxTokens);
    for (String field : List.of("temperature", "top_p")) {
      if (request.get(field) instanceof JsonNode value && value.isNumber()) {
        body.set(field, value);
      }
    }
    if (model.contains("claude-opus-4-7") || model.contains("claude-opus-4-8")) {
      for (String field : List.of("temperature", "top_p", "top_k")) {
        if (body.get(field) instanceof JsonNode value && !value.isNull()) {
          throw new FieldError(List.of(field), model + " does not support configurable sampling parameters; omit "
              + field, "value_error");
        }
      }
    }
    return body;
  }

  private static void append(ArrayNode messages, String role, List<ObjectNode> blocks) {
    if (!messages.isEmpty() && role.equals(messages.get(messages.size() - 1).path("role").asString(""))) {
      ArrayNode content = (ArrayNode) messages.get(messages.size() - 1).get("content");
      blocks.forEach(content::add);
      return;
    }
    ObjectNode message = messages.addObject().put("role", role);
    ArrayNode content = message.putArray("content");
    blocks.forEach(content::add);
  }

  private static List<ObjectNode> contentBlocks(JsonNode content, String role, List<Object> at) {
    List<ObjectNode> blocks = new ArrayList<>();
    if (content == null || content.isNull() || content.isString()) {
      blocks.add(Json.object().put("type", "text").put("text", content == null ? "" : content.asString("")));
      return blocks;
    }
    for (int i = 0; i < content.size(); i++) {
      JsonNode part = content.get(i);
      String type = part.path("type").asString("");
      switch (type) {
        case "input_text", "output_text", "text" -> blocks.add(Json.object().put("type", "text")
            .put("text", part.path("text").asString("")));
        case "refusal" -> blocks.add(Json.object().put("type", "text").put("text", part.path("refusal").asString("")));
        // input_image from the Responses API, image_url from Chat Completions: both a data URL
        case "input_image", "image_url" -> {
          if (!role.equals("user")) {
            throw new FieldError(Shape.at(Shape.at(at, i), "type"), "images are only for user turns", "value_error");
          }
          blocks.add(image(part, Shape.at(at, i)));
        }
        default -> throw new FieldError(Shape.at(Shape.at(at, i), "type"), "content part '" + type
            + "' has no Anthropic form", "value_error");
      }
    }
    return blocks;
  }

  private static ObjectNode image(JsonNode part, List<Object> at) {
    JsonNode url = part.get("image_url");
    String text = url == null ? null : url.isObject() ? url.path("url").asString(null) : url.asString(null);
    int comma = text == null ? -1 : text.indexOf(',');
    if (text == null || !text.startsWith("data:") || comma < 0 || !text.substring(0, comma).endsWith(";base64")) {
      throw new FieldError(Shape.at(at, "image_url"), "Anthropic image inputs must be base64 data URLs",
          "value_error");
    }
    String mediaType = text.substring(5, text.indexOf(';')).toLowerCase(java.util.Locale.ROOT);
    ObjectNode block = Json.object().put("type", "image");
    block.putObject("source").put("type", "base64").put("media_type", mediaType.equals("image/jpg") ? "image/jpeg"
        : mediaType).put("data", text.substring(comma + 1));
    return block;
  }

  private static ArrayNode tools(JsonNode tools) {
    ArrayNode out = Json.array();
    for (int i = 0; i < tools.size(); i++) {
      JsonNode tool = tools.get(i);
      if (!"function".equals(tool.path("type").asString(""))) {
        throw new FieldError(List.of("tools", i, "type"), "only function tools have an Anthropic form", "value_error");
      }
      ObjectNode converted = out.addObject();
      converted.put("name", tool.path("name").asString(""));
      if (tool.get("description") instanceof JsonNode description && description.isString()
          && !description.asString().isEmpty()) {
        converted.set("description", description);
      }
      JsonNode schema = tool.get("parameters");
      converted.set("input_schema", schema != null && schema.isObject() ? schema
          : Json.object().put("type", "object").set("properties", Json.object()));
    }
    return out;
  }

  private static ObjectNode toolChoice(JsonNode choice) {
    if (choice.isString()) {
      return switch (choice.asString()) {
        case "required" -> Json.object().put("type", "any");
        case "auto", "none" -> Json.object().put("type", choice.asString());
        default -> throw new FieldError(List.of("tool_choice"), "tool_choice '" + choice.asString()
            + "' has no Anthropic form", "value_error");
      };
    }
    if ("function".equals(choice.path("type").asString("")) && choice.get("name") instanceof JsonNode name) {
      return Json.object().put("type", "tool").put("name", name.asString(""));
    }
    throw new FieldError(List.of("tool_choice"), "this tool_choice has no Anthropic form", "value_error");
  }

  // ------------------------------------------------------------------ Messages answer -> Response

  /** The upstream's answer as a Response to {@code request}; a shape we cannot read is a {@link FieldError}. */
  static Response response(ObjectNode answer, ObjectNode request, String model) {
    return response(answer, request, model, head(request, model, Ids.of("resp_"), Instant.now().getEpochSecond()),
        Ids::of);
  }

  /**
   * As {@link #response(ObjectNode, ObjectNode, String)}, with the given head ({@link #head}) and item ids:
   * {@code itemIds} gives the id of each reasoning ({@code rs_}) and message ({@code msg_}) item in output order,
   * as a stream announced them.
   */
  static Response response(ObjectNode answer, ObjectNode request, String model, ObjectNode head,
      java.util.function.UnaryOperator<String> itemIds) {
    ObjectNode response = head.deepCopy();
    response.set("output", outputItems(answer.get("content"), itemIds));
    String stop = answer.path("stop_reason").asString("");
    String incomplete = switch (stop) {
      case "max_tokens", "model_context_window_exceeded" -> "max_output_tokens";
      case "refusal" -> "content_filter";
      default -> null;
    };
    if (incomplete == null) {
      response.put("status", "completed");
      response.putNull("incomplete_details");
    } else {
      response.put("status", "incomplete");
      response.putObject("incomplete_details").put("reason", incomplete);
    }
    if (stop.equals("stop_sequence") && answer.get("stop_sequence") instanceof JsonNode sequence
        && sequence.isString()) {
      response.set(AnthropicMessages.STOP_SEQUENCE, sequence);
    }
    response.set("usage", usage(answer.get("usage")));
    return Response.of(response);
  }

  /** A Response's fields known before the answer: id, time, model and what it echoes of the request. */
  static ObjectNode head(ObjectNode request, String model, String id, long createdAt) {
    ObjectNode response = Json.object();
    response.put("id", id);
    response.put("object", "response");
    response.put("created_at", createdAt);
    response.put("model", model);
    response.putArray("output");
    response.put("status", "in_progress");
    response.putNull("incomplete_details");
    response.putNull("error");
    for (String field : ChatToResponses.ECHOED) {
      response.set(field, request.has(field) ? request.get(field) : null);
    }
    if (!request.has("tool_choice")) {
      response.put("tool_choice", "auto");
    }
    if (!request.has("tools")) {
      response.putArray("tools");
    }
    if (!request.has("parallel_tool_calls")) {
      response.put("parallel_tool_calls", true);
    }
    return response;
  }

  private static ArrayNode outputItems(JsonNode content, java.util.function.UnaryOperator<String> itemIds) {
    if (content == null || !content.isArray()) {
      throw new FieldError(List.of("content"), "Input should be a valid list", "list_type");
    }
    ArrayNode output = Json.array();
    StringBuilder text = new StringBuilder();
    boolean pending = false;
    for (int i = 0; i < content.size(); i++) {
      List<Object> at = List.of("content", i);
      ObjectNode block = Shape.object(content.get(i), at);
      String type = block.path("type").asString("");
      if (type.equals("text")) {
        text.append(block.path("text").asString(""));
        pending = true;
        continue;
      }
      if (pending) {
        output.add(outputMessage(text.toString(), itemIds.apply("msg_")));
        text.setLength(0);
        pending = false;
      }
      output.add(item(block, at, itemIds));
    }
    if (pending || output.isEmpty()) {
      output.add(outputMessage(text.toString(), itemIds.apply("msg_")));
    }
    return output;
  }

  /** The output item of one content block other than text (text blocks in a row make one message). */
  static ObjectNode item(ObjectNode block, List<Object> at, java.util.function.UnaryOperator<String> itemIds) {
    String type = block.path("type").asString("");
    switch (type) {
      case "thinking" -> {
        ObjectNode reasoning = Json.object().put("type", "reasoning").put("id", itemIds.apply("rs_"));
        reasoning.putArray("summary").addObject().put("type", "summary_text")
            .put("text", block.path("thinking").asString(""));
        reasoning.set("encrypted_content", block.get("signature") instanceof JsonNode s && s.isString() ? s : null);
        return reasoning;
      }
      case "redacted_thinking" -> {
        ObjectNode reasoning = Json.object().put("type", "reasoning").put("id", itemIds.apply("rs_"));
        reasoning.putArray("summary");
        reasoning.put("encrypted_content", block.path("data").asString(""));
        return reasoning;
      }
      case "tool_use" -> {
        JsonNode input = block.get("input");
        if (input == null || !input.isObject() || !block.path("id").isString() || !block.path("name").isString()) {
          throw new FieldError(at, "a tool_use block needs a string id and name and an object input", "value_error");
        }
        ObjectNode call = Json.object().put("type", "function_call");
        call.put("id", block.get("id").asString());
        call.put("call_id", block.get("id").asString());
        call.put("name", block.get("name").asString());
        call.put("arguments", Json.write(input));
        call.put("status", "completed");
        return call;
      }
      default -> throw new FieldError(Shape.at(at, "type"), "unsupported content block '" + type + "'",
          "value_error");
    }
  }

  static ObjectNode outputMessage(String text, String id) {
    ObjectNode message = Json.object().put("id", id).put("type", "message").put("role", "assistant")
        .put("status", "completed");
    message.putArray("content").addObject().put("type", "output_text").put("text", text).putArray("annotations");
    return message;
  }

  private static ObjectNode usage(JsonNode usage) {
    if (usage == null || !usage.isObject()) {
      throw new FieldError(List.of("usage"), "Field required", "missing");
    }
    for (String count : List.of("input_tokens", "output_tokens")) {
      if (!usage.path(count).isIntegralNumber() || !usage.path(count).canConvertToLong()
          || usage.path(count).asLong() < 0) {
        throw new FieldError(List.of("usage", count), "Input should be a non-negative integer", "int_type");
      }
    }
    ObjectNode out = Json.object();
    long input = usage.get("input_tokens").asLong();
    long output = usage.get("output_tokens").asLong();
    out.put("input_tokens", input);
    ObjectNode details = out.putObject("input_tokens_details");
    details.put("cached_tokens", usage.path("cache_read_input_tokens").asLong(0));
    details.put("cache_write_tokens", usage.path("cache_creation_input_tokens").asLong(0));
    out.put("output_tokens", output);
    out.putObject("output_tokens_details").put("reasoning_tokens", 0);
    out.put("total_tokens", input + output);
    return out;
  }

  // ------------------------------------------------------------------ Chat Completions

  /** A Chat request as a Messages request: system turns become {@code system}, tool turns tool_result blocks. */
  static ObjectNode chatRequest(ObjectNode chat, String model, long maxTokens, ObjectNode extraBody) {
    String limitField = chat.has("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
    ObjectNode body = base(chat, model, maxTokens, extraBody, limitField);
    ArrayNode messages = body.putArray("messages");
    ArrayNode system = Json.array();
    JsonNode turns = chat.path("messages");
    for (int i = 0; i < turns.size(); i++) {
      List<Object> at = List.of("messages", i);
      JsonNode turn = turns.get(i);
      String role = turn.path("role").asString("");
      switch (role) {
        case "system", "developer" -> system.addObject().put("type", "text").put("text",
            Shape.contentText(turn.get("content")));
        case "user" -> append(messages, "user", contentBlocks(turn.get("content"), "user", Shape.at(at, "content")));
        case "assistant" -> {
          List<ObjectNode> blocks = new ArrayList<>();
          String text = Shape.contentText(turn.get("content"));
          if (text != null && !text.isEmpty()) {
            blocks.add(Json.object().put("type", "text").put("text", text));
          }
          JsonNode calls = turn.path("tool_calls");
          for (int c = 0; c < calls.size(); c++) {
            JsonNode function = calls.get(c).path("function");
            ObjectNode block = Json.object().put("type", "tool_use").put("id", calls.get(c).path("id").asString(""))
                .put("name", function.path("name").asString(""));
            block.set("input", arguments(function.path("arguments").asString("{}"),
                List.of("messages", i, "tool_calls", c, "function", "arguments")));
            blocks.add(block);
          }
          append(messages, "assistant", blocks);
        }
        case "tool" -> append(messages, "user", List.of(Json.object().put("type", "tool_result")
            .put("tool_use_id", turn.path("tool_call_id").asString("")).put("content",
                Shape.contentText(turn.get("content")))));
        default -> throw new FieldError(Shape.at(at, "role"), "role '" + role + "' has no Anthropic form",
            "value_error");
      }
    }
    if (!system.isEmpty()) {
      body.set("system", system);
    }
    if (chat.get("tools") instanceof JsonNode tools && tools.isArray() && !tools.isEmpty()) {
      ArrayNode functions = Json.array();
      tools.forEach(tool -> {
        ObjectNode function = tool.path("function") instanceof ObjectNode object ? object.deepCopy() : Json.object();
        function.put("type", "function");
        functions.add(function);
      });
      body.set("tools", tools(functions));
    }
    if (chat.get("tool_choice") instanceof JsonNode choice && !choice.isNull()) {
      body.set("tool_choice", choice.isObject()
          ? toolChoice(Json.object().put("type", "function").put("name", choice.path("function").path("name")
              .asString("")))
          : toolChoice(choice));
    }
    if (chat.get("stop") instanceof JsonNode stop && !stop.isNull()) {
      body.set("stop_sequences", stop.isString() ? Json.array().add(stop.asString()) : stop);
    }
    return body;
  }

  private static JsonNode arguments(String text, List<Object> at) {
    try {
      JsonNode parsed = Json.parse(text.isBlank() ? "{}" : text);
      if (parsed.isObject()) {
        return parsed;
      }
    } catch (JacksonException e) {
      // reported below
    }
    throw new FieldError(at, "tool call arguments must be a JSON object for Anthropic", "value_error");
  }

  /** A Messages answer as a Chat completion: text, reasoning_content from thinking, tool calls, finish reason. */
  static ObjectNode chatCompletion(ObjectNode answer, String model) {
    ArrayNode output = outputItems(answer.get("content"), Ids::of);
    ObjectNode message = Json.object().put("role", "assistant");
    StringBuilder text = new StringBuilder();
    StringBuilder thinking = new StringBuilder();
    ArrayNode calls = Json.array();
    for (JsonNode item : output) {
      switch (item.path("type").asString("")) {
        case "message" -> text.append(item.path("content").path(0).path("text").asString(""));
        case "reasoning" -> item.path("summary").forEach(part -> thinking.append(part.path("text").asString("")));
        default -> {
          ObjectNode call = calls.addObject().put("id", item.path("call_id").asString("")).put("type", "function");
          call.putObject("function").put("name", item.path("name").asString(""))
              .put("arguments", item.path("arguments").asString(""));
        }
      }
    }
    message.put("content", text.toString());
    if (!thinking.isEmpty()) {
      message.put("reasoning_content", thinking.toString());
    }
    if (!calls.isEmpty()) {
      message.set("tool_calls", calls);
    }
    String finish = switch (answer.path("stop_reason").asString("")) {
      case "tool_use" -> "tool_calls";
      case "max_tokens", "model_context_window_exceeded" -> "length";
      case "refusal" -> "content_filter";
      default -> "stop";
    };
    ObjectNode chat = Json.object().put("id", Ids.of("chatcmpl-")).put("object", "chat.completion")
        .put("created", Instant.now().getEpochSecond()).put("model", model);
    ObjectNode choice = chat.putArray("choices").addObject().put("index", 0).put("finish_reason", finish);
    choice.set("message", message);
    choice.putNull("logprobs");
    ObjectNode usage = usage(answer.get("usage"));
    ObjectNode chatUsage = chat.putObject("usage");
    chatUsage.put("prompt_tokens", usage.get("input_tokens").asLong());
    chatUsage.put("completion_tokens", usage.get("output_tokens").asLong());
    chatUsage.put("total_tokens", usage.get("total_tokens").asLong());
    return chat;
  }
}
