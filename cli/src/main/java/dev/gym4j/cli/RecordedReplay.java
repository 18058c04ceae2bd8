package dev.gym4j.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.model.Recording;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code gym4j eval} runs when no model is configured: {@code replay_model} over an environment's
 * {@code data/example_rollouts.jsonl}, with the task rows those rollouts were made from (joined with the
 * materialized inputs, or the example rows, where the recording lacks the task's fields; or
 * {@code data/example_rollouts_replay_inputs.jsonl} where gym4j ships them) as the input, so
 * row {@code i} of the input is recording {@code i}. {@link #compare} then says whether each replayed
 * rollout got its recorded reward.
 */
final class RecordedReplay {
  /** Task rows gym4j ships where a recording lacks fields its replay needs (see RecordedRolloutsTest). */
  static final String REPLAY_INPUTS = "example_rollouts_replay_inputs.jsonl";
  private final Path recordings;
  private final List<Recording> rows;
  private final List<JsonNode> tasks;

  private RecordedReplay(Path recordings, List<Recording> rows, List<JsonNode> tasks) {
    this.recordings = recordings;
    this.rows = rows;
    this.tasks = tasks;
  }

  /**
   * The environment's recorded rollouts; {@code unknown} when there is no such environment, else a config
   * error saying a model is needed.
   */
  static Path locate(String environment, ConfigException unknown) {
    try {
      InstallPaths.locate("environments/" + environment + "/config.yaml");
    } catch (ConfigException e) {
      throw unknown;
    }
    String file = "environments/" + environment + "/data/example_rollouts.jsonl";
    try {
      return InstallPaths.locate(file).toAbsolutePath();
    } catch (ConfigException e) {
      throw new ConfigException(EvalCommand.NO_MODEL + " (there is no " + file + " to replay instead)");
    }
  }

  static RecordedReplay of(Path recordings, Path exampleData) {
    List<Recording> rows = Recording.read(recordings);
    Path prepared = recordings.resolveSibling(REPLAY_INPUTS);
    if (Files.exists(prepared)) {
      List<JsonNode> tasks = Json.readLines(prepared);
      if (tasks.size() != rows.size()) {
        throw new ConfigException(prepared + " has " + tasks.size() + " rows for the " + rows.size() + " of "
            + recordings.getFileName());
      }
      return new RecordedReplay(recordings, rows, tasks);
    }
    Path materialized = recordings.resolveSibling("example_rollouts_materialized_inputs.jsonl");
    List<JsonNode> known = Files.exists(materialized) ? Json.readLines(materialized)
        : Files.exists(exampleData) ? Json.readLines(exampleData) : List.of();
    List<JsonNode> joined = Recording.joined(rows.stream().map(r -> (JsonNode) r.row()).toList(), known);
    List<JsonNode> tasks = new ArrayList<>();
    for (int i = 0; i < joined.size(); i++) {
      ObjectNode task = new Recording(rows.get(i).source(), joined.get(i)).task();
      // the environment's own agent runs every row (some recorded rows name agents of NeMo Gym's other configs)
      task.remove("agent_ref");
      tasks.add(task);
    }
    return new RecordedReplay(recordings, rows, tasks);
  }

  Path recordings() {
    return recordings;
  }

  /** The one line {@code eval} prints: which recording, which model produced it. */
  String describe() {
    Set<String> models = new LinkedHashSet<>();
    rows.forEach(row -> row.model().ifPresent(models::add));
    return "no model configured: replaying " + rows.size() + " recorded rollouts of " + recordings.getFileName()
        + " in " + recordings.getParent() + (models.isEmpty() ? "" : " (recorded from " + String.join(", ", models)
        + ")") + " with replay_model; give --model-url and --model to evaluate a live model";
  }

  /** Writes the task rows, one per recording in order, to a file for the collector. */
  Path writeTasks(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      List<String> lines = tasks.stream().map(Json::write).toList();
      Files.write(file, lines);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many replayed rollouts got their recorded reward, and a note on the first that did not. */
  String compare(Path output) {
    if (!Files.exists(output)) {
      return "replayed rewards: no rollouts written";
    }
    int same = 0;
    int compared = 0;
    Optional<String> first = Optional.empty();
    for (JsonNode rollout : Json.readLines(output)) {
      int task = rollout.path("_ng_task_index").asInt(-1);
      if (task < 0 || task >= rows.size() || rows.get(task).reward().isEmpty()) {
        continue;
      }
      compared++;
      double recorded = rows.get(task).reward().get();
      double replayed = rollout.path("reward").asDouble(Double.NaN);
      if (Math.abs(recorded - replayed) < 1e-9) {
        same++;
      } else if (first.isEmpty()) {
        first = Optional.of("; " + rows.get(task).source() + " was recorded " + recorded + ", replayed " + replayed);
      }
    }
    return "replayed rewards equal to the recorded ones: " + same + " of " + compared + first.orElse("");
  }
}
