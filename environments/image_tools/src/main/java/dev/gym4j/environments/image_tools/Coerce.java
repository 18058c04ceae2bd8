package dev.gym4j.environments.image_tools;

import java.math.BigDecimal;
import java.math.BigInteger;

import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * Python's {@code int(value)} and {@code float(value)} on a JSON value, as NeMo Gym's {@code _as_int} and
 * {@code _as_float} (resources_servers/image_tools/app.py) use them: null where Python raises TypeError or
 * ValueError. (Values here come from JSON without NaN or infinities, so {@code int()} of a float cannot
 * overflow.)
 */
final class Coerce {
  private Coerce() {}

  static BigInteger asInt(JsonNode value) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return null;
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? BigInteger.ONE : BigInteger.ZERO;
    }
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue();
    }
    if (value.isNumber()) {
      return value.decimalValue().toBigInteger();
    }
    if (value.isString()) {
      return parseInt(PythonText.strip(value.stringValue()));
    }
    return null;
  }

  /** {@code int(text)} in base 10: a sign, then digits with single underscores between them. */
  private static BigInteger parseInt(String text) {
    int i = text.startsWith("+") || text.startsWith("-") ? 1 : 0;
    StringBuilder digits = new StringBuilder(text.substring(0, i).replace("+", ""));
    boolean lastDigit = false;
    for (; i < text.length(); i++) {
      char c = text.charAt(i);
      int d = Character.digit(c, 10);
      if (d >= 0) {
        digits.append((char) ('0' + d));
        lastDigit = true;
      } else if (c == '_' && lastDigit && i + 1 < text.length()) {
        lastDigit = false;
      } else {
        return null;
      }
    }
    return lastDigit ? new BigInteger(digits.toString()) : null;
  }

  static Double asFloat(JsonNode value) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return null;
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? 1.0 : 0.0;
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isString()) {
      return PythonText.parseFloat(value.stringValue()).orElse(null);
    }
    return null;
  }
}
