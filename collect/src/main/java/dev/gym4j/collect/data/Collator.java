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
      long seed, java.util.function.Function<String, Path> locate) {
    List<JsonNode> rows = new ArrayList<>();
    for (ServerInstance agent : config.instances()) {
      if (agent.kind() != ServerKind.AGENT) {
        continue;
      }
      for (JsonNode dataset : agent.config().path("datasets")) {
        if (!types.contains(dataset.path("type").asString(""))) {
          continue;
        }
        Path file = locate.apply(dataset.path("jsonl_fpath").asString(""));
        int repeats = Math.max(1, dataset.path("num_repeats").asInt(1));
        DatasetValidator.Report report = DatasetValidator.validate(file, null);
        if (!report.problems().isEmpty()) {
          throw new ConfigException("dataset " + dataset.path("name").asString("") + " of " + agent.name()
              + " has bad rows:\n" + String.join("\n", report.problems().stream().map(Object::toString).toList()));
        }
        for (JsonNode row : Json.readLines(file)) {
          ObjectNode routed = ((ObjectNode) row).deepCopy();
          ObjectNode ref = routed.putObject("agent_ref");
          ref.put("type", ServerKind.AGENT.key());
          ref.put("name", agent.name());
          for (int i = 0; i < repeats; i++) {
            rows.add(routed);
          }
        }
      }
    }
    if (rows.isEmpty()) {
      List<String> listed = new ArrayList<>();
      for (ServerInstance agent : config.instances()) {
        for (JsonNode dataset : agent.config().path("datasets")) {
          listed.add(agent.name() + ": " + dataset.path("name").asString("?") + " (" + dataset.path("type")
              .asString("?") + ")");
        }
      }
      throw new ConfigException("no datasets of type " + types + " in the agents of this config; "
          + (listed.isEmpty() ? "they list no datasets" : "they list " + String.join(", ", listed)
          + ": choose with --types"));
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
