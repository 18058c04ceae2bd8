package dev.gym4j.collect.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

import dev.gym4j.collect.PromptTemplate;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's {@code prepare_data}: the datasets named in the config's agent blocks ({@code datasets:
 * [{name, type, jsonl_fpath, num_repeats}]}), each row repeated {@code num_repeats} times in place and
 * given the {@code agent_ref} of its agent, then shuffled with a seed and written as one file, or split
 * into parts. This is the file NeMo RL (and VeRL's nemo_gym recipe) trains from.
 */
public final class Collator {
  /** What was written: each file and its row count. */
  public record Result(Map<Path, Integer> files) {}

  private Collator() {}

  /**
   * @param types dataset types to gather (train, validation, example, benchmark)
   * @param split part name → fraction; empty for one file. With parts, each goes to {@code <name>.jsonl}
   *     in the output's folder.
   */
  public static Result collate(GlobalConfig config, Set<String> types, Path output, Map<String, Double> split,
      long seed, Function<String, Path> locate) {
    List<JsonNode> rows = new ArrayList<>();
    for (ServerInstance agent : config.instances()) {
      if (agent.kind() != ServerKind.AGENT) {
        continue;
      }
      for (JsonNode dataset : agent.config().path("datasets")) {
        if (!types.contains(dataset.path("type").asString(""))) {
          continue;
        }
        Path file = checked(agent, dataset, locate);
        int repeats = Math.max(1, dataset.path("num_repeats").asInt(1));
        for (JsonNode row : Json.readLines(file)) {
          ObjectNode routed = routed(((ObjectNode) row).deepCopy(), agent);
          for (int i = 0; i < repeats; i++) {
            rows.add(routed);
          }
        }
      }
    }
    if (rows.isEmpty()) {
      throw new ConfigException("no datasets of type " + types + " in the agents of this config; " + listed(config)
          + ": choose with --types");
    }
    Collections.shuffle(rows, new Random(seed));
    Map<Path, Integer> written = new LinkedHashMap<>();
    if (split.isEmpty()) {
      write(output, rows, written);
    } else {
      double total = split.values().stream().mapToDouble(Double::doubleValue).sum();
      int start = 0;
      int part = 0;
      for (Map.Entry<String, Double> entry : split.entrySet()) {
        part++;
        int end = part == split.size() ? rows.size() : Math.min(rows.size(),
            start + (int) Math.round(rows.size() * entry.getValue() / total));
        write(output.resolveSibling(entry.getKey() + ".jsonl"), rows.subList(start, end), written);
        start = end;
      }
    }
    return new Result(written);
  }

  /**
   * NeMo Gym's {@code prepare_data} with {@code output_dirpath} ({@code TrainDataProcessor.collate_samples}): for
   * each of {@code types} that some agent's datasets have, {@code <dir>/<type>.jsonl} with the rows of those
   * datasets in config order (each repeated {@code num_repeats} times in place, a {@code benchmark} dataset's rows
   * rendered through its {@code prompt_config}, every row given its agent's {@code agent_ref}; not shuffled), and
   * {@code <dir>/<type>_metrics.json}: the first such dataset's entry, then the profile of the raw rows of them
   * all. A profile already there that differs is left as it is, the new one is written beside it as
   * {@code <type>_metrics_conflict.json}, that type is not collated and the call fails naming it, unless
   * {@code overwriteMetrics}.
   */
  public static Result collateByType(GlobalConfig config, List<String> types, Path dir, boolean overwriteMetrics,
      Function<String, Path> locate) {
    Map<Path, Integer> written = new LinkedHashMap<>();
    List<String> conflicts = new ArrayList<>();
    for (String type : types) {
      DatasetStats stats = new DatasetStats();
      JsonNode first = null;
      List<JsonNode> rows = new ArrayList<>();
      for (ServerInstance agent : config.instances()) {
        if (agent.kind() != ServerKind.AGENT) {
          continue;
        }
        for (JsonNode dataset : agent.config().path("datasets")) {
          if (!type.equals(dataset.path("type").asString(""))) {
            continue;
          }
          first = first == null ? dataset : first;
          Path file = locate.apply(dataset.path("jsonl_fpath").asString(""));
          // the dataset's own profile beside it; rows that are no run request yet (a benchmark's raw rows) are
          // left out of the profiles and still collated, as NeMo Gym's compute_sample_metrics skips "offending" rows
          DatasetValidator.validate(file, null);
          PromptTemplate prompt = type.equals("benchmark") && dataset.path("prompt_config").isString()
              ? PromptTemplate.load(locate.apply(dataset.get("prompt_config").asString())) : null;
          int repeats = Math.max(1, dataset.path("num_repeats").asInt(1));
          List<String> lines = readAllLines(file);
          for (int number = 1; number <= lines.size(); number++) {
            String line = lines.get(number - 1);
            if (line.isBlank()) {
              continue;
            }
            String problem = DatasetValidator.check(line, null, false);
            if (problem != null && (problem.startsWith("not valid JSON") || problem.equals("not a JSON object"))) {
              throw new ConfigException(file + " line " + number + ": " + problem);
            }
            boolean request = problem == null;
            ObjectNode parsed = (ObjectNode) Json.parse(line);
            for (int i = 0; i < repeats; i++) {
              if (request) {
                stats.add(parsed);
              }
              ObjectNode row = parsed.deepCopy();
              if (prompt != null) {
                prompt.apply(row, file + " line " + number);
              }
              rows.add(routed(row, agent));
            }
          }
        }
      }
      if (first == null) {
        continue;
      }
      ObjectNode metrics = DatasetValidator.entryHeader(first);
      metrics.setAll(stats.toJson());
      Path metricsFile = dir.resolve(type + "_metrics.json");
      if (Files.exists(metricsFile) && !DatasetValidator.differences(metricsFile, metrics).isEmpty()) {
        Path conflict = dir.resolve(type + "_metrics_conflict.json");
        writeJson(conflict, metrics);
        conflicts.add(conflict.toString());
        if (!overwriteMetrics) {
          continue;
        }
      }
      writeJson(metricsFile, metrics);
      write(dir.resolve(type + ".jsonl"), rows, written);
    }
    if (!conflicts.isEmpty() && !overwriteMetrics) {
      throw new ConfigException("the metrics computed now differ from the ones already in " + dir + " (written "
          + "beside them: " + String.join(", ", conflicts) + "); if the data changed, delete the old *_metrics.json "
          + "files and collate again, or set +overwrite_metrics_conflicts=true");
    }
    if (written.isEmpty()) {
      throw new ConfigException("no datasets of type " + types + " in the agents of this config; " + listed(config));
    }
    return new Result(written);
  }

  /** The dataset's file, after its rows are checked (and its own profile written beside it when absent). */
  private static Path checked(ServerInstance agent, JsonNode dataset, Function<String, Path> locate) {
    Path file = locate.apply(dataset.path("jsonl_fpath").asString(""));
    DatasetValidator.Report report = DatasetValidator.validate(file, null);
    if (!report.problems().isEmpty()) {
      throw new ConfigException("dataset " + dataset.path("name").asString("") + " of " + agent.name()
          + " has bad rows:\n" + String.join("\n", report.problems().stream().map(Object::toString).toList()));
    }
    return file;
  }

  private static ObjectNode routed(ObjectNode row, ServerInstance agent) {
    ObjectNode ref = row.putObject("agent_ref");
    ref.put("type", ServerKind.AGENT.key());
    ref.put("name", agent.name());
    return row;
  }

  /** The datasets the config's agents list, for an error that found none of the types asked for. */
  private static String listed(GlobalConfig config) {
    List<String> listed = new ArrayList<>();
    for (ServerInstance agent : config.instances()) {
      for (JsonNode dataset : agent.config().path("datasets")) {
        listed.add(agent.name() + ": " + dataset.path("name").asString("?") + " (" + dataset.path("type")
            .asString("?") + ")");
      }
    }
    return listed.isEmpty() ? "they list no datasets" : "they list " + String.join(", ", listed);
  }

  private static List<String> readAllLines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeJson(Path file, JsonNode value) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path file, List<JsonNode> rows, Map<Path, Integer> written) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      List<String> lines = rows.stream().map(Json::write).toList();
      Files.write(file, lines);
      written.put(file, rows.size());
      DatasetValidator.validate(file, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
