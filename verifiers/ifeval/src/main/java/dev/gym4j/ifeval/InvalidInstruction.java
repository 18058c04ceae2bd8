package dev.gym4j.ifeval;

/**
 * An instruction that cannot be built: an unknown id, or kwargs missing, of the wrong type, or not
 * accepted by the id. {@code field} names the kwarg (null for the id itself).
 */
public final class InvalidInstruction extends RuntimeException {
  private final String field;

  InvalidInstruction(String field, String message) {
    super(message);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
