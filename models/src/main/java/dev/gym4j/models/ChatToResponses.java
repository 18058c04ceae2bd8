package dev.gym4j.models;

import java.time.Instant;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponsesToChat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a Chat Completions answer back into a Responses object: output items in the order reasoning,
 * message, function calls; {@code finish_reason} as {@code status}/{@code incomplete_details}; usage under
 * Responses names; the request's parameters echoed.
 */
final class ChatToResponses {
  static final List<String> ECHOED = List.of("instructions", "max_output_tokens", "metadata",
      "parallel_tool_calls", "reasoning", "temperature", "text", "tool_choice", "tools", "top_p", "top_logprobs",
      "truncation", "user", "service_tier", "background", "max_tool_calls", "previous_response_id", "prompt");

  private ChatToResponses() {}

  /**
   * The output items of one assistant message.
   *
   * @param splitThinking take {@code <think>} blocks out of the text as a reasoning item
   * @param withTokenInfo move the message's token bundle onto the last item
   */
  static ArrayNode items(ObjectNode message, boolean splitThinking, boolean withTokenInfo) {
    ArrayNode items = Json.array();
    String content = Shape.text(message, "content");
    if (content == null) {
      content = "";
    }
    if (splitThinking) {
      ArrayNode summary = Json.array();
      for (String thought : ThinkBlocks.contents(content)) {
        ObjectNode part = summary.addObject();
        part.put("type", "summary_text");
        part.put("text", thought);
      }
      if (!summary.isEmpty()) {
        ObjectNode reasoning = items.addObject();
        reasoning.put("id", Ids.of("rs_"));
        reasoning.put("type", "reasoning");
        reasoning.set("summary", summary);
        content = ThinkBlocks.without(content);
      }
    }
    JsonNode toolCalls = message.path("tool_calls");
    if (!content.isEmpty() || (items.isEmpty() && toolCalls.isEmpty())) {
      ObjectNode out = items.addObject();
      out.put("id", Ids.of("msg_"));
      out.put("type", "message");
      out.put("role", "assistant");
      out.put("status", "completed");
      ObjectNode text = out.putArray("content").addObject();
      text.put("type", "output_text");
      text.put("text", content);
      text.putArray("annotations");
    }
    for (JsonNode call : toolCalls) {
      ObjectNode item = items.addObject();
      item.put("id", Shape.text(call, "id"));
      item.put("call_id", Shape.text(call, "id"));
      item.put("type", "function_call");
      item.put("name", call.path("function").path("name").asString());
      item.put("arguments", call.path("function").path("arguments").asString());
      item.put("status", "completed");
    }
    if (withTokenInfo && message.has(Item.GENERATION_TOKEN_IDS)) {
      ObjectNode last = (ObjectNode) items.get(items.size() - 1);
      for (String field : ResponsesToChat.tokenFields()) {
        JsonNode value = message.get(field);
        if (value != null && !value.isNull()) {
          last.set(field, value);
        }
      }
    }
    return items;
  }

  /** The Responses object for a chat answer to {@code request}. */
  static Response response(ChatCompletion chat, ObjectNode request, String model, boolean splitThinking,
      boolean withTokenInfo) {
    ObjectNode response = Json.object();
    response.put("id", Ids.of("resp_"));
    response.put("object", "response");
    JsonNode created = chat.json().get("created");
    response.put("created_at", created != null && created.isNumber() ? created.asLong()
        : Instant.now().getEpochSecond());
    response.put("model", model);
    ObjectNode message = chat.message().map(m -> m.json()).orElseGet(Json::object);
    response.set("output", items(message, splitThinking, withTokenInfo));
    String finish = chat.finishReason();
    if ("length".equals(finish) || "content_filter".equals(finish)) {
      response.put("status", "incomplete");
      response.putObject("incomplete_details").put("reason", "length".equals(finish) ? "max_output_tokens"
          : "content_filter");
    } else {
      response.put("status", "completed");
      response.putNull("incomplete_details");
    }
    response.putNull("error");
    for (String field : ECHOED) {
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
    response.set("usage", usage(chat.json().get("usage")));
    return new Response(response);
  }

  /**
   * Chat usage under Responses names. A detail count the backend does not report is 0, not null: OpenAI's
   * clients (the official SDKs among them) require numbers there, while NeMo Gym writes null.
   */
  static JsonNode usage(JsonNode chat) {
    if (chat == null || !chat.isObject()) {
      return null;
    }
    ObjectNode usage = Json.object();
    usage.put("input_tokens", chat.path("prompt_tokens").asLong(0));
    ObjectNode inputDetails = usage.putObject("input_tokens_details");
    inputDetails.set("cached_tokens", firstNumber(chat.path("prompt_tokens_details").get("cached_tokens"),
        chat.get("cached_input_tokens"), chat.get("cache_read_input_tokens")));
    inputDetails.set("cache_write_tokens", firstNumber(chat.path("prompt_tokens_details").get("cache_write_tokens"),
        chat.get("cache_creation_input_tokens")));
    usage.put("output_tokens", chat.path("completion_tokens").asLong(0));
    usage.putObject("output_tokens_details").set("reasoning_tokens", firstNumber(
        chat.path("completion_tokens_details").get("reasoning_tokens"), chat.get("reasoning_output_tokens")));
    usage.put("total_tokens", chat.has("total_tokens") ? chat.path("total_tokens").asLong()
        : usage.get("input_tokens").asLong() + usage.get("output_tokens").asLong());
    return usage;
  }

  private static JsonNode firstNumber(JsonNode... candidates) {
    for (JsonNode candidate : candidates) {
      if (candidate != null && candidate.isIntegralNumber()) {
        return candidate;
      }
    }
    return tools.jackson.databind.node.IntNode.valueOf(0);
  }
}
