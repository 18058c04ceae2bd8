package dev.gym4j.json;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.text.PythonFormat;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * Python's {@code str()}, {@code repr()} and {@code json.dumps} of a value {@code json.loads} returned, which
 * NeMo Gym's verifiers compare, measure or show: one implementation for every environment. Recursion follows
 * the value's depth, which the JSON parser already bounds.
 */
public final class PythonValues {
  private PythonValues() {}

  /** Python's truth value: None, False, 0, 0.0, "", [] and {} are false, anything else true. */
  public static boolean truthy(JsonNode value) {
    if (value == null || value.isNull()) {
      return false;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isNumber()) {
      return value.doubleValue() != 0;
    }
    if (value.isString()) {
      return !value.stringValue().isEmpty();
    }
    return !value.isEmpty();
  }

  /** {@code type(value).__name__}: NoneType, bool, int, float, str, list or dict. */
  public static String typeName(JsonNode value) {
    if (value == null || value.isNull()) {
      return "NoneType";
    }
    if (value.isBoolean()) {
      return "bool";
    }
    if (value.isIntegralNumber()) {
      return "int";
    }
    if (value.isNumber()) {
      return "float";
    }
    if (value.isString()) {
      return "str";
    }
    return value.isArray() ? "list" : "dict";
  }

  /** {@code str(value)}: a string as it is, anything else as its repr. */
  public static String str(JsonNode value) {
    return value.isString() ? value.stringValue() : repr(value);
  }

  /** {@code repr(value)}: {@code None}, {@code True}, quoted strings, {@code [a, b]}, {@code {'k': v}}. */
  public static String repr(JsonNode value) {
    if (value.isString()) {
      return PythonFormat.reprString(value.stringValue());
    }
    if (value.isNull()) {
      return "None";
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? "True" : "False";
    }
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue().toString();
    }
    if (value.isNumber()) {
      return PythonText.floatRepr(value.doubleValue());
    }
    List<String> items = new ArrayList<>();
    if (value.isArray()) {
      value.forEach(item -> items.add(repr(item)));
      return "[" + String.join(", ", items) + "]";
    }
    value.properties().forEach(entry -> items.add(PythonFormat.reprString(entry.getKey()) + ": " + repr(entry.getValue())));
    return "{" + String.join(", ", items) + "}";
  }

  /** {@code json.dumps(value)} with its defaults: ASCII only, ", " and ": ", keys in their order. */
  public static String dumps(JsonNode value) {
    return dumps(value, Dumps.DEFAULT);
  }

  /** {@code json.dumps} with the given options. */
  public static String dumps(JsonNode value, Dumps options) {
    StringBuilder out = new StringBuilder();
    options.write(value, out);
    return out.toString();
  }

  /**
   * The options of {@code json.dumps} NeMo Gym's verifiers use: {@code ensure_ascii}, {@code sort_keys} and
   * {@code separators}. Floats are written as their repr, NaN and infinities as {@code NaN}/{@code Infinity}.
   */
  public record Dumps(boolean ensureAscii, boolean sortKeys, String itemSeparator, String keySeparator) {
    public static final Dumps DEFAULT = new Dumps(true, false, ", ", ": ");

    public Dumps withEnsureAscii(boolean ascii) {
      return new Dumps(ascii, sortKeys, itemSeparator, keySeparator);
    }

    public Dumps withSortKeys(boolean sort) {
      return new Dumps(ensureAscii, sort, itemSeparator, keySeparator);
    }

    public Dumps withSeparators(String item, String key) {
      return new Dumps(ensureAscii, sortKeys, item, key);
    }

    private void write(JsonNode value, StringBuilder out) {
      if (value.isString()) {
        string(value.stringValue(), out);
      } else if (value.isNull()) {
        out.append("null");
      } else if (value.isBoolean()) {
        out.append(value.booleanValue());
      } else if (value.isIntegralNumber()) {
        out.append(value.bigIntegerValue());
      } else if (value.isNumber()) {
        double d = value.doubleValue();
        out.append(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity")
            : PythonText.floatRepr(d));
      } else if (value.isArray()) {
        out.append('[');
        for (int i = 0; i < value.size(); i++) {
          out.append(i == 0 ? "" : itemSeparator);
          write(value.get(i), out);
        }
        out.append(']');
      } else {
        List<String> keys = new ArrayList<>(value.propertyNames());
        if (sortKeys) {
          keys.sort(PythonText::compareCodePoints);
        }
        out.append('{');
        for (int i = 0; i < keys.size(); i++) {
          out.append(i == 0 ? "" : itemSeparator);
          string(keys.get(i), out);
          out.append(keySeparator);
          write(value.get(keys.get(i)), out);
        }
        out.append('}');
      }
    }

    /** A JSON string as Python writes it: ensure_ascii escapes everything outside space..~ as UTF-16 units. */
    private void string(String text, StringBuilder out) {
      out.append('"');
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case '\b' -> out.append("\\b");
          case '\f' -> out.append("\\f");
          default -> out.append(c < 0x20 || ensureAscii && c > 0x7e ? String.format("\\u%04x", (int) c)
              : String.valueOf(c));
        }
      }
      out.append('"');
    }
  }
}
