package dev.gym4j.collect;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

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
 * @param maxAttempts tries per rollout in one run
 * @param repeatsByAgent NeMo Gym's dict form of {@code num_repeats}: rollouts per task by {@code agent_ref.name},
 *     {@code _default} for the rest; when not empty it replaces {@code repeats}
 * @param addSeed NeMo Gym's {@code num_repeats_add_seed}: each rollout's index as {@code seed} in
 *     {@code responses_create_params.metadata.extra_body}
 * @param promptConfig NeMo Gym's {@code prompt_config}: a YAML template that builds each row's input (null: none)
 * @param retryFailed with {@code resume}, run again the rollouts that failed in earlier runs (those an agent
 *     marked terminal excepted)
 * @param retries how retries wait
 * @param aggregate compute the aggregate metrics and write {@code <output>_aggregate_metrics.json} after the
 *     collection; off is NeMo Gym's {@code disable_aggregation}, for shards merged later by {@code metrics}
 * @param shard the part of the tasks this run collects (all of them unless sharded)
 */
public record CollectOptions(String agent, Path input, Path output, int repeats, int parallel, int limit,
    boolean resume, ObjectNode paramsOverride, int maxAttempts, Map<String, Integer> repeatsByAgent, boolean addSeed,
    Path promptConfig, boolean retryFailed, Retries retries, boolean aggregate, Shard shard) {

  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  /**
   * How a rollout's retries wait. Every wait is jittered (half to all of the nominal delay), so rollouts that
   * failed together do not come back together.
   *
   * @param initialBackoff the wait before the second attempt; it doubles for each further one
   * @param maxBackoff the longest single wait
   * @param deadline no retry starts later than this after the rollout's first attempt
   * @param outageWait how long a rollout waits for an agent or head server it cannot reach to come back; these
   *     waits use no attempt
   */
  public record Retries(Duration initialBackoff, Duration maxBackoff, Duration deadline, Duration outageWait) {
    public static Retries defaults() {
      return new Retries(Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofHours(3), Duration.ofMinutes(10));
    }

    /** The jittered wait before retry number {@code retry} (1 for the first retry). */
    Duration backoff(int retry) {
      long cap = maxBackoff.toMillis();
      long nominal = Math.min(cap, initialBackoff.toMillis() << Math.min(Math.max(retry - 1, 0), 20));
      return Duration.ofMillis(nominal / 2 + java.util.concurrent.ThreadLocalRandom.current().nextLong(nominal / 2 + 1));
    }
  }

  /**
   * One of {@code count} disjoint parts of a collection: the tasks whose index modulo {@code count} is
   * {@code index}, every rollout of a task included, so separate runs (a Kubernetes indexed Job's pods) never
   * run the same (task, rollout) pair and {@code gym4j collect merge} joins their outputs.
   */
  public record Shard(int index, int count) {
    public static final Shard ALL = new Shard(0, 1);

    public Shard {
      if (count < 1 || index < 0 || index >= count) {
        throw new IllegalArgumentException("a shard is INDEX/COUNT with 0 <= INDEX < COUNT, got " + index + "/" + count);
      }
    }

    /** Parses {@code INDEX/COUNT}, as {@code --shard 2/8} gives it. */
    public static Shard parse(String text) {
      String[] parts = text.strip().split("/", -1);
      try {
        if (parts.length == 2) {
          return new Shard(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("a shard is INDEX/COUNT, like 2/8, got '" + text + "'");
    }

    public boolean includes(long taskIndex) {
      return Math.floorMod(taskIndex, count) == index;
    }

    @Override
    public String toString() {
      return index + "/" + count;
    }
  }

  public CollectOptions(String agent, Path input, Path output, int repeats, int parallel, int limit, boolean resume,
      ObjectNode paramsOverride, int maxAttempts) {
    this(agent, input, output, repeats, parallel, limit, resume, paramsOverride, maxAttempts, Map.of(), false, null,
        true, Retries.defaults());
  }

  /** The options with the aggregate metrics computed and written. */
  public CollectOptions(String agent, Path input, Path output, int repeats, int parallel, int limit, boolean resume,
      ObjectNode paramsOverride, int maxAttempts, Map<String, Integer> repeatsByAgent, boolean addSeed,
      Path promptConfig, boolean retryFailed, Retries retries) {
    this(agent, input, output, repeats, parallel, limit, resume, paramsOverride, maxAttempts, repeatsByAgent, addSeed,
        promptConfig, retryFailed, retries, true, Shard.ALL);
  }

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
    repeatsByAgent = repeatsByAgent == null ? Map.of() : Map.copyOf(repeatsByAgent);
    repeatsByAgent.forEach((name, count) -> {
      if (count < 1) {
        throw new IllegalArgumentException("num_repeats." + name + " must be at least 1, got " + count);
      }
    });
    retries = retries == null ? Retries.defaults() : retries;
    shard = shard == null ? Shard.ALL : shard;
  }

  /** The same options collecting only the tasks of {@code value}. */
  public CollectOptions withShard(Shard value) {
    return new CollectOptions(agent, input, output, repeats, parallel, limit, resume, paramsOverride, maxAttempts,
        repeatsByAgent, addSeed, promptConfig, retryFailed, retries, aggregate, value);
  }

  public CollectOptions withRetries(Retries value) {
    return new CollectOptions(agent, input, output, repeats, parallel, limit, resume, paramsOverride, maxAttempts,
        repeatsByAgent, addSeed, promptConfig, retryFailed, value, aggregate, shard);
  }

  /** The same options with rows rendered through a NeMo Gym prompt_config file (or none). */
  public CollectOptions withPromptConfig(Path value) {
    return new CollectOptions(agent, input, output, repeats, parallel, limit, resume, paramsOverride, maxAttempts,
        repeatsByAgent, addSeed, value, retryFailed, retries, aggregate, shard);
  }

  public CollectOptions withResume(boolean value, boolean retryFailedRollouts) {
    return new CollectOptions(agent, input, output, repeats, parallel, limit, value, paramsOverride, maxAttempts,
        repeatsByAgent, addSeed, promptConfig, retryFailedRollouts, retries, aggregate, shard);
  }

  /** The same options with the aggregate metrics computed or not (NeMo Gym's {@code disable_aggregation}). */
  public CollectOptions withAggregation(boolean value) {
    return new CollectOptions(agent, input, output, repeats, parallel, limit, resume, paramsOverride, maxAttempts,
        repeatsByAgent, addSeed, promptConfig, retryFailed, retries, value, shard);
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
