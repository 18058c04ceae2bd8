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
    boolean failed = !row.path("reward").isNumber() || row.has("_ng_failure_class");
    if (failed) {
      return !dropFailed && minReward == null && maxReward == null;
    }
    double reward = row.get("reward").asDouble();
    if (minReward != null && reward < minReward || maxReward != null && reward > maxReward) {
      return false;
    }
    if (agent != null && !agent.equals(row.path("agent_ref").path("name").asString(null))) {
      return false;
    }
    return !dropTruncated || !truncated(row);
  }

  static boolean truncated(JsonNode row) {
    JsonNode response = row.get("response");
    return response != null && response.isObject() && new Response((tools.jackson.databind.node.ObjectNode) response)
        .isIncomplete();
  }
}
