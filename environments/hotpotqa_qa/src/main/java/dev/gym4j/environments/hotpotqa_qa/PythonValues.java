package dev.gym4j.environments.hotpotqa_qa;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/** Python's {@code str()} and {@code repr()} of a value {@code json.loads} returned. */
final class PythonValues {
  private PythonValues() {}

  static String str(JsonNode value) {
    return value.isString() ? value.stringValue() : repr(value);
  }

  static String repr(JsonNode value) {
    if (value.isString()) {
      return quote(value.stringValue());
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
      return floatRepr(value.doubleValue());
    }
    List<String> items = new ArrayList<>();
    if (value.isArray()) {
      value.forEach(item -> items.add(repr(item)));
      return "[" + String.join(", ", items) + "]";
    }
    value.properties().forEach(entry -> items.add(quote(entry.getKey()) + ": " + repr(entry.getValue())));
    return "{" + String.join(", ", items) + "}";
  }

  /** repr of a str: single quotes unless the text has a single quote and no double one. */
  private static String quote(String text) {
    char quote = text.indexOf('\'') >= 0 && text.indexOf('"') < 0 ? '"' : '\'';
    StringBuilder out = new StringBuilder().append(quote);
    text.codePoints().forEach(c -> {
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c == quote) {
            out.append('\\').append(quote);
          } else if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", c));
          } else {
            out.appendCodePoint(c);
          }
        }
      }
    });
    return out.append(quote).toString();
  }

  /** repr of a float: the shortest digits, in scientific form below 1e-4 and from 1e16, as Python writes it. */
  static String floatRepr(double value) {
    if (Double.isNaN(value)) {
      return "nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
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
