package dev.gym4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.gym4j.collect.data.TaskGroups;
import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.metrics.AggregateMetrics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/** {@code gym4j metrics}: the aggregate metrics of any rollouts file, gym4j's or NeMo Gym's. */
@Command(name = "metrics", mixinStandardHelpOptions = true,
    description = "Print the aggregate metrics (mean/std/min/max/median, unbiased pass@k) of rollouts files.")
final class MetricsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Rollouts files (JSONL).")
  List<Path> files;

  @Option(names = "--json", description = "Print JSON instead of a summary.")
  boolean json;

  @Option(names = "--groups", description = "Per-task GRPO statistics: group mean and std of reward, each "
      + "rollout's advantage, and the share of groups with no reward variance.")
  boolean groups;

  @Override
  public Integer call() {
    List<JsonNode> rows = new ArrayList<>();
    for (Path file : files) {
      if (!Files.isRegularFile(file)) {
        throw new ConfigException("no such file: " + file);
      }
      rows.addAll(Json.readLines(file));
    }
    var out = spec.commandLine().getOut();
    if (groups) {
      var report = TaskGroups.report(TaskGroups.of(rows));
      if (json) {
        out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report));
      } else {
        Reports.printGroups(out, report);
      }
      out.flush();
      return 0;
    }
    ArrayNode metrics = AggregateMetrics.compute(rows);
    if (json) {
      out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(metrics));
    } else {
      Reports.printMetrics(out, metrics, true);
    }
    out.flush();
    return 0;
  }
}
