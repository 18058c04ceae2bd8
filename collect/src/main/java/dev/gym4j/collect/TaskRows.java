package dev.gym4j.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Input rows expanded into the rollouts to run, as NeMo Gym's collector does: the first {@code limit}
 * lines; {@code agent_ref} filled where missing; {@code responses_create_params} overrides merged at the top
 * level; a task index per distinct line (or the row's own); each task repeated {@code repeats} times with
 * {@code _ng_rollout_index} 0..k-1, contiguously.
 */
final class TaskRows {
  private TaskRows() {}

  static List<ObjectNode> expand(CollectOptions options) {
    List<String> lines;
    try {
      lines = Files.readAllLines(options.input());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + options.input(), e);
    }
    List<ObjectNode> rollouts = new ArrayList<>();
    Map<String, Integer> taskOfLine = new HashMap<>();
    Map<Integer, Integer> rolloutsOfTask = new HashMap<>();
    int read = 0;
    for (int number = 1; number <= lines.size(); number++) {
      String line = lines.get(number - 1);
      if (line.isBlank()) {
        continue;
      }
      if (options.limit() > 0 && read >= options.limit()) {
        break;
      }
      read++;
      ObjectNode row = parse(options.input(), number, line);
      if (!row.has("agent_ref")) {
        if (options.agent() == null) {
          throw new ConfigException(options.input() + " line " + number + " has no agent_ref; name the agent with "
              + "--agent or +agent_name=");
        }
        ObjectNode ref = row.putObject("agent_ref");
        ref.put("type", "responses_api_agents");
        ref.put("name", options.agent());
      }
      ((ObjectNode) row.get("responses_create_params")).setAll(options.paramsOverride().deepCopy());
      int task = row.has("_ng_task_index") ? row.get("_ng_task_index").asInt()
          : taskOfLine.computeIfAbsent(line, l -> taskOfLine.size());
      for (int repeat = 0; repeat < options.repeats(); repeat++) {
        ObjectNode rollout = row.deepCopy();
        rollout.put("_ng_task_index", task);
        rollout.put("_ng_rollout_index", rolloutsOfTask.merge(task, 1, Integer::sum) - 1);
        rollouts.add(rollout);
      }
    }
    return rollouts;
  }

  private static ObjectNode parse(Path file, int number, String line) {
    try {
      JsonNode row = Json.parse(line);
      if (!(row instanceof ObjectNode object)) {
        throw new ConfigException(file + " line " + number + " is not a JSON object");
      }
      ResponseCreateParams.of(object.get("responses_create_params") == null ? null
          : object.get("responses_create_params"), List.of("responses_create_params"));
      return object;
    } catch (JacksonException e) {
      throw new ConfigException(file + " line " + number + " is not valid JSON: " + e.getOriginalMessage());
    } catch (FieldError e) {
      throw new ConfigException(file + " line " + number + ": " + e.dottedLocation() + ": " + e.getMessage());
    }
  }

  /** The (task, rollout) key of a row. */
  static String key(JsonNode row) {
    return row.path("_ng_task_index").asLong() + ":" + row.path("_ng_rollout_index").asLong();
  }
}
