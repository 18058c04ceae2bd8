package dev.gym4j.collect.data;

import dev.gym4j.wire.Response;
import tools.jackson.databind.JsonNode;

/**
 * Which rollouts an export keeps, shared by every format.
 *
 * @param minReward keep rewards at or above (null: no bound)
 * @param maxReward keep rewards at or below (null: no bound)
 * @param dropFailed drop rows without a numeric reward or marked with {@code _ng_failure_class}
 * @param dropTruncated drop rollouts whose last response is incomplete (cut by the token limit or a filter)
 * @param agent keep one agent's rollouts (null: all)
 */
public record RolloutFilter(Double minReward, Double maxReward, boolean dropFailed, boolean dropTruncated,
    String agent) {

  public static RolloutFilter none() {
    return new RolloutFilter(null, null, false, false, null);
  }

  public boolean keeps(JsonNode row) {
    return dropReason(row) == null;
  }

  /** Why the filter drops a row, in the words of its option ({@code "--drop-failed"}, ...); null when kept. */
  public String dropReason(JsonNode row) {
    boolean failed = !row.path("reward").isNumber() || row.has("_ng_failure_class");
    if (failed) {
      return dropFailed ? "failed or without a reward (--drop-failed)" : minReward != null || maxReward != null
          ? "without a reward (--min-reward/--max-reward)" : null;
    }
    double reward = row.get("reward").asDouble();
    if (minReward != null && reward < minReward) {
      return "below --min-reward " + minReward;
    }
    if (maxReward != null && reward > maxReward) {
      return "above --max-reward " + maxReward;
    }
    if (agent != null && !agent.equals(row.path("agent_ref").path("name").asString(null))) {
      return "of another agent than --agent " + agent;
    }
    return dropTruncated && truncated(row) ? "truncated (--drop-truncated)" : null;
  }

  static boolean truncated(JsonNode row) {
    JsonNode response = row.get("response");
    return response != null && response.isObject() && new Response((tools.jackson.databind.node.ObjectNode) response)
        .isIncomplete();
  }
}
