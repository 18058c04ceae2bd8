package dev.gym4j.metrics;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The aggregate metrics of a rollouts file, per agent, in NeMo Gym's shape ({@code <output>_aggregate_metrics.json}):
 * {@code mean/max/min/median/std} of {@code reward}, of every other numeric top-level field (booleans as
 * 0/1, keys starting with {@code _} skipped) and of the token usage, as NeMo Gym's {@code RewardProfiler}
 * computes them; with 0/1 rewards, NeMo Gym's pass@k family ({@link #passAtK}). {@code num_rollouts} and
 * {@code num_tasks} are ours.
 *
 * <p>pass@k is the combinatorial estimator 1 − C(n−c, k)/C(n, k) over tasks with n ≥ k rollouts, c of which
 * have reward 1, for k = 1 … the most rollouts of a task. Values are percentages, as NeMo Gym reports them.
 * Tasks are told apart by {@code _ng_task_index}, or by their prompt in older files that lack it. The
 * standard deviation is the sample one (n − 1).
 */
public final class AggregateMetrics {
  private static final List<String> USAGE_FIELDS = List.of("input_tokens", "output_tokens", "total_tokens");
  /** The field in which environments report the answer they read (NeMo Gym's answer_key). */
  private static final String ANSWER = "extracted_answer";

  private AggregateMetrics() {}

  /**
   * The answer to {@code POST /aggregate_metrics} with {@code {"verify_responses": [...]}}: the metrics of
   * those rollouts as one entry (NeMo Gym's {@code AggregateMetrics}).
   */
  public static ObjectNode ofRequest(ObjectNode body) {
    JsonNode responses = body.get("verify_responses");
    if (responses == null || !responses.isArray()) {
      throw new dev.gym4j.json.FieldError(List.of("verify_responses"), "Field required: a list of verify responses",
          "missing");
    }
    List<JsonNode> rows = new ArrayList<>();
    responses.forEach(rows::add);
    for (int i = 0; i < rows.size(); i++) {
      checked(rows.get(i), i);
    }
    ObjectNode entry = forAgent("", rows);
    entry.remove("agent_ref");
    return entry;
  }

  /**
   * A verify response from a client: an object whose numbers are finite (a float such as {@code 1e999999999}
   * overflows to infinity) and whose task and rollout indexes are whole numbers a long holds. Anything else
   * is a 422 naming the field, rather than an exception deep in the statistics.
   */
  private static void checked(JsonNode row, int index) {
    List<Object> at = List.of("verify_responses", index);
    if (!row.isObject()) {
      throw new dev.gym4j.json.FieldError(at, "must be an object (a verify response)", "object_type");
    }
    for (var field : row.properties()) {
      JsonNode value = field.getValue();
      List<Object> path = List.of("verify_responses", index, field.getKey());
      if (value.isNumber() && !Double.isFinite(value.numberValue().doubleValue())) {
        throw new dev.gym4j.json.FieldError(path, "must be a finite number", "finite_number");
      }
      if ((field.getKey().equals("_ng_task_index") || field.getKey().equals("_ng_rollout_index"))
          && !(value.isIntegralNumber() && value.canConvertToLong())) {
        throw new dev.gym4j.json.FieldError(path, "must be a whole number", "int_type");
      }
    }
    JsonNode usage = row.path("response").path("usage");
    for (String field : USAGE_FIELDS) {
      JsonNode value = usage.path(field);
      if (value.isNumber() && !Double.isFinite(value.numberValue().doubleValue())) {
        throw new dev.gym4j.json.FieldError(List.of("verify_responses", index, "response", "usage", field),
            "must be a finite number", "finite_number");
      }
    }
  }

  /** One entry per agent, in order of first appearance. */
  public static ArrayNode compute(Collection<? extends JsonNode> rows) {
    Map<String, List<JsonNode>> byAgent = new LinkedHashMap<>();
    for (JsonNode row : rows) {
      byAgent.computeIfAbsent(row.path("agent_ref").path("name").asString(""), k -> new ArrayList<>()).add(row);
    }
    ArrayNode result = Json.array();
    byAgent.forEach((agent, agentRows) -> result.add(forAgent(agent, agentRows)));
    return result;
  }

