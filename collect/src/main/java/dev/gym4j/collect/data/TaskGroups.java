package dev.gym4j.collect.data;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rollouts grouped by task, with what GRPO needs: each group's mean and standard deviation of reward and
 * each rollout's group-relative advantage (r − mean) / (std + ε). Groups whose rewards are all equal give
 * GRPO no signal; their share is reported so they can be filtered before training.
 *
 * <p>The standard deviation is the sample one (n − 1) and ε is 1e-4, as in TRL's GRPO trainer. A task is
 * its {@code _ng_task_index}, or its prompt in files that lack one.
 */
public final class TaskGroups {
  public static final double EPSILON = 1e-4;

  /** One task's rollouts and their reward statistics. */
  public record Group(String key, List<JsonNode> rollouts, double mean, double std) {
    public boolean zeroVariance() {
      return rollouts.stream().map(r -> r.get("reward").asDouble()).distinct().count() <= 1;
    }

    public double advantage(JsonNode rollout) {
      return (rollout.get("reward").asDouble() - mean) / (std + EPSILON);
    }
  }

  private TaskGroups() {}

  /** Groups of the rows that have a numeric reward, in order of first appearance. */
  public static List<Group> of(List<JsonNode> rows) {
    Map<String, List<JsonNode>> byTask = new LinkedHashMap<>();
    for (JsonNode row : rows) {
      if (row.path("reward").isNumber()) {
        byTask.computeIfAbsent(key(row), k -> new ArrayList<>()).add(row);
      }
    }
    List<Group> groups = new ArrayList<>();
    byTask.forEach((key, rollouts) -> {
      double mean = rollouts.stream().mapToDouble(r -> r.get("reward").asDouble()).average().orElse(0);
      double squares = rollouts.stream().mapToDouble(r -> Math.pow(r.get("reward").asDouble() - mean, 2)).sum();
      double std = rollouts.size() > 1 ? Math.sqrt(squares / (rollouts.size() - 1)) : 0;
      groups.add(new Group(key, rollouts, mean, std));
    });
    return groups;
  }

  static String key(JsonNode row) {
    JsonNode index = row.get("_ng_task_index");
    if (index != null && index.isNumber()) {
      return "task " + index.asLong();
    }
    return Json.write(row.path("responses_create_params").path("input"));
  }

  /** The summary {@code gym4j metrics --groups} prints: per group stats and the zero-variance share. */
  public static ObjectNode report(List<Group> groups) {
    ObjectNode report = Json.object();
    long zero = groups.stream().filter(Group::zeroVariance).count();
    report.put("num_groups", groups.size());
    report.put("num_zero_variance_groups", zero);
    report.put("zero_variance_share", groups.isEmpty() ? 0.0 : (double) zero / groups.size());
    ArrayNode list = report.putArray("groups");
    for (Group group : groups) {
      ObjectNode entry = list.addObject();
      JsonNode index = group.rollouts().getFirst().get("_ng_task_index");
      if (index != null) {
        entry.set("_ng_task_index", index);
      }
      entry.put("num_rollouts", group.rollouts().size());
      entry.put("mean_reward", group.mean());
      entry.put("std_reward", group.std());
      entry.put("zero_variance", group.zeroVariance());
      ArrayNode advantages = entry.putArray("advantages");
      group.rollouts().forEach(rollout -> advantages.add(group.advantage(rollout)));
    }
    return report;
  }
}
