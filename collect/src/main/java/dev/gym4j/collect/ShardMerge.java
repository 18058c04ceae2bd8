package dev.gym4j.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.metrics.AggregateMetrics;
import tools.jackson.databind.JsonNode;

/**
 * Joins the outputs of a sharded collection ({@code gym4j collect --shard I/N}, one file per shard) into one
 * rollouts file holding each (task, rollout) pair exactly once, ordered by task then rollout, with its
 * aggregate metrics beside it as a single run writes them. A torn last line (a pod killed inside a write)
 * is not a row; a pair found in more than one place is kept once, the first seen, and counted.
 */
public final class ShardMerge {
  /** What a merge did: rows written, pairs seen again and dropped, files read. */
  public record Result(int rows, int duplicates, int files) {}

  private ShardMerge() {}

  /**
   * The rollouts files a list names: files as given, and for a directory the {@code .jsonl} files in it that
   * are not a collection's side files ({@code _failures}, {@code _materialized_inputs}), by name.
   */
  public static List<Path> rolloutFiles(List<Path> named) {
    List<Path> files = new ArrayList<>();
    for (Path path : named) {
      if (!Files.isDirectory(path)) {
        files.add(path);
        continue;
      }
      try (var listed = Files.list(path)) {
        listed.filter(Files::isRegularFile).filter(ShardMerge::isRolloutsFile).sorted().forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  private static boolean isRolloutsFile(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".jsonl") && !name.endsWith("_failures.jsonl")
        && !name.endsWith("_materialized_inputs.jsonl");
  }

  public static Result merge(List<Path> shards, Path output) {
    if (shards.isEmpty()) {
      throw new ConfigException("name the shard files to merge");
    }
    Map<String, JsonNode> byKey = new LinkedHashMap<>();
    int duplicates = 0;
    for (Path shard : shards) {
      if (shard.toAbsolutePath().normalize().equals(output.toAbsolutePath().normalize())) {
        throw new ConfigException("the merged output " + output + " is also one of the shards; choose another file");
      }
      if (!Files.isRegularFile(shard)) {
        throw new UncheckedIOException(new java.nio.file.NoSuchFileException(shard.toString()));
      }
      for (JsonNode row : JsonlFile.readComplete(shard)) {
        if (!row.has("_ng_task_index") || !row.has("_ng_rollout_index")) {
          throw new ConfigException(shard + " has a row without _ng_task_index and _ng_rollout_index: it is not "
              + "the output of gym4j collect");
        }
        if (byKey.putIfAbsent(TaskRows.key(row), row) != null) {
          duplicates++;
        }
      }
    }
    List<JsonNode> rows = new ArrayList<>(byKey.values());
    rows.sort(Comparator.<JsonNode>comparingLong(r -> r.path("_ng_task_index").asLong())
        .thenComparingLong(r -> r.path("_ng_rollout_index").asLong()));
    JsonlFile.writeAtomically(output, rows);
    CollectOptions naming = new CollectOptions(null, output, output, 1, 1, 0, false, null, 1);
    try {
      Files.writeString(naming.aggregateMetrics(), Json.MAPPER.writerWithDefaultPrettyPrinter()
          .writeValueAsString(AggregateMetrics.compute(rows)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Result(rows.size(), duplicates, shards.size());
  }
}
