package dev.gym4j.sandbox;

/**
 * The sandbox could not run a program: an infrastructure failure of the rollout (never a reward of 0). What the
 * program itself did, limits included, is an {@link ExecutionResult}, not this.
 */
public final class SandboxException extends RuntimeException {
  /** Why. */
  public enum Kind {
    /** bubblewrap is missing or a namespace was refused: the sandbox cannot isolate here. */
    UNAVAILABLE,
    /** Every slot stayed busy past the queue deadline. */
    BUSY,
    /** The launcher failed to start or report (an I/O error, a missing interpreter). */
    FAILED
  }

  private final Kind kind;

  public SandboxException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public SandboxException(Kind kind, String message) {
    this(kind, message, null);
  }

  public Kind kind() {
    return kind;
  }
}
