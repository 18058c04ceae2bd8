package dev.gym4j.collect;

import java.nio.file.Path;

import dev.gym4j.json.Json;
import tools.jackson.databind.node.ObjectNode;

/**
 * What to collect and how, with NeMo Gym's meanings.
 *
 * @param agent the agent for rows without an {@code agent_ref} (may be null when every row has one)
 * @param repeats rollouts per task
 * @param parallel rollouts in flight at once
 * @param limit the first N input lines only (0: all)
 * @param resume keep what the output already holds and run only the rest
 * @param paramsOverride top-level {@code responses_create_params} fields that replace the row's
 * @param maxAttempts tries per rollout, counting those recorded in the failures file
 */
public record CollectOptions(String agent, Path input, Path output, int repeats, int parallel, int limit,
    boolean resume, ObjectNode paramsOverride, int maxAttempts) {

  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  public CollectOptions {
    if (repeats < 1) {
      throw new IllegalArgumentException("repeats must be at least 1");
    }
    if (parallel < 1) {
      throw new IllegalArgumentException("parallel must be at least 1");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    paramsOverride = paramsOverride == null ? Json.object() : paramsOverride;
  }

  /** {@code results/run.jsonl} → {@code results/run_<suffix>}. */
  public Path beside(String suffix) {
    String name = output.getFileName().toString();
    String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
    return output.resolveSibling(stem + "_" + suffix);
  }

  public Path materializedInputs() {
    return beside("materialized_inputs.jsonl");
  }

  public Path failures() {
    return beside("failures.jsonl");
  }

  public Path aggregateMetrics() {
    return beside("aggregate_metrics.json");
  }
}
