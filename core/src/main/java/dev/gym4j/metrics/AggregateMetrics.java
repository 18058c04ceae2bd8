package dev.gym4j.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
    return ofRequest(body, null);
  }

  /**
   * An environment's own metrics, as NeMo Gym's {@code compute_metrics} and {@code get_key_metrics} hooks
   * give them: {@link #compute} replaces the default pass@k family (it receives the rollouts grouped by
   * {@link PassMajority#tasks}) and {@link #keyMetrics} picks the headline entries of the agent metrics.
   */
  public interface Custom {
    ObjectNode compute(List<List<JsonNode>> tasks);

    ObjectNode keyMetrics(ObjectNode agentMetrics);
  }

  /** {@link #ofRequest(ObjectNode)} with an environment's own metrics ({@code custom} null for none). */
  public static ObjectNode ofRequest(ObjectNode body, Custom custom) {
    JsonNode responses = body.get("verify_responses");
    if (responses == null || !responses.isArray()) {
      throw new dev.gym4j.json.FieldError(List.of("verify_responses"), "Field required: a list of verify responses",
          "missing");
    }
    List<JsonNode> rows = new ArrayList<>();
    responses.forEach(rows::add);
    for (int i = 0; i < rows.size(); i++) {
      if ((i & 4095) == 4095) {
        Work.check();
      }
      checked(rows.get(i), i);
    }
    ObjectNode entry = forAgent("", rows, custom);
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
    byAgent.forEach((agent, agentRows) -> result.add(forAgent(agent, agentRows, null)));
    return result;
  }

  private static ObjectNode forAgent(String agent, List<JsonNode> rows, Custom custom) {
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
    if (custom != null) {
      metrics.setAll(custom.compute(PassMajority.tasks(rows)));
      entry.set("key_metrics", custom.keyMetrics(metrics));
      entry.set("group_level_metrics", groups(tasks));
      return entry;
    }
    boolean binary = passAtK(tasks.values(), metrics);
    ObjectNode key = entry.putObject("key_metrics");
    // NeMo Gym's default key metrics are every mean/*; with pass@k, the highest k of each, as math_with_judge's
    metrics.properties().forEach(m -> {
      if (m.getKey().startsWith("mean/")) {
        key.set(m.getKey(), m.getValue());
      }
    });
    for (String family : List.of("pass@1[avg-of-%d]/accuracy", "pass@%d/accuracy", "majority@%d/accuracy")) {
      String highest = family.formatted(tasks.values().stream().mapToInt(List::size).max().orElse(0));
      if (binary && metrics.has(highest)) {
        key.set(highest, metrics.get(highest));
      }
    }
    entry.set("group_level_metrics", groups(tasks));
    return entry;
  }

  private static ArrayNode groups(Map<String, List<JsonNode>> tasks) {
    ArrayNode groups = Json.array();
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
    return groups;
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
   * NeMo Gym's pass@k family ({@link PassMajority}, with its default score {@code accuracy} = reward), in
   * percent, for k = 1 … the most rollouts of a task; empty unless every reward is 0 or 1, since a best-of-k of
   * a reward like blackjack's −1/0/1 or a sum of components is no probability. When rollouts carry
   * {@code extracted_answer}, a {@code no_answer} score and {@code majority@k} are added, as mcqa and
   * math_with_judge do.
   */
  public static ObjectNode passAtK(Collection<List<JsonNode>> tasks) {
    ObjectNode out = Json.object();
    passAtK(tasks, out);
    return out;
  }

  /** {@link #passAtK(Collection)} added to {@code into}; false when the rewards are not all 0 or 1 (nothing added). */
  private static boolean passAtK(Collection<List<JsonNode>> tasks, ObjectNode into) {
    boolean binary = tasks.stream().flatMap(List::stream).map(row -> row.path("reward").asDouble(0))
        .allMatch(reward -> reward == 0.0 || reward == 1.0);
    if (tasks.isEmpty() || !binary) {
      return false;
    }
    boolean answers = tasks.stream().flatMap(List::stream).anyMatch(row -> row.hasNonNull(ANSWER));
    PassMajority.into(new ArrayList<>(tasks), PassMajority.REWARD, answers ? ANSWER : null, into);
    return true;
  }

  /** 1 − C(n−c, k) / C(n, k), as a running product. */
  public static double unbiasedPassAtK(int n, int c, int k) {
    return PassMajority.unbiased(n, c, k);
  }
}
