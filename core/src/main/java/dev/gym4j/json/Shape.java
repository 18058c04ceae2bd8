package dev.gym4j.json;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Checks of a JSON value's shape that fail with a {@link FieldError} naming the field. */
public final class Shape {
  private Shape() {}

  public static List<Object> at(List<Object> path, Object next) {
    List<Object> out = new ArrayList<>(path);
    out.add(next);
    return out;
  }

  public static ObjectNode object(JsonNode node, List<Object> path) {
    if (node == null || !node.isObject()) {
      throw new FieldError(path, "Input should be a valid object", "object_type");
    }
    return (ObjectNode) node;
  }

  /** A field that must be present and not null. */
  public static JsonNode required(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value == null || value.isNull()) {
      throw new FieldError(at(path, field), "Field required", "missing");
    }
    return value;
  }

  public static void optionalString(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull() && !value.isString()) {
      throw new FieldError(at(path, field), "Input should be a valid string", "string_type");
    }
  }

  public static void optionalNumber(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull() && !value.isNumber()) {
      throw new FieldError(at(path, field), "Input should be a valid number", "float_type");
    }
  }

  public static void optionalInteger(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull() && !value.isIntegralNumber()) {
      throw new FieldError(at(path, field), "Input should be a valid integer", "int_type");
    }
  }

  /** A count: absent, null, or a whole number from 0 to {@link Long#MAX_VALUE}. */
  public static void optionalCount(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull()
        && !(value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0)) {
      throw new FieldError(at(path, field), "Input should be a non-negative integer", "int_type");
    }
  }

  /**
   * A whole number that fits a {@code long}, or a {@link FieldError} naming the field in pydantic's words: a value
   * that is not a number is {@code int_type}, a number with a fraction {@code int_from_float}, one past the range
   * {@code int_overflow} (Jackson's own accessors throw on it, with a message naming Java types). Never expands
   * the digits: {@code 1e999999999} costs nothing.
   */
  public static long longValue(JsonNode value, List<Object> path) {
    if (value == null || !value.isNumber()) {
      throw new FieldError(path, "Input should be a valid integer", "int_type");
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    java.math.BigDecimal number = value.decimalValue();
    if (number.signum() != 0 && number.scale() > 0 && number.stripTrailingZeros().scale() > 0) {
      throw new FieldError(path, "Input should be a valid integer, got a number with a fractional part",
          "int_from_float");
    }
    if (number.precision() - number.scale() > 19 || number.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0
        || number.compareTo(java.math.BigDecimal.valueOf(Long.MIN_VALUE)) < 0) {
      throw new FieldError(path, "Input should be between " + Long.MIN_VALUE + " and " + Long.MAX_VALUE,
          "int_overflow");
    }
    return number.longValueExact();
  }

  public static void optionalBoolean(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull() && !value.isBoolean()) {
      throw new FieldError(at(path, field), "Input should be a valid boolean", "bool_type");
    }
  }

  public static void optionalObject(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull() && !value.isObject()) {
      throw new FieldError(at(path, field), "Input should be a valid object", "object_type");
    }
  }

  public static void optionalArray(ObjectNode parent, String field, List<Object> path) {
    JsonNode value = parent.get(field);
    if (value != null && !value.isNull() && !value.isArray()) {
      throw new FieldError(at(path, field), "Input should be a valid list", "list_type");
    }
  }

  /**
   * The text of a message's content in any of its wire forms: a string, or a list of parts whose
   * {@code text} fields are joined ({@code output_text}, {@code input_text}, chat {@code text} parts);
   * empty when the content is absent or null.
   */
  public static String contentText(JsonNode content) {
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isString()) {
      return content.stringValue();
    }
    StringBuilder out = new StringBuilder();
    for (JsonNode part : content) {
      String text = text(part, "text");
      if (text != null) {
        out.append(text);
      }
    }
    return out.toString();
  }

  /** The text of a string field, or null when it is absent, null or not a string. */
  public static String text(JsonNode parent, String field) {
    JsonNode value = parent.get(field);
    return value != null && value.isString() ? value.stringValue() : null;
  }
}
