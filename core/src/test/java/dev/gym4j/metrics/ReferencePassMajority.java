package dev.gym4j.metrics;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.gym4j.json.Json;
import dev.gym4j.metrics.PassMajority.Scores;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's compute_pass_majority_metrics (nemo_gym/reward_profile.py) as it reads: every k recomputed from
 * scratch, binomials exact. gym4j's code before issue 31 (cubic in the rollouts of a task), kept as the reference
 * that {@link PassMajority#of} must agree with.
 */
final class ReferencePassMajority {
  private ReferencePassMajority() {}

  static ObjectNode of(List<List<JsonNode>> tasks, Scores scores, String answerKey) {
    ObjectNode out = Json.object();
    if (tasks.isEmpty()) {
      return out;
    }
    List<List<Map<String, Double>>> all = new ArrayList<>();
    List<List<JsonNode>> answers = new ArrayList<>();
    for (List<JsonNode> task : tasks) {
      List<Map<String, Double>> taskScores = new ArrayList<>();
      List<JsonNode> taskAnswers = new ArrayList<>();
      for (JsonNode row : task) {
        Map<String, Double> named = new LinkedHashMap<>(scores.apply(row));
        if (answerKey != null) {
          JsonNode answer = row.get(answerKey);
          taskAnswers.add(answer == null || answer.isNull() ? null : answer);
          named.put("no_answer", answer == null || answer.isNull() ? 1.0 : 0.0);
        }
        taskScores.add(named);
      }
      all.add(taskScores);
      answers.add(taskAnswers);
    }
    Set<String> names = new TreeSet<>();
    all.forEach(task -> task.forEach(s -> names.addAll(s.keySet())));
    int maxK = tasks.stream().mapToInt(List::size).max().orElse(0);
    for (int k = 1; k <= maxK; k++) {
      for (String name : names) {
        passAtK(all, k, name, out);
        averageOfK(all, k, name, out);
        if (answerKey != null) {
          majorityAtK(all, answers, k, name, out);
        }
      }
    }
    ObjectNode perRun = out.putObject("per_sample_aggregate");
    for (String name : names) {
      List<Double> runs = new ArrayList<>();
      for (int run = 0; run < maxK; run++) {
        final int r = run;
        List<Double> inRun = all.stream().filter(task -> r < task.size() && task.get(r).containsKey(name))
            .map(task -> task.get(r).get(name)).toList();
        if (!inRun.isEmpty()) {
          runs.add(100.0 * inRun.stream().mapToDouble(Double::doubleValue).sum() / inRun.size());
        }
      }
      if (!runs.isEmpty()) {
        runs.forEach(perRun.putArray(name)::add);
      }
    }
    for (int k = 2; k <= maxK; k++) {
      for (String name : names) {
        JsonNode runs = perRun.path(name);
        int n = Math.min(k, runs.size());
        if (n >= 2) {
          double mean = 0;
          for (int i = 0; i < n; i++) {
            mean += runs.get(i).asDouble() / n;
          }
          double squares = 0;
          for (int i = 0; i < n; i++) {
            squares += Math.pow(runs.get(i).asDouble() - mean, 2);
          }
          double std = Math.sqrt(squares / (n - 1));
          out.put("pass@1[avg-of-" + k + "]/" + name + "/std_dev_across_runs", std);
          out.put("pass@1[avg-of-" + k + "]/" + name + "/std_err_across_runs", std / Math.sqrt(n));
        }
      }
    }
    return out;
  }

  private static void passAtK(List<List<Map<String, Double>>> all, int k, String name, ObjectNode out) {
    double sum = 0;
    int counted = 0;
    for (List<Map<String, Double>> task : all) {
      List<Double> values = task.stream().filter(s -> s.containsKey(name)).map(s -> s.get(name)).toList();
      if (values.isEmpty() || k > values.size()) {
        continue;
      }
      if (values.stream().allMatch(v -> v == 0.0 || v == 1.0)) {
        sum += unbiased(values.size(), (int) values.stream().filter(v -> v != 0.0).count(), k);
      } else {
        sum += values.subList(0, k).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      }
      counted++;
    }
    if (counted > 0) {
      out.put("pass@" + k + "/" + name, 100.0 * sum / counted);
    }
  }

  private static void averageOfK(List<List<Map<String, Double>>> all, int k, String name, ObjectNode out) {
    double sum = 0;
    int counted = 0;
    for (List<Map<String, Double>> task : all) {
      List<Double> values = task.subList(0, Math.min(k, task.size())).stream().filter(s -> s.containsKey(name))
          .map(s -> s.get(name)).toList();
      if (!values.isEmpty()) {
        sum += values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
        counted++;
      }
    }
    if (counted > 0) {
      out.put("pass@1[avg-of-" + k + "]/" + name, 100.0 * sum / counted);
    }
  }

  private static void majorityAtK(List<List<Map<String, Double>>> all, List<List<JsonNode>> answers, int k,
      String name, ObjectNode out) {
    double sum = 0;
    for (int t = 0; t < all.size(); t++) {
      Map<List<Object>, Integer> votes = new LinkedHashMap<>();
      for (int i = 0; i < Math.min(k, all.get(t).size()); i++) {
        JsonNode answer = answers.get(t).get(i);
        Double score = all.get(t).get(i).get(name);
        if (answer != null && score != null) {
          votes.merge(List.of(answer, score), 1, Integer::sum);
        }
      }
      int most = votes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      List<Double> tied = votes.entrySet().stream().filter(e -> e.getValue() == most)
          .map(e -> (Double) e.getKey().get(1)).toList();
      sum += tied.isEmpty() ? 0 : tied.stream().mapToDouble(Double::doubleValue).sum() / tied.size();
    }
    out.put("majority@" + k + "/" + name, 100.0 * sum / all.size());
  }

  /** 1 − C(n−c, k) / C(n, k), exactly. */
  private static double unbiased(int n, int c, int k) {
    if (n - c < k) {
      return 1.0;
    }
    return 1.0 - new BigDecimal(binomial(n - c, k)).divide(new BigDecimal(binomial(n, k)), MathContext.DECIMAL64)
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
