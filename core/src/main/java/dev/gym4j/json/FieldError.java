package dev.gym4j.json;

import java.util.List;

/**
 * Input that does not have the expected shape. Servers answer it with 422 and a body naming the field,
 * as FastAPI does: {@code {"detail":[{"loc":["body","input",0,"role"],"msg":"...","type":"..."}]}}.
 */
public final class FieldError extends RuntimeException {
  private final List<Object> location;
  private final String type;

  public FieldError(List<Object> location, String message, String type) {
    super(message);
    this.location = List.copyOf(location);
    this.type = type;
  }

  public FieldError(List<Object> location, String message) {
    this(location, message, "value_error");
  }

  /** Where the bad value is, from the top of the body: field names and array indices. */
  public List<Object> location() {
    return location;
  }

  public String type() {
    return type;
  }

  /** The location in dotted form, e.g. {@code input.0.role}. */
  public String dottedLocation() {
    StringBuilder out = new StringBuilder();
    for (Object part : location) {
      if (!out.isEmpty()) {
        out.append('.');
      }
      out.append(part);
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return dottedLocation() + ": " + getMessage();
  }
}
