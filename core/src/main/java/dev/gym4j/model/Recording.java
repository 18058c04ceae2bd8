package dev.gym4j.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.json.Shape;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One recorded rollout (a row of a NeMo Gym or gym4j rollouts file) read as a script of model turns: the
 * conversation is the recorded {@code responses_create_params.input} followed by {@code response.output};
 * a model turn is a run of items the model wrote (messages of the assistant, function calls, reasoning)
 * between items the loop added (tool outputs, user observations). {@link #next} answers the turn that
 * follows a conversation, and only when the conversation is the recording's up to a turn boundary.
 *
 * <p>Items are compared on what the model or the tools said, not on how it was spelled: ids and statuses
 * are ignored, message content is compared as text and image URLs, and tool arguments and outputs that are JSON are
 * compared as values (Python writes {@code {"a": 1}}, we write {@code {"a":1}}). A JSON tool output's
 * {@link #MEASURES} (how long a sandboxed run took and how much it used, which differ on every run) are left out:
 * what the tool said is its outcome, exit code and output. Immutable.
 */
public final class Recording {
  private static final List<String> ADDED_BY_ROLLOUT = List.of("response", "reward", "reward_components",
      "_ng_task_index", "_ng_rollout_index");

  /** The fields of a sandboxed run's answer that measure it rather than say what it did. */
  static final List<String> MEASURES = List.of("wall_time_seconds", "cpu_time_seconds", "peak_memory_bytes",
      "usage_measured");

  private final String source;
  private final ObjectNode row;
  private final List<JsonNode> input;
  private final List<JsonNode> output;

  public Recording(String source, JsonNode row) {
    if (!(row instanceof ObjectNode object) || !object.path("response").isObject()) {
      throw new IllegalArgumentException(source + ": not a recorded rollout (no response object)");
    }
    this.source = source;
    this.row = object;
    this.input = inputItems(object.path("responses_create_params").get("input"));
    this.output = items(outputItems(object.get("response")));
  }

  /** Every row of a rollouts file, named {@code <file> line <n>}. */
  public static List<Recording> read(Path file) {
    List<Recording> recordings = new ArrayList<>();
    int line = 0;
    for (JsonNode row : Json.readLines(file)) {
      line++;
      recordings.add(new Recording(file.getFileName() + " line " + line, row));
    }
    return recordings;
  }

  /** Where it was read from, e.g. {@code example_rollouts.jsonl line 3}. */
  public String source() {
    return source;
  }

  /** The recorded row, unchanged. */
  public ObjectNode row() {
    return row;
  }

  /** The model that produced it, as the recorded response names it. */
  public Optional<String> model() {
    return Optional.ofNullable(Shape.text(row.get("response"), "model"));
  }

  /** The recorded reward, when there is one. */
  public Optional<Double> reward() {
    JsonNode reward = row.get("reward");
    return reward != null && reward.isNumber() ? Optional.of(reward.asDouble()) : Optional.empty();
  }

  /** The recorded output items (for a response of transitions, those of the last one). */
  public List<JsonNode> output() {
    return output;
  }

  /** The model turns in order, each the items of one model call. */
  public List<ArrayNode> turns() {
    List<ArrayNode> turns = new ArrayList<>();
    ArrayNode turn = Json.array();
    for (JsonNode item : output) {
      if (fromModel(item)) {
        turn.add(item.deepCopy());
      } else if (!turn.isEmpty()) {
        turns.add(turn);
        turn = Json.array();
      }
    }
    if (!turn.isEmpty()) {
      turns.add(turn);
    }
    return turns;
  }

  /** The task row the rollout was made from: the recorded row without what the rollout and verify added. */
  public ObjectNode task() {
    ObjectNode task = row.deepCopy();
    task.remove(ADDED_BY_ROLLOUT);
    return task;
  }

  /**
   * The model turn that follows {@code conversation} (the input items of a request), or why there is none:
   * the conversation must equal the recording's up to a point where the model spoke next.
   */
  public Match next(List<JsonNode> conversation) {
    List<JsonNode> recorded = new ArrayList<>(input);
    recorded.addAll(output);
    for (int i = 0; i < conversation.size(); i++) {
      if (i >= recorded.size()) {
        return new Mismatch(this, i, "the recording ends before it", describe(conversation.get(i)));
      }
      if (!same(recorded.get(i), conversation.get(i))) {
        return new Mismatch(this, i, describe(recorded.get(i)), describe(conversation.get(i)));
      }
    }
    int start = conversation.size() - input.size();
    if (start < 0) {
      return new Mismatch(this, conversation.size(), describe(recorded.get(conversation.size())),
          "the end of the input");
    }
    if (start >= output.size()) {
      return new Mismatch(this, conversation.size(), "no further model turn (the recording "
          + "is finished)", "a request for one");
    }
    if (!fromModel(output.get(start)) || (start > 0 && fromModel(output.get(start - 1)))) {
      return new Mismatch(this, conversation.size(), describe(output.get(start)),
          "a request for a model turn");
    }
    ArrayNode turn = Json.array();
    int end = start;
    while (end < output.size() && fromModel(output.get(end))) {
      turn.add(output.get(end++).deepCopy());
    }
    return new Turn(this, turn, end == output.size());
  }

  /** What {@link #next} found. */
  public sealed interface Match permits Turn, Mismatch {
    Recording recording();
  }

  /** The next model turn; {@code last} when the recorded rollout ends with it. */
  public record Turn(Recording recording, ArrayNode items, boolean last) implements Match {}

  /**
   * No turn follows: item {@code index} of the request's input is not what the recording has there (the
   * items before it agreed).
   */
  public record Mismatch(Recording recording, int index, String expected, String found)
      implements Match {
    public String describe() {
      return recording.source() + ": input item " + index + " is " + found + ", the recording has " + expected;
    }
  }

  /**
   * Recorded rollouts joined with the task rows they were made from, for older NeMo Gym files whose
   * rollouts lack the task's fields: a task row matches by {@code _ng_task_index} (materialized inputs, which
   * win over what the rollout echoes), else by the text of its prompt and the URLs of its images.
   */
  public static List<JsonNode> joined(List<JsonNode> rollouts, List<JsonNode> tasks) {
    Map<String, JsonNode> byPrompt = new HashMap<>();
    Map<Long, JsonNode> byIndex = new HashMap<>();
    for (JsonNode task : tasks) {
      byPrompt.put(promptText(task), task);
      if (task.path("_ng_task_index").isIntegralNumber()) {
        byIndex.put(task.get("_ng_task_index").asLong(), task);
      }
    }
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode rollout : rollouts) {
      ObjectNode joined = ((ObjectNode) rollout).deepCopy();
      JsonNode indexed = byIndex.get(rollout.path("_ng_task_index").asLong(-1));
      if (indexed != null) {
        joined.set("responses_create_params", indexed.get("responses_create_params"));
      }
      JsonNode task = indexed != null ? indexed : byPrompt.get(promptText(rollout));
      if (task != null) {
        for (var field : task.properties()) {
          if (!joined.has(field.getKey())) {
            joined.set(field.getKey(), field.getValue());
          }
        }
      }
      out.add(joined);
    }
    return out;
  }

  private static String promptText(JsonNode row) {
    JsonNode input = row.path("responses_create_params").path("input");
    if (input.isString()) {
      return input.stringValue();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode item : input) {
      text.append(Shape.contentText(item.get("content"))).append('\u0000');
      // rows that differ only in their image (one question asked of many pictures) are different prompts
      images(item.get("content")).forEach(url -> text.append(url).append('\u0000'));
    }
    return text.toString();
  }

  /** A request's input as items: a plain string is one user message, as the Responses API defines it. */
  public static List<JsonNode> inputItems(JsonNode input) {
    if (input == null || input.isNull()) {
      return List.of();
    }
    if (input.isString()) {
      ObjectNode message = Json.object();
      message.put("role", "user");
      message.put("content", input.stringValue());
      return List.of(message);
    }
    return items(input);
  }

  /** The items of one recorded response; for a response of transitions, those of the last transition. */
  private static JsonNode outputItems(JsonNode response) {
    JsonNode output = response.path("output");
    if (response.path("contains_transitions").asBoolean(false) && !output.isEmpty()) {
      return output.get(output.size() - 1);
    }
    return output;
  }

  private static List<JsonNode> items(JsonNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return Collections.unmodifiableList(items);
  }

  private static String type(JsonNode item) {
    return item.path("type").asString("message");
  }

  /** Whether the model wrote this item (everything but tool outputs and non-assistant messages). */
  private static boolean fromModel(JsonNode item) {
    return switch (type(item)) {
      case "function_call_output" -> false;
      case "message" -> "assistant".equals(item.path("role").asString("assistant"));
      default -> true;
    };
  }

  static boolean same(JsonNode recorded, JsonNode sent) {
    String type = type(recorded);
    if (!type.equals(type(sent))) {
      return false;
    }
    return switch (type) {
      case "message" -> recorded.path("role").asString("").equals(sent.path("role").asString(""))
          && Shape.contentText(recorded.get("content")).equals(Shape.contentText(sent.get("content")))
          && images(recorded.get("content")).equals(images(sent.get("content")));
      case "function_call" -> recorded.path("name").asString("").equals(sent.path("name").asString(""))
          && recorded.path("call_id").asString("").equals(sent.path("call_id").asString(""))
          && sameText(recorded.path("arguments").asString(""), sent.path("arguments").asString(""));
      case "function_call_output" -> recorded.path("call_id").asString("").equals(sent.path("call_id").asString(""))
          && sameOutput(outputText(recorded), outputText(sent));
      case "reasoning" -> summary(recorded).equals(summary(sent));
      default -> withoutIds(recorded).equals(withoutIds(sent));
    };
  }

  /**
   * The URLs of a message's images, in order: Responses {@code input_image} parts ({@code image_url} a string or
   * an object with {@code url}) and Chat {@code image_url} parts alike.
   */
  public static List<String> images(JsonNode content) {
    List<String> urls = new ArrayList<>();
    if (content != null && content.isArray()) {
      for (JsonNode part : content) {
        String type = part.path("type").asString("");
        if (type.equals("input_image") || type.equals("image_url")) {
          JsonNode url = part.path("image_url");
          urls.add(url.isObject() ? url.path("url").asString("") : url.asString(""));
        }
      }
    }
    return urls;
  }

  /** Equal text, or JSON texts with equal values. */
  private static boolean sameText(String recorded, String sent) {
    if (recorded.equals(sent)) {
      return true;
    }
    try {
      return PythonEquality.equal(Json.parse(recorded), Json.parse(sent));
    } catch (JacksonException | IllegalArgumentException e) {
      return false;
    }
  }

  /** Equal tool outputs: {@link #sameText}, or JSON objects equal but for their {@link #MEASURES}. */
  private static boolean sameOutput(String recorded, String sent) {
    if (sameText(recorded, sent)) {
      return true;
    }
    try {
      return Json.parse(recorded) instanceof ObjectNode a && Json.parse(sent) instanceof ObjectNode b
          && a.has("wall_time_seconds") && PythonEquality.equal(a.deepCopy().remove(MEASURES),
              b.deepCopy().remove(MEASURES));
    } catch (JacksonException | IllegalArgumentException e) {
      return false;
    }
  }

  private static String outputText(JsonNode item) {
    JsonNode output = item.get("output");
    return output == null || output.isNull() ? "" : output.isString() ? output.stringValue() : Json.write(output);
  }

  private static String summary(JsonNode reasoning) {
    StringBuilder text = new StringBuilder();
    for (JsonNode part : reasoning.path("summary")) {
      text.append(part.path("text").asString("")).append('\u0000');
    }
    return text.toString();
  }

  private static JsonNode withoutIds(JsonNode item) {
    if (!(item instanceof ObjectNode object)) {
      return item;
    }
    ObjectNode copy = object.deepCopy();
    copy.remove(List.of("id", "status"));
    return copy;
  }

  /** A short description of an item for an error: its kind and the start of its text. */
  static String describe(JsonNode item) {
    String type = type(item);
    String detail = switch (type) {
      case "message" -> item.path("role").asString("?") + " message \"" + Shape.contentText(item.get("content")) + "\"";
      case "function_call" -> "function_call " + item.path("name").asString("?") + "(" + item.path("arguments")
          .asString("") + ")";
      case "function_call_output" -> "function_call_output for " + item.path("call_id").asString("?") + " \""
          + outputText(item) + "\"";
      default -> type + " item";
    };
    return detail.length() > 160 ? detail.substring(0, 157) + "...\"" : detail;
  }
}
