package dev.gym4j.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a Responses request into a Chat Completions body, as NeMo Gym's converter does, so chat-only
 * backends (vLLM, Azure) serve the Responses API, and rollouts become chat transcripts for SFT and DPO.
 *
 * <p>Assistant-side items (assistant messages, reasoning, function calls) that follow each other are
 * buffered into one chat assistant message: text joined, reasoning as {@code <think>…</think>}, calls as
 * {@code tool_calls}; the token bundle of the group's last item rides on that message, so a training
 * backend can pin the prompt prefix. Any user, system or tool message flushes the buffer.
 */
public final class ResponsesToChat {
  private static final List<String> TOKEN_FIELDS = List.of(Item.PROMPT_TOKEN_IDS, Item.GENERATION_TOKEN_IDS,
      Item.GENERATION_LOG_PROBS, Item.ROUTED_EXPERTS);
  private static final Set<String> PASS_THROUGH = Set.of("temperature", "top_p", "top_logprobs", "metadata",
      "parallel_tool_calls", "tool_choice", "service_tier", "store", "user", "model");

  private final boolean withTokenInfo;
  private final ArrayNode messages = Json.array();
  private final StringBuilder content = new StringBuilder();
  private final ArrayNode toolCalls = Json.array();
  private boolean assistantBuffered;
  private ObjectNode tokenInfo;

  private ResponsesToChat(boolean withTokenInfo) {
    this.withTokenInfo = withTokenInfo;
  }

  /**
   * @param withTokenInfo put the token bundle of history items on the chat assistant messages (training)
   */
  public static ObjectNode convert(ObjectNode request, boolean withTokenInfo) {
    return new ResponsesToChat(withTokenInfo).build(request);
  }

  private ObjectNode build(ObjectNode request) {
    JsonNode input = request.get("input");
    if (input.isString()) {
      ObjectNode user = messages.addObject();
      user.put("role", "user");
      user.put("content", input.stringValue());
    } else {
      for (int i = 0; i < input.size(); i++) {
        add((ObjectNode) input.get(i), List.of("input", i));
      }
    }
    flush();
    return parameters(request);
  }

  private void add(ObjectNode item, List<Object> path) {
    String type = Shape.text(item, "type");
    if (type == null && item.has("role")) {
      type = "message";
    }
    switch (type == null ? "" : type) {
      case "message" -> message(item, path);
      case "reasoning" -> {
        assistantBuffered = true;
        for (JsonNode part : item.path("summary")) {
          String text = Shape.text(part, "text");
          if (text != null && !text.isEmpty()) {
            content.append("<think>").append(text).append("</think>");
          }
        }
      }
      case "function_call" -> {
        assistantBuffered = true;
        ObjectNode call = toolCalls.addObject();
        call.put("id", Shape.text(item, "call_id"));
        call.put("type", "function");
        ObjectNode function = call.putObject("function");
        function.put("name", Shape.text(item, "name"));
        function.put("arguments", Shape.text(item, "arguments"));
      }
      case "function_call_output" -> {
        flush();
        ObjectNode tool = messages.addObject();
        tool.put("role", "tool");
        tool.put("tool_call_id", Shape.text(item, "call_id"));
        JsonNode output = item.get("output");
        tool.set("content", output.isString() ? output : textParts(output, Shape.at(path, "output"), Set.of("input_text")));
      }
      default -> throw new FieldError(Shape.at(path, "type"), "an item of type '" + type
          + "' has no Chat Completions form; this model server speaks Chat Completions to its backend", "value_error");
    }
    if (withTokenInfo && item.has(Item.GENERATION_TOKEN_IDS)) {
      tokenInfo = item;
    }
  }

  private void message(ObjectNode item, List<Object> path) {
    String role = Shape.text(item, "role");
    JsonNode itemContent = item.get("content");
    switch (role) {
      case "assistant" -> {
        assistantBuffered = true;
        content.append(Shape.contentText(itemContent));
        for (JsonNode call : item.path("tool_calls")) {
          toolCalls.add(call);
        }
      }
      case "user", "system", "developer" -> {
        flush();
        ObjectNode message = messages.addObject();
        message.put("role", role);
        message.set("content", itemContent == null || itemContent.isNull() || itemContent.isString()
            ? itemContent : textParts(itemContent, Shape.at(path, "content"), Set.of("input_text", "input_image",
            "input_video", "output_text")));
      }
      case "tool" -> {
        flush();
        ObjectNode message = messages.addObject();
        message.put("role", "tool");
        message.put("tool_call_id", Shape.text(item, "tool_call_id"));
        message.set("content", itemContent);
      }
      default -> throw new FieldError(Shape.at(path, "role"), "unknown message role '" + role + "'", "value_error");
    }
  }

