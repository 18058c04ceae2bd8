package dev.gym4j.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * How the rewards of re-verified rollouts differ from the recorded ones, matched by
 * {@code (_ng_task_index, _ng_rollout_index)}: how many changed, the mean before and after, the mean and
 * largest change, and a few examples.
 */
record RewardDiff(int compared, int changed, double meanBefore, double meanAfter, double meanAbsoluteChange,
    double largestChange, List<String> examples) {

  static RewardDiff of(List<JsonNode> before, List<JsonNode> after) {
    Map<String, Double> recorded = new HashMap<>();
    for (JsonNode row : before) {
      if (row.path("reward").isNumber()) {
        recorded.put(Reverification.key(row), row.get("reward").asDouble());
      }
    }
    int compared = 0;
    int changed = 0;
    double sumBefore = 0;
    double sumAfter = 0;
    double sumChange = 0;
    double largest = 0;
    List<String> examples = new ArrayList<>();
    for (JsonNode row : after) {
      Double old = recorded.get(Reverification.key(row));
      if (old == null || !row.path("reward").isNumber()) {
        continue;
      }
      double now = row.get("reward").asDouble();
      compared++;
      sumBefore += old;
      sumAfter += now;
      double change = Math.abs(now - old);
      sumChange += change;
      largest = Math.max(largest, change);
      if (change > 1e-9) {
        changed++;
        examples.add("task " + row.path("_ng_task_index").asLong() + " rollout " + row.path("_ng_rollout_index")
            .asLong() + ": " + old + " -> " + now);
      }
    }
    return new RewardDiff(compared, changed, compared == 0 ? 0 : sumBefore / compared,
        compared == 0 ? 0 : sumAfter / compared, compared == 0 ? 0 : sumChange / compared, largest, examples);
  }

  void print(PrintWriter out, int maxExamples) {
    out.printf("rewards: %d of %d changed; mean %.4f -> %.4f; mean change %.4f, largest %.4f%n", changed, compared,
        meanBefore, meanAfter, meanAbsoluteChange, largestChange);
    examples.stream().limit(maxExamples).forEach(example -> out.println("  " + example));
  }
}
