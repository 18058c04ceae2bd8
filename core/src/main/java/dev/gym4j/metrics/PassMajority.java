package dev.gym4j.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's pass@k family over named per-rollout scores ({@code compute_pass_majority_metrics},
 * {@code compute_subset_metrics} and {@code highest_k_metrics} in {@code nemo_gym/reward_profile.py}), for
 * environments whose {@code /aggregate_metrics} reports more than the reward. All values are percentages.
 *
 * <p>For each score name and k = 1 … the most rollouts of a task: {@code pass@k/<name>} (the combinatorial
 * estimator when a task's values are all 0 or 1, else the best of the first k), {@code pass@1[avg-of-k]/<name>}
 * (the mean of the first k, averaged over tasks), and with an answer field {@code majority@k/<name>} (the
 * score of the most frequent (answer, score) pair of the first k, ties averaged, 0 for a task without an
 * answer) plus a {@code no_answer} score. Then {@code per_sample_aggregate} and, for k ≥ 2, the spread of the
 * per-run means ({@code …/std_dev_across_runs}, {@code …/std_err_across_runs}).
 */
public final class PassMajority {
  private static final Set<String> STAT_SUFFIXES = Set.of("std_dev_across_runs", "std_err_across_runs",
      "avg_sample_std_dev");

  private PassMajority() {}

  /** The named scores of one rollout (a verify response); booleans count 0/1. */
  @FunctionalInterface
  public interface Scores extends Function<JsonNode, Map<String, Double>> {}

  /** NeMo Gym's default score: {@code accuracy} = reward. */
  public static final Scores REWARD = row -> Map.of("accuracy", row.path("reward").asDouble(0));

  /**
   * Verify responses grouped as NeMo Gym's {@code _group_by_task} groups them: by {@code _ng_task_index}
   * (0 when absent), tasks in index order, rollouts in the order given.
   */
  public static List<List<JsonNode>> tasks(Iterable<JsonNode> verifyResponses) {
    Map<Long, List<JsonNode>> grouped = new TreeMap<>();
    verifyResponses.forEach(row -> grouped.computeIfAbsent(row.path("_ng_task_index").asLong(0),
        k -> new ArrayList<>()).add(row));
    return new ArrayList<>(grouped.values());
  }

  /**
   * The pass@k family; {@code answerKey} null leaves out majority@k and no_answer. Linear in the rollouts plus the
   * largest k per score name ({@link PassCurves}); the answer holds a handful of entries per k and name.
   */
  public static ObjectNode of(List<List<JsonNode>> tasks, Scores scores, String answerKey) {
    ObjectNode out = Json.object();
    into(tasks, scores, answerKey, out);
    return out;
  }

  /** {@link #of} added to {@code out}, which saves copying a large answer into another object. */
  static void into(List<List<JsonNode>> tasks, Scores scores, String answerKey, ObjectNode out) {
    if (tasks.isEmpty()) {
      return;
    }
    List<List<Map<String, Double>>> all = new ArrayList<>();
    List<List<JsonNode>> answers = answerKey == null ? null : new ArrayList<>();
    for (List<JsonNode> task : tasks) {
      Work.check();
      List<Map<String, Double>> taskScores = new ArrayList<>(task.size());
      List<JsonNode> taskAnswers = new ArrayList<>(task.size());
      for (JsonNode row : task) {
        Map<String, Double> named = scores.apply(row);
        if (answerKey != null) {
          named = new HashMap<>(named);
          JsonNode answer = row.get(answerKey);
          taskAnswers.add(answer == null || answer.isNull() ? null : answer);
          named.put("no_answer", answer == null || answer.isNull() ? 1.0 : 0.0);
        }
        taskScores.add(named);
      }
      all.add(taskScores);
      if (answers != null) {
        answers.add(taskAnswers);
      }
    }
    Set<String> names = new TreeSet<>();
    all.forEach(task -> task.forEach(s -> names.addAll(s.keySet())));
    int maxK = tasks.stream().mapToInt(List::size).max().orElse(0);
    Map<String, PassCurves> curves = new LinkedHashMap<>();
    for (String name : names) {
      curves.put(name, PassCurves.of(all, answers, name, maxK));
    }
    for (int k = 1; k <= maxK; k++) {
      if ((k & 1023) == 0) {
        Work.check();
      }
      for (var named : curves.entrySet()) {
        PassCurves curve = named.getValue();
        putIfNumber(out, "pass@" + k + "/" + named.getKey(), curve.pass[k]);
        putIfNumber(out, "pass@1[avg-of-" + k + "]/" + named.getKey(), curve.average[k]);
        if (curve.majority != null) {
          out.put("majority@" + k + "/" + named.getKey(), curve.majority[k]);
        }
      }
    }
    ObjectNode perRun = out.putObject("per_sample_aggregate");
    curves.forEach((name, curve) -> {
      if (curve.runs.length > 0) {
        var array = perRun.putArray(name);
        for (double run : curve.runs) {
          array.add(run);
        }
      }
    });
    spreadAcrossRuns(curves, maxK, out);
  }

  private static void putIfNumber(ObjectNode out, String key, double value) {
    if (!Double.isNaN(value)) {
      out.put(key, value);
    }
  }

  /**
   * For k ≥ 2, the sample standard deviation (and its standard error) of the first k per-run means, kept as a
   * running mean and sum of squared deviations (Welford) rather than recomputed for every k.
   */
  private static void spreadAcrossRuns(Map<String, PassCurves> curves, int maxK, ObjectNode out) {
    Map<String, double[]> spread = new LinkedHashMap<>();
    curves.forEach((name, curve) -> {
      double[] std = new double[maxK + 1];
      double mean = 0;
      double squares = 0;
      for (int n = 1; n <= maxK; n++) {
        if (n <= curve.runs.length) {
          double x = curve.runs[n - 1];
          double delta = x - mean;
          mean += delta / n;
          squares += delta * (x - mean);
        }
        int counted = Math.min(n, curve.runs.length);
        std[n] = counted >= 2 ? Math.sqrt(squares / (counted - 1)) : Double.NaN;
      }
      spread.put(name, std);
    });
    for (int k = 2; k <= maxK; k++) {
      if ((k & 1023) == 0) {
        Work.check();
      }
      for (var named : spread.entrySet()) {
        double std = named.getValue()[k];
        if (!Double.isNaN(std)) {
          int counted = Math.min(k, curves.get(named.getKey()).runs.length);
          out.put("pass@1[avg-of-" + k + "]/" + named.getKey() + "/std_dev_across_runs", std);
          out.put("pass@1[avg-of-" + k + "]/" + named.getKey() + "/std_err_across_runs", std / Math.sqrt(counted));
        }
      }
    }
  }

  /**
   * The pass@k family per value of {@code subsetKey} (read from each task's first rollout; tasks without a
   * value are left out), keys prefixed {@code <value>/}, without {@code per_sample_aggregate}.
   */
  public static ObjectNode subsets(List<List<JsonNode>> tasks, String subsetKey, Scores scores, String answerKey) {
    Map<String, List<List<JsonNode>>> subsets = new LinkedHashMap<>();
    for (List<JsonNode> task : tasks) {
      JsonNode value = task.isEmpty() ? null : task.getFirst().get(subsetKey);
      if (truthy(value)) {
        subsets.computeIfAbsent(value.isString() ? value.stringValue() : value.toString(), k -> new ArrayList<>())
            .add(task);
      }
    }
    ObjectNode out = Json.object();
    subsets.forEach((subset, subsetTasks) -> of(subsetTasks, scores, answerKey).properties().forEach(metric -> {
      if (!metric.getKey().equals("per_sample_aggregate")) {
        out.set(subset + "/" + metric.getKey(), metric.getValue());
      }
    }));
    return out;
  }

  /**
   * The entries of {@code pattern} ({@code {k}} marks k, e.g. {@code pass@{k}}) at the highest k, without the
   * spread statistics and without the score names in {@code exclude}.
   */
  public static ObjectNode highestK(JsonNode metrics, String pattern, Set<String> exclude) {
    Pattern regex = Pattern.compile("^" + Pattern.quote(pattern).replace("{k}", "\\E(\\d+)\\Q") + "/(.+)$");
    Map<String, Integer> matches = new LinkedHashMap<>();
    for (String key : metrics.propertyNames()) {
      Matcher m = regex.matcher(key);
      if (m.matches() && STAT_SUFFIXES.stream().noneMatch(m.group(2)::endsWith) && !exclude.contains(m.group(2))) {
        matches.put(key, Integer.parseInt(m.group(1)));
      }
    }
    ObjectNode out = Json.object();
    int max = matches.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
    matches.forEach((key, k) -> {
      if (k == max) {
        out.set(key, metrics.get(key));
      }
    });
    return out;
  }

  /**
   * An environment's metrics made of {@link #of} and, when {@code subsetKey} is not null, {@link #subsets} per
   * value of that field, with {@link #keyMetrics} including majority@k: the shape of NeMo Gym's math-judge family
   * ({@code compute_metrics} in resources_servers/math_with_judge/app.py and the servers built on it).
   */
  public static AggregateMetrics.Custom metrics(Scores scores, String answerKey, String subsetKey) {
    return new AggregateMetrics.Custom() {
      @Override
      public ObjectNode compute(List<List<JsonNode>> tasks) {
        ObjectNode metrics = of(tasks, scores, answerKey);
        if (subsetKey != null) {
          metrics.setAll(subsets(tasks, subsetKey, scores, answerKey));
        }
        return metrics;
      }

      @Override
      public ObjectNode keyMetrics(ObjectNode agentMetrics) {
        return PassMajority.keyMetrics(agentMetrics, true);
      }
    };
  }

  /**
   * The key metrics NeMo Gym's math and QA judges pick ({@code get_key_metrics}): mean input and output tokens,
   * then the highest-k {@code pass@1[avg-of-k]}, {@code pass@k} and, with {@code majority}, {@code majority@k}
   * (the last two without no_answer).
   */
  public static ObjectNode keyMetrics(JsonNode agentMetrics, boolean majority) {
    ObjectNode key = Json.object();
    for (String name : List.of("mean/input_tokens", "mean/output_tokens")) {
      if (agentMetrics.has(name)) {
        key.set(name, agentMetrics.get(name));
      }
    }
    key.setAll(highestK(agentMetrics, "pass@1[avg-of-{k}]", Set.of()));
    key.setAll(highestK(agentMetrics, "pass@{k}", Set.of("no_answer")));
    if (majority) {
      key.setAll(highestK(agentMetrics, "majority@{k}", Set.of("no_answer")));
    }
    return key;
  }

  /** Python truthiness of a subset value: null, false, 0 and "" are no subset. */
  private static boolean truthy(JsonNode value) {
    return value != null && !value.isNull() && !(value.isBoolean() && !value.asBoolean())
        && !(value.isNumber() && value.asDouble() == 0) && !(value.isString() && value.stringValue().isEmpty());
  }

  /** 1 − C(n−c, k) / C(n, k), as a running product. */
  static double unbiased(int n, int c, int k) {
    return PassCurves.unbiased(n, c, k);
  }
}
