package dev.gym4j.agent;

/**
 * A rollout that could not be completed, with the kind of failure NeMo Gym's failure sidecar records:
 * {@code timeout}, {@code model_error}, {@code resources_error}, {@code verify_error}.
 */
public final class RolloutFailure extends RuntimeException {
  private final String failureClass;
  private final int status;
  private final transient tools.jackson.databind.JsonNode response;

  public RolloutFailure(String failureClass, int status, String message, Throwable cause) {
    this(failureClass, status, message, cause, null);
  }

  private RolloutFailure(String failureClass, int status, String message, Throwable cause,
      tools.jackson.databind.JsonNode response) {
    super(message, cause);
    this.failureClass = failureClass;
    this.status = status;
    this.response = response;
  }

  /**
   * The same failure carrying the model's finished response, so that the failures file keeps it and the
   * rollout can be verified again without the model (a judge that failed, say).
   */
  public RolloutFailure withResponse(tools.jackson.databind.JsonNode finished) {
    RolloutFailure copy = new RolloutFailure(failureClass, status, getMessage(), getCause(), finished);
    copy.setStackTrace(getStackTrace());
    return copy;
  }

  /** The model's finished response, when the rollout failed after it (in verify). */
  public java.util.Optional<tools.jackson.databind.JsonNode> response() {
    return java.util.Optional.ofNullable(response);
  }

  public String failureClass() {
    return failureClass;
  }

  /** The HTTP status the agent answers with. */
  public int status() {
    return status;
  }
}
