package dev.gym4j.environments.math_with_judge;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.gym4j.metrics.AggregateMetrics;
import dev.gym4j.metrics.PassMajority;

/**
 * The aggregate metrics of NeMo Gym's math_with_judge family ({@code _math_score_fn}, {@code compute_metrics}
 * and {@code get_key_metrics} in resources_servers/math_with_judge/app.py): the pass@k family of
 * {@code symbolic_accuracy} (the library reward) and, for rollouts the judge saw, {@code judge_accuracy} (the
 * reward), with majority@k over {@code extracted_answer}; optionally the same per value of a subset field
 * (physics_judge's {@code domain}, polymath's {@code language}). Key metrics: tokens and the highest k of
 * {@code pass@1[avg-of-k]}, {@code pass@k} and {@code majority@k}.
 */
public final class MathMetrics {
  /** NeMo Gym's {@code _math_score_fn}. */
  public static final PassMajority.Scores SCORES = row -> {
    Map<String, Double> scores = new LinkedHashMap<>();
    if (row.has("library_reward")) {
      scores.put("symbolic_accuracy", row.get("library_reward").asDouble());
    }
    if (row.hasNonNull("judge_evaluations")) {
      scores.put("judge_accuracy", row.path("reward").asDouble());
    }
    return scores;
  };
  static final String ANSWER = "extracted_answer";

  private MathMetrics() {}

  /** math_with_judge's own metrics. */
  public static AggregateMetrics.Custom overall() {
    return PassMajority.metrics(SCORES, ANSWER, null);
  }

  /** The metrics plus one set per value of {@code subsetKey}, for the rollouts that carry that field. */
  public static AggregateMetrics.Custom withSubsets(String subsetKey) {
    return PassMajority.metrics(SCORES, ANSWER, subsetKey);
  }
}
