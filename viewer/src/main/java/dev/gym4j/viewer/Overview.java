package dev.gym4j.viewer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

import dev.gym4j.json.Json;
import dev.gym4j.metrics.AggregateMetrics;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The overview of one file: {@code gym4j metrics}' aggregate metrics per agent ({@link AggregateMetrics}, so the
 * pass@k curve is NeMo Gym's estimator), and the series the page plots: reward histogram, pass@k over k, mean reward
 * by task, failures by class, token and turn histograms.
 */
final class Overview {
  private static final int BINS = 20;
  /** Tasks shown at each end of the reward-by-task chart. */
  static final int TASK_BARS = 150;

  private Overview() {}

  static ObjectNode of(RolloutFile file, List<Row> rows) {
    List<Row> scored = rows.stream().filter(Row::scored).toList();
    ObjectNode out = Json.object();
    out.set("file", Api.fileInfo(file));
    ArrayNode metrics = AggregateMetrics.compute(scored.stream().map(Row::slim).toList());
    out.set("metrics", metrics);
    JsonNode recorded = file.recordedMetrics();
    if (recorded != null) {
      out.set("recorded_metrics", recorded);
    }
    out.set("reward_histogram", histogram(scored, Row::reward));
    out.set("pass_at_k", passAtK(metrics));
    out.set("reward_by_task", byTask(scored));
    ObjectNode failures = out.putObject("failures_by_class");
    Map<String, Integer> counts = new TreeMap<>();
    rows.stream().filter(r -> r.failureClass() != null).forEach(r -> counts.merge(r.failureClass(), 1, Integer::sum));
    counts.forEach(failures::put);
    ObjectNode tools = out.putObject("tools");
    Map<String, Integer> toolCounts = new TreeMap<>();
    rows.forEach(r -> r.tools().forEach(t -> toolCounts.merge(t, 1, Integer::sum)));
    toolCounts.forEach(tools::put);
    out.put("num_tasks", tasks(scored).size());
    out.set("output_tokens", histogram(scored.stream().filter(r -> r.outputTokens() >= 0).toList(),
        Row::outputTokens));
    out.set("input_tokens", histogram(scored.stream().filter(r -> r.inputTokens() >= 0).toList(), Row::inputTokens));
    out.set("turns", histogram(scored, Row::turns));
    return out;
  }

  /** Equal-width bins between the smallest and largest value; one bin when all values are equal. */
  static ObjectNode histogram(List<Row> rows, ToDoubleFunction<Row> value) {
    ObjectNode out = Json.object();
    ArrayNode labels = out.putArray("labels");
    ArrayNode counts = out.putArray("counts");
    if (rows.isEmpty()) {
      return out;
    }
    double min = rows.stream().mapToDouble(value).min().orElse(0);
    double max = rows.stream().mapToDouble(value).max().orElse(0);
    int bins = max == min ? 1 : BINS;
    double width = (max - min) / bins;
    int[] tally = new int[bins];
    for (Row row : rows) {
      int bin = bins == 1 ? 0 : (int) Math.min(bins - 1, Math.floor((value.applyAsDouble(row) - min) / width));
      tally[bin]++;
    }
    for (int i = 0; i < bins; i++) {
      labels.add(bins == 1 ? format(min) : format(min + i * width) + "–" + format(min + (i + 1) * width));
      counts.add(tally[i]);
    }
    return out;
  }

  private static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
        : String.format(java.util.Locale.ROOT, "%.3g", value);
  }

  /** pass@k/accuracy of each agent for k = 1, 2, …, in percent. */
  private static ArrayNode passAtK(ArrayNode metrics) {
    ArrayNode out = Json.array();
    for (JsonNode entry : metrics) {
      ObjectNode series = out.addObject();
      series.put("agent", entry.path("agent_ref").path("name").asString(""));
      ArrayNode points = series.putArray("points");
      for (int k = 1; entry.path("agent_metrics").has("pass@" + k + "/accuracy"); k++) {
        points.addObject().put("k", k).put("value", entry.path("agent_metrics").path("pass@" + k + "/accuracy")
            .asDouble());
      }
    }
    return out;
  }

  /** Mean reward per task, lowest first: the tasks never solved lead, the always-solved close. */
  private static ArrayNode byTask(List<Row> scored) {
    Map<String, List<Row>> tasks = tasks(scored);
    List<ObjectNode> entries = new ArrayList<>();
    tasks.forEach((task, taskRows) -> {
      ObjectNode entry = Json.object();
      entry.put("task", task);
      entry.put("prompt", taskRows.getFirst().prompt());
      entry.put("n", taskRows.size());
      entry.put("mean", taskRows.stream().mapToDouble(Row::reward).average().orElse(0));
      entries.add(entry);
    });
    entries.sort(Comparator.comparingDouble(e -> e.path("mean").asDouble()));
    ArrayNode out = Json.array();
    // a chart of 100,000 bars helps nobody: the hardest and the easiest tasks, the table has the rest
    if (entries.size() > 2 * TASK_BARS) {
      out.addAll(entries.subList(0, TASK_BARS));
      out.addAll(entries.subList(entries.size() - TASK_BARS, entries.size()));
    } else {
      out.addAll(entries);
    }
    return out;
  }

  static Map<String, List<Row>> tasks(List<Row> rows) {
    Map<String, List<Row>> tasks = new LinkedHashMap<>();
    rows.forEach(row -> tasks.computeIfAbsent(row.task(), k -> new ArrayList<>()).add(row));
    return tasks;
  }
}
