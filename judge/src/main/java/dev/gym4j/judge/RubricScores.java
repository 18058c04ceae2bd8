package dev.gym4j.judge;

import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.server.ServerContext;

/**
 * NeMo Gym's {@code aggregation_mode} for environments that judge a rubric item by item (inverse_if,
 * multichallenge): {@code mean}, {@code min}, {@code max}, {@code all} and {@code any} (an item passes at 0.99 or
 * more), {@code weighted} (the weighted mean; 0 when the weights add up to 0). No items is 0.
 */
public enum RubricScores {
  MEAN, MIN, MAX, ALL, ANY, WEIGHTED;

  /** The config's {@code aggregation_mode} (default mean); another value is a config error naming the key. */
  public static RubricScores from(ServerContext context) {
    String value = context.config().path("aggregation_mode").asString("mean");
    for (RubricScores mode : values()) {
      if (mode.label().equals(value)) {
        return mode;
      }
    }
    throw new ConfigException(context.path("aggregation_mode") + " must be mean, min, max, all, any or weighted, got "
        + value);
  }

  /** The mode as NeMo Gym spells it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The reward from the items' scores and weights (the weights count only for {@code weighted}). */
  public double aggregate(List<Double> scores, List<Double> weights) {
    if (scores.isEmpty()) {
      return 0.0;
    }
    return switch (this) {
      case MEAN -> scores.stream().mapToDouble(Double::doubleValue).sum() / scores.size();
      case MIN -> scores.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
      case MAX -> scores.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
      case ALL -> scores.stream().allMatch(RubricScores::passes) ? 1.0 : 0.0;
      case ANY -> scores.stream().anyMatch(RubricScores::passes) ? 1.0 : 0.0;
      case WEIGHTED -> {
        double total = weights.stream().mapToDouble(Double::doubleValue).sum();
        double sum = 0;
        for (int i = 0; i < scores.size(); i++) {
          sum += scores.get(i) * weights.get(i);
        }
        yield total == 0 ? 0.0 : sum / total;
      }
    };
  }

  /** An item that counts as passed ({@code num_passed}). */
  public static boolean passes(double score) {
    return score >= 0.99;
  }
}
