package dev.gym4j.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * gym4j's own recordings, for environments where NeMo Gym ships none or where NeMo Gym's no longer replay
 * (recorded by an older tool, or without the judge's answers): each is made by running the real environment,
 * through its agent's live loop, against a scripted model and judge, and writing the rollout that came back.
 * Nothing in it is written by hand: the tool outputs, the verdict fields and the reward are the environment's.
 *
 * <p>{@link #check} compares what the environment gives now with the shipped file on what the model, the tools
 * and the judge said and on the reward (not on ids or timings); with {@code -Dgym4j.writeRecordings=true} it
 * rewrites the file instead.
 */
public final class ScriptedRecordings {
  /** The fields of a tool output that measure a run rather than say what it did; never compared. */
  private static final List<String> MEASURES = List.of("wall_time_seconds", "cpu_time_seconds", "peak_memory_bytes",
      "usage_measured");

  private ScriptedRecordings() {}

  /** One scripted rollout: the task row, the model's turns in order, then the judge's answers in order. */
  public record Script(JsonNode task, List<ArrayNode> turns, List<Answer> judge) {}

  /**
   * The rollouts the environment gives for these scripts, in order. Each keeps its task's {@code _ng_task_index}
   * (the row of the task file it came from, which replay joins on), else gets its place in the list.
   */
  public static List<JsonNode> record(EnvironmentHarness harness, List<Script> scripts) {
    List<JsonNode> rollouts = new ArrayList<>();
    for (int i = 0; i < scripts.size(); i++) {
      Script script = scripts.get(i);
      int before = harness.model().calls();
      script.turns().forEach(turn -> harness.model().enqueue(Answer.output(turn)));
      script.judge().forEach(harness.model()::enqueue);
      ObjectNode task = (ObjectNode) script.task().deepCopy();
      if (!task.has("response")) {
        // a task row not yet rolled out: the harness reads its task fields as a recording's
        task.putObject("response").putArray("output");
      }
      ObjectNode rollout = (ObjectNode) harness.replay(task);
      // every scripted answer was asked for, so none is left over for the next script
      assertThat(harness.model().calls() - before).as("model and judge calls of script %d", i + 1)
          .isEqualTo(script.turns().size() + script.judge().size());
      rollout.put("_ng_task_index", script.task().path("_ng_task_index").asInt(i));
      rollout.put("_ng_rollout_index", 0);
      rollouts.add(rollout);
    }
    return rollouts;
  }

  /**
   * Asserts the shipped recording holds what the environment gave (see the class comment); with
   * {@code -Dgym4j.writeRecordings=true}, writes it first.
   */
  public static void check(Path shipped, List<JsonNode> made) {
    try {
      if (Boolean.getBoolean("gym4j.writeRecordings")) {
        Files.write(shipped, made.stream().map(Json::write).toList());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JsonNode> rows = Json.readLines(shipped);
    assertThat(rows).as(shipped + " (rewrite with -Dgym4j.writeRecordings=true)").hasSameSizeAs(made);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(said(made.get(i))).as("%s line %d (rewrite with -Dgym4j.writeRecordings=true)", shipped, i + 1)
          .isEqualTo(said(rows.get(i)));
    }
  }

  /** What a rollout says: its reward, every output item's words and tool results, and the judge's texts. */
  static List<String> said(JsonNode rollout) {
    List<String> said = new ArrayList<>();
    said.add("reward " + rollout.path("reward").asDouble());
    for (JsonNode item : rollout.path("response").path("output")) {
      String type = item.path("type").asString("message");
      said.add(switch (type) {
        case "function_call" -> "call " + item.path("name").asString("") + " " + item.path("arguments").asString("");
        case "function_call_output" -> "output " + withoutMeasures(item.path("output").asString(""));
        case "message" -> item.path("role").asString("") + " " + texts(item.path("content"));
        default -> type + " " + texts(item.path("summary"));
      });
    }
    for (JsonNode evaluation : rollout.path("judge_evaluations")) {
      for (JsonNode item : evaluation.path("response").path("output")) {
        said.add("judge " + texts(item.path("content")));
      }
    }
    return said;
  }

  private static String texts(JsonNode parts) {
    if (parts.isString()) {
      return parts.asString();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode part : parts) {
      text.append(part.path("text").asString("")).append('\n');
    }
    return text.toString();
  }

  private static String withoutMeasures(String output) {
    try {
      JsonNode json = Json.parse(output);
      if (json instanceof ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        copy.remove(MEASURES);
        return Json.write(copy);
      }
      return Json.write(json);
    } catch (RuntimeException e) {
      return output;
    }
  }
}
