package dev.gym4j.viewer;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads the summary of one rollout line ({@link Row}); a rollout line is a NeMo Gym verify response. */
final class RowReader {
  private static final int PROMPT_CHARS = 160;
  private static final List<String> USAGE = List.of("input_tokens", "output_tokens", "total_tokens");

  private RowReader() {}

  /** The summary of {@code node}, read from {@code length} bytes at {@code offset}. */
  static Row read(int index, boolean failures, long offset, int length, JsonNode node) {
    JsonNode rewardNode = node.get("reward");
    double reward = !failures && rewardNode != null && rewardNode.isNumber() ? rewardNode.asDouble() : Double.NaN;
    JsonNode taskIndex = node.get("_ng_task_index");
    JsonNode input = node.path("responses_create_params").path("input");
    String task = taskIndex != null && taskIndex.canConvertToLong() ? "#" + taskIndex.asLong()
        : "p" + Long.toHexString(hash(input.toString()));
    JsonNode usage = node.path("response").path("usage");
    JsonNode failureClass = node.get("_ng_failure_class");
    return new Row(index, failures, offset, length, reward, task.intern(), prompt(input),
        node.path("_ng_rollout_index").asInt(-1), node.path("agent_ref").path("name").asString("").intern(),
        failureClass == null ? (failures ? "unknown" : null) : failureClass.asString("unknown").intern(),
        tools(node.path("response").path("output")), usage.path("input_tokens").asInt(-1),
        usage.path("output_tokens").asInt(-1), turns(node.path("response").path("output")), slim(node, task));
  }

  /** The last user message, cut short: what the table shows of the task. */
  private static String prompt(JsonNode input) {
    if (input.isString()) {
      return cut(input.asString());
    }
    String last = "";
    for (JsonNode message : input) {
      if ("user".equals(message.path("role").asString(""))) {
        last = text(message.path("content"));
      }
    }
    return cut(last);
  }

  private static String text(JsonNode content) {
    if (content.isString()) {
      return content.asString();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode part : content) {
      text.append(part.path("text").asString(""));
      if (text.length() > PROMPT_CHARS) {
        break;
      }
    }
    return text.toString();
  }

  private static String cut(String text) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() > PROMPT_CHARS ? flat.substring(0, PROMPT_CHARS) + "…" : flat;
  }

  private static List<String> tools(JsonNode output) {
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode item : output) {
      if ("function_call".equals(item.path("type").asString(""))) {
        names.add(item.path("name").asString("").intern());
      }
    }
    return List.copyOf(names);
  }

  /** Model turns: each run of output items that a tool output ends (or the output's end) is one turn. */
  private static int turns(JsonNode output) {
    int turns = 0;
    boolean inTurn = false;
    for (JsonNode item : output) {
      boolean toolOutput = "function_call_output".equals(item.path("type").asString(""));
      if (!toolOutput && !inTurn) {
        turns++;
      }
      inTurn = !toolOutput;
    }
    return turns;
  }

  /**
   * The fields {@code AggregateMetrics} reads: numeric and boolean top-level fields, usage, the task and rollout
   * indexes, the agent and the extracted answer. The prompt is replaced by its hash, which groups the same way.
   */
  private static ObjectNode slim(JsonNode node, String task) {
    ObjectNode slim = Json.object();
    for (var field : node.properties()) {
      JsonNode value = field.getValue();
      if (value.isNumber() || value.isBoolean()) {
        slim.set(field.getKey(), value);
      }
    }
    if (node.has("agent_ref")) {
      slim.putObject("agent_ref").put("name", node.path("agent_ref").path("name").asString(""));
    }
    JsonNode answer = node.get("extracted_answer");
    if (answer != null && (answer.isValueNode())) {
      slim.set("extracted_answer", answer);
    }
    ObjectNode usage = Json.object();
    for (String field : USAGE) {
      JsonNode value = node.path("response").path("usage").get(field);
      if (value != null && value.isNumber()) {
        usage.set(field, value);
      }
    }
    if (!usage.isEmpty()) {
      slim.putObject("response").set("usage", usage);
    }
    slim.putObject("responses_create_params").put("input", task);
    return slim;
  }

  /** FNV-1a over the prompt's text: tasks of files without {@code _ng_task_index} are told apart by prompt. */
  private static long hash(String text) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < text.length(); i++) {
      h ^= text.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }
}
