package dev.gym4j.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 31, defect 2: the linear pass@k family ({@link PassCurves}) gives NeMo Gym's numbers. Compared, key for key
 * and in the same order, with {@link ReferencePassMajority} (compute_pass_majority_metrics of
 * nemo_gym/reward_profile.py as it reads, every k from scratch with exact binomials) on random runs: binary and
 * continuous scores, rollouts missing a score, answers with ties and without, tasks of different lengths.
 */
class PassMajorityAgreementTest {
  private static final PassMajority.Scores SCORES = row -> {
    Map<String, Double> scores = new HashMap<>();
    scores.put("accuracy", row.path("reward").asDouble());
    if (row.has("partial")) {
      scores.put("partial", row.get("partial").asDouble());
    }
    return scores;
  };

  @Test
  void every_value_matches_the_reference_on_random_runs() {
    Random random = new Random(31);
    for (int run = 0; run < 300; run++) {
      List<List<JsonNode>> tasks = randomTasks(random);
      for (String answerKey : new String[] {null, "extracted_answer"}) {
        ObjectNode expected = ReferencePassMajority.of(tasks, SCORES, answerKey);
        ObjectNode actual = PassMajority.of(tasks, SCORES, answerKey);
        assertThat(actual.propertyNames()).as("run %d", run).containsExactlyElementsOf(expected.propertyNames());
        expected.properties().forEach(entry -> close(entry.getKey(), actual.get(entry.getKey()), entry.getValue()));
      }
    }
  }

  @Test
  void the_estimator_matches_exact_binomials_far_into_k() {
    for (int[] c : new int[][] {{200, 3, 100}, {1000, 1, 999}, {100_000, 50_000, 7}, {5000, 2500, 2500}}) {
      double exact = 1 - new java.math.BigDecimal(binomial(c[0] - c[1], c[2]))
          .divide(new java.math.BigDecimal(binomial(c[0], c[2])), java.math.MathContext.DECIMAL128).doubleValue();
      assertThat(PassMajority.unbiased(c[0], c[1], c[2])).isCloseTo(exact, org.assertj.core.data.Offset.offset(1e-12));
    }
  }

  private static java.math.BigInteger binomial(int n, int k) {
    java.math.BigInteger result = java.math.BigInteger.ONE;
    for (int i = 0; i < k; i++) {
      result = result.multiply(java.math.BigInteger.valueOf(n - i)).divide(java.math.BigInteger.valueOf(i + 1));
    }
    return result;
  }

  private static void close(String key, JsonNode actual, JsonNode expected) {
    if (expected.isArray()) {
      assertThat(actual.size()).as(key).isEqualTo(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        close(key + "/" + i, actual.get(i), expected.get(i));
      }
    } else if (expected.isObject()) {
      assertThat(actual.propertyNames()).as(key).containsExactlyElementsOf(expected.propertyNames());
      expected.properties().forEach(e -> close(key + "/" + e.getKey(), actual.get(e.getKey()), e.getValue()));
    } else {
      double e = expected.asDouble();
      assertThat(actual.asDouble()).as(key).isCloseTo(e, org.assertj.core.data.Offset.offset(1e-9 * Math.max(1,
          Math.abs(e))));
    }
  }

  private static List<List<JsonNode>> randomTasks(Random random) {
    int taskCount = 1 + random.nextInt(6);
    boolean continuous = random.nextInt(3) == 0;
    List<List<JsonNode>> tasks = new ArrayList<>();
    for (int t = 0; t < taskCount; t++) {
      int n = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
      List<JsonNode> task = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ObjectNode row = Json.object().put("_ng_task_index", t);
        row.put("reward", continuous ? random.nextInt(5) / 4.0 : random.nextInt(2));
        if (random.nextInt(4) > 0) {
          row.put("partial", random.nextDouble());
        }
        int answer = random.nextInt(5);
        if (answer > 0) {
          row.put("extracted_answer", String.valueOf(random.nextInt(answer + 1)));
        }
        task.add(row);
      }
      tasks.add(task);
    }
    return tasks;
  }
}
