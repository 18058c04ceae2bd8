package dev.gym4j.environments.workplace_assistant;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.json.PythonValues;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The bits of Python's semantics the workplace tools rely on, over JSON values: keyword arguments,
 * truthiness, {@code str()}, {@code ==}, {@code int()}, and the exception a Python call would raise
 * ({@link Error}, whose message is Python's {@code str(e)}).
 */
final class Py {
  private Py() {}

  /** A Python exception: the tool's answer becomes an error text, never a failed request. */
  static final class Error extends RuntimeException {
    Error(String message) {
      super(message);
    }
  }

  /**
   * Keyword arguments of one call: the JSON object's members, a JSON null being Python's {@code None}.
   * Names the function does not take fail as Python's {@code TypeError} does.
   */
  static final class Kwargs {
    private final ObjectNode values;

    Kwargs(ObjectNode values, String function, Set<String> parameters) {
      for (String name : values.propertyNames()) {
        if (!parameters.contains(name)) {
          throw new Error(function + "() got an unexpected keyword argument '" + name + "'");
        }
      }
      this.values = values;
    }

    /** The argument, Python's None for an explicit null, or null when not given. */
    JsonNode get(String name) {
      JsonNode value = values.get(name);
      return value == null ? null : value;
    }

    /** The argument, or {@code fallback} (a default) when not given; an explicit null stays None. */
    JsonNode get(String name, JsonNode fallback) {
      JsonNode value = values.get(name);
      return value == null ? fallback : value;
    }
  }

  static final JsonNode NONE = Json.parse("null");

  static JsonNode text(String value) {
    return Json.toTree(value);
  }

  static JsonNode number(long value) {
    return Json.toTree(value);
  }

  static boolean isNone(JsonNode value) {
    return value == null || value.isNull();
  }

  /** Python's truth value: None, False, 0, "", [] and {} are false. */
  static boolean truthy(JsonNode value) {
    return PythonValues.truthy(value);
  }

  static boolean equal(JsonNode a, JsonNode b) {
    return PythonEquality.equal(a == null ? NONE : a, b == null ? NONE : b);
  }

  /** Python's type name of a JSON value. */
  static String typeName(JsonNode value) {
    return PythonValues.typeName(value);
  }

  /** The argument as text, or the AttributeError Python raises calling a string method on something else. */
  static String string(JsonNode value, String method) {
    if (value != null && value.isString()) {
      return value.stringValue();
    }
    throw new Error("'" + typeName(value) + "' object has no attribute '" + method + "'");
  }

  /** {@code str.lower()}. */
  static String lower(JsonNode value) {
    return string(value, "lower").toLowerCase(Locale.ROOT);
  }

  /** {@code str(value)}, for the JSON values a call can carry. */
  static String str(JsonNode value) {
    if (isNone(value)) {
      return "None";
    }
    if (value.isString()) {
      return value.stringValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? "True" : "False";
    }
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue().toString();
    }
    if (value.isNumber()) {
      double d = value.doubleValue();
      // Python's repr for the floats a call carries in practice; exponent forms differ from Java's
      return d == Math.rint(d) && Math.abs(d) < 1e16 ? (long) d + ".0" : Double.toString(d);
    }
    return Json.write(value);
  }

  /** {@code int(value)}: a decimal text, a number (truncated) or a bool; else ValueError or TypeError. */
  static long toInt(JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue() ? 1 : 0;
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    if (value.isNumber() && Double.isFinite(value.doubleValue()) && Math.abs(value.doubleValue()) < 9e18) {
      return (long) value.doubleValue();
    }
    if (value.isString()) {
      String text = value.stringValue().strip();
      if (text.matches("[+-]?[0-9]+(_[0-9]+)*") && text.replace("_", "").length() < 19) {
        return Long.parseLong(text.replace("_", ""));
      }
      throw new Error("invalid literal for int() with base 10: '" + value.stringValue() + "'");
    }
    throw new Error("int() argument must be a string, a bytes-like object or a real number, not '"
        + typeName(value) + "'");
  }

  /** An int argument used in arithmetic (page numbers); anything else fails as Python's comparison would. */
  static long integer(JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue() ? 1 : 0;
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.longValue();
    }
    throw new Error("'<' not supported between instances of '" + typeName(value) + "' and 'int'");
  }

  /** Python's floor division. */
  static long floorDiv(long a, long b) {
    if (b == 0) {
      throw new Error("integer division or modulo by zero");
    }
    return Math.floorDiv(a, b);
  }

  /** {@code seq[start:end]} with Python's clamping of negative and out-of-range bounds. */
  static <T> List<T> slice(List<T> seq, long start, long end) {
    int n = seq.size();
    int from = (int) Math.max(0, Math.min(n, start < 0 ? start + n : start));
    int to = (int) Math.max(0, Math.min(n, end < 0 ? end + n : end));
    return from < to ? seq.subList(from, to) : List.of();
  }

  /** A dict as the tools build them, keys in order. */
  static ObjectNode dict(Object... keysAndValues) {
    ObjectNode node = Json.object();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      Object value = keysAndValues[i + 1];
      node.set((String) keysAndValues[i], value instanceof JsonNode json ? json : Json.toTree(value));
    }
    return node;
  }
}
