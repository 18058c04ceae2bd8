package dev.gym4j.json;

import java.util.Iterator;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Python's {@code ==} on JSON values, which NeMo Gym's verifiers use to compare tool arguments: numbers
 * compare by value ({@code 1 == 1.0}), booleans are the numbers 1 and 0 ({@code True == 1}), lists compare
 * element by element and objects key by key.
 */
public final class PythonEquality {
  private PythonEquality() {}

  public static boolean equal(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (numeric(a) && numeric(b)) {
      return number(a).compareTo(number(b)) == 0;
    }
    if (a.isString() && b.isString()) {
      return a.stringValue().equals(b.stringValue());
    }
    if (a.isNull() || b.isNull()) {
      return a.isNull() && b.isNull();
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!equal(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      Iterator<Map.Entry<String, JsonNode>> fields = a.properties().iterator();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        if (!b.has(field.getKey()) || !equal(field.getValue(), b.get(field.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  private static boolean numeric(JsonNode node) {
    return node.isNumber() || node.isBoolean();
  }

  private static java.math.BigDecimal number(JsonNode node) {
    if (node.isBoolean()) {
      return node.booleanValue() ? java.math.BigDecimal.ONE : java.math.BigDecimal.ZERO;
    }
    return node.decimalValue();
  }
}
