package dev.gym4j.environments.math_proof_judgement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Skills' judgement precision, recall and F1 (in percent), as NeMo Gym's math_proof_judgement reports
 * them: for {@code pass@1[avg-of-k]} per sample index then averaged over the first k; for {@code pass@k}
 * with the gold verdict if any of the first k gave it, else the first verdict; for {@code majority@k} the
 * majority verdict, ties to the first. Precision is 1 with no positive prediction, recall 1 with no
 * positive gold. Rollouts are grouped by {@code _ng_task_index} (0 when absent), in the order given.
 */
final class JudgementMetrics {
  private JudgementMetrics() {}

  static ObjectNode of(JsonNode verifyResponses) {
    Map<Long, List<JsonNode>> grouped = new TreeMap<>();
    verifyResponses.forEach(row -> grouped.computeIfAbsent(row.path("_ng_task_index").asLong(0),
        k -> new ArrayList<>()).add(row));
    List<List<JsonNode>> tasks = new ArrayList<>(grouped.values());
    ObjectNode out = Json.object();
    int maxK = tasks.stream().mapToInt(List::size).max().orElse(0);
    if (maxK == 0) {
      return out;
    }
    List<Boolean> gold = tasks.stream().map(t -> MathProofJudgement.parse(t.getFirst().path("expected_judgement")
        .isString() ? t.getFirst().get("expected_judgement").stringValue() : null)).toList();
    int positives = (int) gold.stream().filter(Boolean.TRUE::equals).count();
    List<double[]> perSample = new ArrayList<>();
    for (int sample = 0; sample < maxK; sample++) {
      double[] counts = new double[3];
      for (int t = 0; t < tasks.size(); t++) {
        if (sample < tasks.get(t).size()) {
          add(counts, label(tasks.get(t).get(sample)), gold.get(t));
        }
      }
      perSample.add(counts);
    }
    for (int k = 1; k <= maxK; k++) {
      put(out, "pass@1[avg-of-" + k + "]", perSample.subList(0, k), positives);
    }
    for (int k = 1; k <= maxK; k++) {
      double[] pass = new double[3];
      double[] majority = new double[3];
      for (int t = 0; t < tasks.size(); t++) {
        List<Boolean> verdicts = tasks.get(t).subList(0, Math.min(k, tasks.get(t).size())).stream()
            .map(JudgementMetrics::label).toList();
        add(pass, passVerdict(verdicts, gold.get(t)), gold.get(t));
        add(majority, majorityVerdict(verdicts), gold.get(t));
      }
      put(out, "pass@" + k, List.of(pass), positives);
      put(out, "majority@" + k, List.of(majority), positives);
    }
    out.put("total_positives", (double) positives);
    return out;
  }

  private static Boolean label(JsonNode row) {
    String label = row.path("extracted_judgement").asString("");
    return label.equals("Yes") ? Boolean.TRUE : label.equals("No") ? Boolean.FALSE : null;
  }

  private static void add(double[] counts, Boolean predicted, Boolean gold) {
    if (predicted == null || gold == null) {
      return;
    }
    counts[0] += predicted && gold ? 1 : 0;
    counts[1] += predicted && !gold ? 1 : 0;
    counts[2] += !predicted && gold ? 1 : 0;
  }

  private static Boolean passVerdict(List<Boolean> verdicts, Boolean gold) {
    if (gold != null && verdicts.contains(gold)) {
      return gold;
    }
    return verdicts.stream().filter(v -> v != null).findFirst().orElse(null);
  }

  private static Boolean majorityVerdict(List<Boolean> verdicts) {
    long yes = verdicts.stream().filter(Boolean.TRUE::equals).count();
    long no = verdicts.stream().filter(Boolean.FALSE::equals).count();
    if (yes == 0 && no == 0) {
      return null;
    }
    if (yes != no) {
      return yes > no;
    }
    return verdicts.stream().filter(v -> v != null).findFirst().orElse(null);
  }

  private static void put(ObjectNode out, String prefix, List<double[]> samples, int positives) {
    double precision = 0;
    double recall = 0;
    double f1 = 0;
    for (double[] s : samples) {
      double p = s[0] + s[1] > 0 ? s[0] / (s[0] + s[1]) : 1.0;
      double r = positives > 0 ? s[0] / positives : 1.0;
      precision += p;
      recall += r;
      f1 += p + r > 0 ? 2 * p * r / (p + r) : 0.0;
    }
    out.put(prefix + "/precision", 100.0 * precision / samples.size());
    out.put(prefix + "/recall", 100.0 * recall / samples.size());
    out.put(prefix + "/f1", 100.0 * f1 / samples.size());
  }
}
