package dev.gym4j.collect.data;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.wire.ResponsesToChat;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A rollout as a chat transcript, the form SFT and DPO trainers (TRL, OpenRLHF) read: the prompt messages
 * (system, user, …) and the completion messages (assistant turns with their tool calls, and the tool
 * results), converted with the same rules the model servers use, and the tools in Chat form.
 */
public record Transcript(ArrayNode prompt, ArrayNode completion, ArrayNode tools) {
  private static final Pattern THINK = Pattern.compile("<think>(.*?)</think>", Pattern.DOTALL);

  /** What to do with the model's reasoning in assistant messages. */
  public enum Reasoning {
    /** Leave it out: the model is trained on its answers only. */
    DROP,
    /** Keep it inline as {@code <think>…</think>} before the answer, as Qwen-style chat templates expect. */
    THINK,
    /** Keep it in a {@code reasoning_content} field of the assistant message. */
    FIELD
  }

  public static Transcript of(JsonNode row, Reasoning reasoning) {
    ObjectNode params = (ObjectNode) row.get("responses_create_params");
    ArrayNode prompt = (ArrayNode) ResponsesToChat.convert(params, false).get("messages");
    ObjectNode whole = params.deepCopy();
    ArrayNode items = Json.array();
    JsonNode input = params.get("input");
    if (input.isString()) {
      ObjectNode user = items.addObject();
      user.put("role", "user");
      user.put("content", input.stringValue());
    } else {
      input.forEach(items::add);
    }
    for (JsonNode item : row.path("response").path("output")) {
      if (reasoning != Reasoning.DROP || !"reasoning".equals(item.path("type").asString(""))) {
        items.add(item);
      }
    }
    whole.set("input", items);
    ObjectNode chat = ResponsesToChat.convert(whole, false);
    ArrayNode all = (ArrayNode) chat.get("messages");
    ArrayNode completion = Json.array();
    for (int i = prompt.size(); i < all.size(); i++) {
      ObjectNode message = (ObjectNode) all.get(i);
      if (reasoning == Reasoning.FIELD && "assistant".equals(message.path("role").asString(""))) {
        splitThinking(message);
      }
      completion.add(message);
    }
    ArrayNode tools = chat.get("tools") instanceof ArrayNode chatTools ? chatTools : Json.array();
    return new Transcript(prompt, completion, tools);
  }

  private static void splitThinking(ObjectNode message) {
    String content = message.path("content").asString(null);
    if (content == null) {
      return;
    }
    Matcher matcher = THINK.matcher(content);
    StringBuilder thinking = new StringBuilder();
    while (matcher.find()) {
      thinking.append(matcher.group(1));
    }
    if (!thinking.isEmpty()) {
      message.put("reasoning_content", thinking.toString());
      message.put("content", THINK.matcher(content).replaceAll(""));
    }
  }

  /** The prompt followed by the completion. */
  public ArrayNode messages() {
    ArrayNode all = prompt.deepCopy();
    all.addAll(completion.deepCopy());
    return all;
  }

  static List<String> fields() {
    return List.of("prompt", "completion", "tools");
  }
}