  private static ObjectNode forAgent(String agent, List<JsonNode> rows) {
    ObjectNode entry = Json.object();
    ObjectNode ref = entry.putObject("agent_ref");
    if (!agent.isEmpty()) {
      ref.put("name", agent);
    }
    ObjectNode metrics = entry.putObject("agent_metrics");
    metrics.put("num_rollouts", rows.size());
    statistics(values(rows), metrics);
    Map<String, List<JsonNode>> tasks = byTask(rows);
    metrics.put("num_tasks", tasks.size());
    ObjectNode passAtK = passAtK(tasks.values());
    metrics.setAll(passAtK);
    ObjectNode key = entry.putObject("key_metrics");
    // NeMo Gym's default key metrics are every mean/*; with pass@k, the highest k of each, as math_with_judge's
    metrics.properties().forEach(m -> {
      if (m.getKey().startsWith("mean/")) {
        key.set(m.getKey(), m.getValue());
      }
    });
    for (String family : List.of("pass@1[avg-of-%d]/accuracy", "pass@%d/accuracy", "majority@%d/accuracy")) {
      String highest = family.formatted(tasks.values().stream().mapToInt(List::size).max().orElse(0));
      if (passAtK.has(highest)) {
        key.set(highest, passAtK.get(highest));
      }
    }
    ArrayNode groups = entry.putArray("group_level_metrics");
    tasks.forEach((task, taskRows) -> {
      ObjectNode group = groups.addObject();
      JsonNode index = taskRows.getFirst().get("_ng_task_index");
      if (index != null) {
        group.set("_ng_task_index", index);
      }
      group.put("num_rollouts", taskRows.size());
      Map<String, List<Double>> reward = new TreeMap<>();
      reward.put("reward", taskRows.stream().map(row -> row.path("reward").asDouble(0)).toList());
      statistics(reward, group);
    });
    return entry;
  }

  /** Every numeric top-level field and the usage counts, as lists of values. */
  static Map<String, List<Double>> values(List<JsonNode> rows) {
    Map<String, List<Double>> values = new TreeMap<>();
    for (JsonNode row : rows) {
      for (var field : row.properties()) {
        String name = field.getKey();
        JsonNode value = field.getValue();
        if (name.startsWith("_")) {
          continue;
        }
        if (value.isNumber()) {
          values.computeIfAbsent(name, k -> new ArrayList<>()).add(value.asDouble());
        } else if (value.isBoolean()) {
          values.computeIfAbsent(name, k -> new ArrayList<>()).add(value.asBoolean() ? 1.0 : 0.0);
        }
      }
      JsonNode usage = row.path("response").path("usage");
      for (String field : USAGE_FIELDS) {
        if (usage.path(field).isNumber()) {
          values.computeIfAbsent(field, k -> new ArrayList<>()).add(usage.get(field).asDouble());
        }
      }
    }
    return values;
  }

  static void statistics(Map<String, List<Double>> values, ObjectNode into) {
    values.forEach((field, list) -> {
      List<Double> sorted = new ArrayList<>(list);
      Collections.sort(sorted);
      int n = sorted.size();
      double mean = sorted.stream().mapToDouble(Double::doubleValue).sum() / n;
      double squares = sorted.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
      into.put("mean/" + field, mean);
      into.put("max/" + field, sorted.getLast());
      into.put("min/" + field, sorted.getFirst());
      into.put("median/" + field, n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2);
      into.put("std/" + field, n > 1 ? Math.sqrt(squares / (n - 1)) : 0.0);
    });
  }

  /** Rollouts grouped by task, in task order (or order of first appearance for rows without an index). */
  static Map<String, List<JsonNode>> byTask(List<JsonNode> rows) {
    Map<String, List<JsonNode>> tasks = new LinkedHashMap<>();
    List<JsonNode> ordered = new ArrayList<>(rows);
    ordered.sort((a, b) -> Long.compare(a.path("_ng_task_index").asLong(Long.MAX_VALUE),
        b.path("_ng_task_index").asLong(Long.MAX_VALUE)));
    for (JsonNode row : ordered) {
      JsonNode index = row.get("_ng_task_index");
      String key = index != null ? "#" + index.asLong() : row.path("responses_create_params").path("input").toString();
      tasks.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
    }
    for (List<JsonNode> task : tasks.values()) {
      task.sort((a, b) -> Long.compare(a.path("_ng_rollout_index").asLong(0), b.path("_ng_rollout_index").asLong(0)));
    }
    return tasks;
  }

