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
    PromptTemplate prompt = options.promptConfig() == null ? null : PromptTemplate.load(options.promptConfig());
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
      ObjectNode row = parse(options.input(), number, line, prompt);
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
      int repeats = repeats(options, row.path("agent_ref").path("name").asString(""), number);
      for (int repeat = 0; repeat < repeats; repeat++) {
        ObjectNode rollout = row.deepCopy();
        rollout.put("_ng_task_index", task);
        int index = rolloutsOfTask.merge(task, 1, Integer::sum) - 1;
        rollout.put("_ng_rollout_index", index);
        if (options.addSeed()) {
          addSeed((ObjectNode) rollout.get("responses_create_params"), index);
        }
        rollouts.add(rollout);
      }
    }
    return rollouts;
  }

  /** NeMo Gym's num_repeats: one number for every row, or a count per agent with {@code _default} for the rest. */
  private static int repeats(CollectOptions options, String agent, int number) {
    if (options.repeatsByAgent().isEmpty()) {
      return options.repeats();
    }
    Integer count = options.repeatsByAgent().getOrDefault(agent, options.repeatsByAgent().get("_default"));
    if (count == null) {
      throw new ConfigException("num_repeats has no entry for agent " + agent + " (" + options.input() + " line "
          + number + ") and no _default; it lists " + options.repeatsByAgent().keySet());
    }
    return count;
  }

  /**
   * NeMo Gym's num_repeats_add_seed: the rollout index as {@code seed} in {@code metadata.extra_body}, a JSON
   * string that vLLM model servers merge into their request.
   */
  private static void addSeed(ObjectNode params, int index) {
    ObjectNode metadata = params.get("metadata") instanceof ObjectNode m ? m : params.putObject("metadata");
    JsonNode existing = metadata.get("extra_body");
    ObjectNode extraBody;
    try {
      extraBody = existing != null && existing.isString() && Json.parse(existing.asString()) instanceof ObjectNode e
          ? e : Json.object();
    } catch (JacksonException e) {
      extraBody = Json.object();
    }
    extraBody.put("seed", index);
    metadata.put("extra_body", Json.write(extraBody));
  }

  private static ObjectNode parse(Path file, int number, String line, PromptTemplate prompt) {
    try {
      JsonNode row = Json.parse(line);
      if (!(row instanceof ObjectNode object)) {
        throw new ConfigException(file + " line " + number + " is not a JSON object");
      }
      if (prompt != null) {
        prompt.apply(object, file + " line " + number);
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