  /** Content parts in Chat form: text, images and videos. */
  private static ArrayNode textParts(JsonNode parts, List<Object> path, Set<String> allowed) {
    ArrayNode out = Json.array();
    for (int i = 0; i < parts.size(); i++) {
      JsonNode part = parts.get(i);
      String type = Shape.text(part, "type");
      if (type == null || !allowed.contains(type)) {
        throw new FieldError(Shape.at(Shape.at(path, i), "type"), "a content part of type '" + type
            + "' has no Chat Completions form here", "value_error");
      }
      ObjectNode converted = out.addObject();
      switch (type) {
        case "input_image" -> {
          JsonNode url = part.get("image_url");
          String link = url == null ? null : url.isString() ? url.stringValue() : Shape.text(url, "url");
          if (link == null || link.isEmpty()) {
            throw new FieldError(Shape.at(Shape.at(path, i), "image_url"), "an image needs a URL", "value_error");
          }
          converted.put("type", "image_url");
          ObjectNode image = converted.putObject("image_url");
          image.put("url", link);
          image.put("detail", part.path("detail").asString("auto"));
        }
        case "input_video" -> {
          JsonNode url = part.has("video_url") ? part.get("video_url") : part.get("video");
          converted.put("type", "video_url");
          converted.putObject("video_url").put("url", url.isString() ? url.stringValue() : Shape.text(url, "url"));
        }
        default -> {
          converted.put("type", "text");
          converted.put("text", Shape.text(part, "text"));
        }
      }
    }
    return out;
  }

  private void flush() {
    if (!assistantBuffered && content.isEmpty() && toolCalls.isEmpty()) {
      tokenInfo = null;
      return;
    }
    ObjectNode assistant = messages.addObject();
    assistant.put("role", "assistant");
    if (content.isEmpty()) {
      assistant.putNull("content");
    } else {
      assistant.put("content", content.toString());
    }
    if (!toolCalls.isEmpty()) {
      assistant.set("tool_calls", toolCalls.deepCopy());
    }
    if (tokenInfo != null) {
      for (String field : TOKEN_FIELDS) {
        JsonNode value = tokenInfo.get(field);
        if (value != null && !value.isNull()) {
          assistant.set(field, value);
        }
      }
    }
    content.setLength(0);
    toolCalls.removeAll();
    assistantBuffered = false;
    tokenInfo = null;
  }

  private ObjectNode parameters(ObjectNode request) {
    ObjectNode chat = Json.object();
    String instructions = Shape.text(request, "instructions");
    if (instructions != null && !instructions.isEmpty()) {
      StringBuilder system = new StringBuilder(instructions);
      while (!messages.isEmpty() && List.of("system", "developer").contains(Shape.text(messages.get(0), "role"))) {
        system.append("\n\n").append(flatten(messages.get(0).get("content")));
        messages.remove(0);
      }
      ObjectNode first = Json.object();
      first.put("role", "system");
      first.put("content", system.toString());
      messages.insert(0, first);
    }
    chat.set("messages", messages);
    for (String field : PASS_THROUGH) {
      if (request.has(field)) {
        chat.set(field, request.get(field));
      }
    }
    if (request.has("max_output_tokens") && !request.get("max_output_tokens").isNull()) {
      chat.set("max_tokens", request.get("max_output_tokens"));
    }
    JsonNode effort = request.path("reasoning").get("effort");
    if (effort != null && !effort.isNull()) {
      chat.set("reasoning_effort", effort);
    }
    JsonNode tools = request.get("tools");
    if (tools != null && tools.isArray() && !tools.isEmpty()) {
      ArrayNode chatTools = chat.putArray("tools");
      for (int i = 0; i < tools.size(); i++) {
        ObjectNode function = ((ObjectNode) tools.get(i)).deepCopy();
        if (!"function".equals(Shape.text(function, "type"))) {
          throw new FieldError(List.of("tools", i, "type"), "only function tools have a Chat Completions form",
              "value_error");
        }
        function.remove(List.of("type", "strict"));
        ObjectNode tool = chatTools.addObject();
        tool.put("type", "function");
        tool.set("function", function);
      }
    } else {
      if ("required".equals(Shape.text(request, "tool_choice"))) {
        throw new FieldError(List.of("tool_choice"), "tool_choice is 'required' but no tools are given", "value_error");
      }
      chat.remove(List.of("tool_choice", "parallel_tool_calls"));
    }
    return chat;
  }

  private static String flatten(JsonNode content) {
    return Shape.contentText(content);
  }

  public static List<String> tokenFields() {
    return new ArrayList<>(TOKEN_FIELDS);
  }
}
