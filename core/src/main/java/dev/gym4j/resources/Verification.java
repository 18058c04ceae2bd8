package dev.gym4j.resources;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code verify} decided: the reward, plus any fields worth keeping in the rollout row
 * ({@code extracted_answer}, per-component rewards, …).
 */
public record Verification(double reward, ObjectNode extra) {

  public Verification {
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("a reward must be a finite number, got " + reward);
    }
  }

  public static Verification of(double reward) {
    return new Verification(reward, Json.object());
  }

  /** A copy with one more field in the verify response. */
  public Verification with(String field, Object value) {
    ObjectNode copy = extra.deepCopy();
    copy.set(field, value instanceof JsonNode node ? node : Json.toTree(value));
    return new Verification(reward, copy);
  }
}
