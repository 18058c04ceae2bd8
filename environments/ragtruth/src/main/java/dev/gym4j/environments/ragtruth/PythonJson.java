package dev.gym4j.environments.ragtruth;

import java.math.BigDecimal;

import tools.jackson.databind.JsonNode;

/**
 * Python's {@code json.dumps(value, ensure_ascii=False)} of what {@code json.loads} returned: ", " and ": "
 * between items, floats as Python's repr, non-ASCII text kept, control characters escaped.
 */
final class PythonJson {
  private PythonJson() {}

  static String dumps(JsonNode value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(JsonNode value, StringBuilder out) {
    if (value.isString()) {
      string(value.stringValue(), out);
    } else if (value.isNull()) {
      out.append("null");
    } else if (value.isBoolean()) {
      out.append(value.booleanValue());
    } else if (value.isIntegralNumber()) {
      out.append(value.bigIntegerValue());
    } else if (value.isNumber()) {
      out.append(floatRepr(value.doubleValue()));
    } else if (value.isArray()) {
      out.append('[');
      for (int i = 0; i < value.size(); i++) {
        out.append(i == 0 ? "" : ", ");
        write(value.get(i), out);
      }
      out.append(']');
    } else {
      out.append('{');
      boolean first = true;
      for (var entry : value.properties()) {
        out.append(first ? "" : ", ");
        first = false;
        string(entry.getKey(), out);
        out.append(": ");
        write(entry.getValue(), out);
      }
      out.append('}');
    }
  }

  private static void string(String text, StringBuilder out) {
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
        default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    out.append('"');
  }

  /** Python's float repr: shortest digits, scientific below 1e-4 and from 1e16; json.dumps spells the rest. */
  static String floatRepr(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0) {
      return 1 / value < 0 ? "-0.0" : "0.0";
    }
    BigDecimal shortest = new BigDecimal(Double.toString(value)).stripTrailingZeros();
    String digits = shortest.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - shortest.scale();
    String sign = value < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }
    String plain = shortest.abs().toPlainString();
    return sign + (plain.contains(".") ? plain : plain + ".0");
  }
}
