package dev.gym4j.client;

/**
 * A call to another server that did not produce a response: the kind says why, so that callers record a
 * typed failure (never a reward of 0).
 */
public final class UpstreamException extends RuntimeException {
  /** Why a call failed. */
  public enum Kind {
    /** No connection could be made (refused, reset, unreachable) within the attempts allowed. */
    CONNECTION,
    /** Connected, but no complete response within the request deadline. */
    TIMEOUT,
    /** The server kept answering 429/502/503/504 until the attempts ran out, or answered another error. */
    STATUS,
    /** The instance name is not known to this process or to the head server. */
    UNKNOWN_INSTANCE
  }

  private final Kind kind;
  private final int status;

  public UpstreamException(Kind kind, String message, int status, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.status = status;
  }

  public UpstreamException(Kind kind, String message) {
    this(kind, message, 0, null);
  }

  public Kind kind() {
    return kind;
  }

  /** The last HTTP status seen, or 0 when there was none. */
  public int status() {
    return status;
  }
}