  /**
   * NeMo Gym's pass@k family ({@code compute_pass_majority_metrics} in {@code nemo_gym/reward_profile.py}, with
   * its default score {@code accuracy} = reward), in percent, for k = 1 … the most rollouts of a task; empty
   * unless every reward is 0 or 1, since a best-of-k of a reward like blackjack's −1/0/1 or a sum of
   * components is no probability. When rollouts carry {@code extracted_answer}, a {@code no_answer} score and
   * {@code majority@k} are added, as mcqa and math_with_judge do.
   */
  public static ObjectNode passAtK(Collection<List<JsonNode>> tasks) {
    ObjectNode out = Json.object();
    boolean binary = tasks.stream().flatMap(List::stream).map(row -> row.path("reward").asDouble(0))
        .allMatch(reward -> reward == 0.0 || reward == 1.0);
    if (tasks.isEmpty() || !binary) {
      return out;
    }
    boolean answers = tasks.stream().flatMap(List::stream).anyMatch(row -> row.hasNonNull(ANSWER));
    List<String> names = answers ? List.of("accuracy", "no_answer") : List.of("accuracy");
    List<List<double[]>> scores = new ArrayList<>();
    for (List<JsonNode> task : tasks) {
      scores.add(task.stream().map(row -> new double[] {row.path("reward").asDouble(0),
          row.hasNonNull(ANSWER) ? 0 : 1}).toList());
    }
    int maxK = tasks.stream().mapToInt(List::size).max().orElse(0);
    for (int k = 1; k <= maxK; k++) {
      for (int s = 0; s < names.size(); s++) {
        passAtK(scores, k, s, names.get(s), out);
        averageOfK(scores, k, s, names.get(s), out);
        if (answers) {
          majorityAtK(tasks, scores, k, s, names.get(s), out);
        }
      }
    }
    ObjectNode perRun = out.putObject("per_sample_aggregate");
    for (int s = 0; s < names.size(); s++) {
      var runs = perRun.putArray(names.get(s));
      for (int run = 0; run < maxK; run++) {
        final int r = run;
        final int score = s;
        List<double[]> inRun = scores.stream().filter(task -> r < task.size()).map(task -> task.get(r)).toList();
        runs.add(100.0 * inRun.stream().mapToDouble(v -> v[score]).sum() / inRun.size());
      }
    }
    for (int k = 2; k <= maxK; k++) {
      for (String name : names) {
        List<Double> runs = new ArrayList<>();
        perRun.get(name).forEach(v -> runs.add(v.asDouble()));
        List<Double> firstK = runs.subList(0, Math.min(k, runs.size()));
        double mean = firstK.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double std = Math.sqrt(firstK.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (firstK.size() - 1));
        out.put("pass@1[avg-of-" + k + "]/" + name + "/std_dev_across_runs", std);
        out.put("pass@1[avg-of-" + k + "]/" + name + "/std_err_across_runs", std / Math.sqrt(firstK.size()));
      }
    }
    return out;
  }

  /** Unbiased pass@k over the tasks with at least k rollouts. */
  private static void passAtK(List<List<double[]>> scores, int k, int s, String name, ObjectNode out) {
    double sum = 0;
    int counted = 0;
    for (List<double[]> task : scores) {
      if (task.size() >= k) {
        int correct = (int) task.stream().filter(v -> v[s] != 0).count();
        sum += unbiasedPassAtK(task.size(), correct, k);
        counted++;
      }
    }
    if (counted > 0) {
      out.put("pass@" + k + "/" + name, 100.0 * sum / counted);
    }
  }

  /** The mean score of each task's first k rollouts, averaged over tasks. */
  private static void averageOfK(List<List<double[]>> scores, int k, int s, String name, ObjectNode out) {
    double sum = 0;
    for (List<double[]> task : scores) {
      List<double[]> first = task.subList(0, Math.min(k, task.size()));
      sum += first.stream().mapToDouble(v -> v[s]).sum() / first.size();
    }
    out.put("pass@1[avg-of-" + k + "]/" + name, 100.0 * sum / scores.size());
  }

  /**
   * Majority vote over the answers of each task's first k rollouts: the score of the most frequent (answer,
   * score) pair, averaged over ties; 0 for a task with no answer.
   */
  private static void majorityAtK(Collection<List<JsonNode>> tasks, List<List<double[]>> scores, int k, int s,
      String name, ObjectNode out) {
    double sum = 0;
    int t = 0;
    for (List<JsonNode> task : tasks) {
      Map<List<Object>, Integer> votes = new LinkedHashMap<>();
      for (int i = 0; i < Math.min(k, task.size()); i++) {
        JsonNode answer = task.get(i).get(ANSWER);
        if (answer != null && !answer.isNull()) {
          votes.merge(List.of(answer, scores.get(t).get(i)[s]), 1, Integer::sum);
        }
      }
      int most = votes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      List<List<Object>> tied = votes.entrySet().stream().filter(e -> e.getValue() == most).map(Map.Entry::getKey)
          .toList();
      sum += tied.isEmpty() ? 0 : tied.stream().mapToDouble(vote -> (Double) vote.get(1)).sum() / tied.size();
      t++;
    }
    out.put("majority@" + k + "/" + name, 100.0 * sum / tasks.size());
  }

  /** 1 − C(n−c, k) / C(n, k), exactly. */
  public static double unbiasedPassAtK(int n, int c, int k) {
    if (n - c < k) {
      return 1.0;
    }
    BigInteger failing = binomial(n - c, k);
    BigInteger all = binomial(n, k);
    return 1.0 - new java.math.BigDecimal(failing).divide(new java.math.BigDecimal(all), java.math.MathContext.DECIMAL64)
        .doubleValue();
  }

  private static BigInteger binomial(int n, int k) {
    BigInteger result = BigInteger.ONE;
    for (int i = 0; i < k; i++) {
      result = result.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
    }
    return result;
  }
}
