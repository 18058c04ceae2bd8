package dev.gym4j.resources;

import tools.jackson.databind.node.ObjectNode;

/**
 * Thrown from {@code verify} when the environment's config asks for a failure to be scored 0 instead of
 * failing the rollout (the judge SDK's {@code judge_unparseable: zero}, which reproduces NeMo Gym's numbers).
 * {@code /verify} answers it as a verification: {@code reward} 0.0 plus {@link #fields()}.
 */
public final class ZeroReward extends RuntimeException {
  private final transient ObjectNode fields;

  public ZeroReward(String message, ObjectNode fields) {
    super(message, null, false, false);
    this.fields = fields.deepCopy();
  }

  /** The fields the verify response carries beside {@code reward: 0.0}. */
  public ObjectNode fields() {
    return fields.deepCopy();
  }
}
