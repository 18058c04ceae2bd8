package dev.gym4j.agent;

/**
 * A rollout that could not be completed, with the kind of failure NeMo Gym's failure sidecar records:
 * {@code timeout}, {@code model_error}, {@code resources_error}, {@code verify_error}.
 */
public final class RolloutFailure extends RuntimeException {
  private final String failureClass;
  private final int status;

  public RolloutFailure(String failureClass, int status, String message, Throwable cause) {
    super(message, cause);
    this.failureClass = failureClass;
    this.status = status;
  }

  public String failureClass() {
    return failureClass;
  }

  /** The HTTP status the agent answers with. */
  public int status() {
    return status;
  }
}
