package dev.gym4j.environments.indirect_prompt_injection;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.json.PythonValues;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Python operations NeMo Gym's tool handlers apply to the JSON world (dicts, lists, strings, numbers), with
 * the exception Python would raise where the types do not fit: the tool then answers
 * {@code Error executing tool '<name>' (<Type>): <message>}, as NeMo Gym's route does.
 */
final class Py {
  private Py() {}

  /** A Python exception: its type name and {@code str(e)}. */
  static final class Error extends RuntimeException {
    private final String type;

    Error(String type, String message) {
      super(message, null, false, false);
      this.type = type;
    }

    String type() {
      return type;
    }
  }

  static final JsonNode NONE = Json.parse("null");

  static JsonNode dict() {
    return Json.object();
  }

  static JsonNode list() {
    return Json.array();
  }

  static String typeName(JsonNode value) {
    return PythonValues.typeName(value);
  }

  private static Error attribute(JsonNode value, String name) {
    return new Error("AttributeError", "'" + typeName(value) + "' object has no attribute '" + name + "'");
  }

  static boolean truthy(JsonNode value) {
    return PythonValues.truthy(value);
  }

  /** {@code str(value)}, as an f-string shows it. */
  static String str(JsonNode value) {
    return PythonValues.str(value);
  }

  /** {@code value.lower()}. */
  static String lower(JsonNode value) {
    if (value == null || !value.isString()) {
      throw attribute(value, "lower");
    }
    return value.stringValue().toLowerCase(Locale.ROOT);
  }

  /** {@code value.strip()}. */
  static String strip(String value) {
    return PythonText.strip(value);
  }

  /** {@code mapping.get(key, fallback)}. */
  static JsonNode get(JsonNode mapping, String key, JsonNode fallback) {
    if (!(mapping instanceof ObjectNode object)) {
      throw attribute(mapping, "get");
    }
    JsonNode value = object.get(key);
    return value == null ? fallback : value;
  }

  /** {@code mapping.get(key, "")}, the form the handlers use before {@code .lower()}. */
  static JsonNode get(JsonNode mapping, String key) {
    return get(mapping, key, Json.toTree(""));
  }

  /** {@code mapping[key]} for a key the code names. */
  static JsonNode item(JsonNode mapping, String key) {
    if (mapping instanceof ObjectNode object) {
      JsonNode value = object.get(key);
      if (value == null) {
        throw new Error("KeyError", PythonValues.repr(Json.toTree(key)));
      }
      return value;
    }
    if (mapping.isArray()) {
      throw new Error("TypeError", "list indices must be integers or slices, not str");
    }
    if (mapping.isString()) {
      throw new Error("TypeError", "string indices must be integers, not 'str'");
    }
    throw new Error("TypeError", "'" + typeName(mapping) + "' object is not subscriptable");
  }

  /** {@code mapping[key]} for a key the model gave, after an {@code in} check said it is there. */
  static JsonNode item(JsonNode mapping, JsonNode key) {
    if (mapping instanceof ObjectNode object && key.isString()) {
      return item(object, key.stringValue());
    }
    throw new Error("KeyError", PythonValues.repr(key));
  }

  /** {@code key in container}. */
  static boolean in(JsonNode key, JsonNode container) {
    if (container instanceof ObjectNode object) {
      hashable(key);
      return key.isString() && object.has(key.stringValue());
    }
    if (container instanceof ArrayNode array) {
      for (JsonNode element : array) {
        if (PythonEquality.equal(element, key)) {
          return true;
        }
      }
      return false;
    }
    if (container.isString()) {
      if (!key.isString()) {
        throw new Error("TypeError", "'in <string>' requires string as left operand, not " + typeName(key));
      }
      return container.stringValue().contains(key.stringValue());
    }
    throw new Error("TypeError", "argument of type '" + typeName(container) + "' is not iterable");
  }

  /** {@code needle in haystack} for two strings ({@code x.lower() in y.lower()}). */
  static boolean contains(String haystack, String needle) {
    return haystack.contains(needle);
  }

  private static void hashable(JsonNode key) {
    if (key.isArray() || key.isObject()) {
      throw new Error("TypeError", "unhashable type: '" + typeName(key) + "'");
    }
  }

  /** {@code mapping.values()}. */
  static List<JsonNode> values(JsonNode mapping) {
    if (!(mapping instanceof ObjectNode object)) {
      throw attribute(mapping, "values");
    }
    return new ArrayList<>(object.valueStream().toList());
  }

  /** {@code list(container)} of a dict's values or a list's items, as the message tools read either shape. */
  static List<JsonNode> valuesOrItems(JsonNode container) {
    if (container instanceof ObjectNode object) {
      return new ArrayList<>(object.valueStream().toList());
    }
    if (container instanceof ArrayNode array) {
      return new ArrayList<>(array.valueStream().toList());
    }
    if (container.isString()) {
      List<JsonNode> characters = new ArrayList<>();
      container.stringValue().codePoints().forEach(c -> characters.add(Json.toTree(Character.toString(c))));
      return characters;
    }
    throw new Error("TypeError", "'" + typeName(container) + "' object is not iterable");
  }

  /** {@code mapping[key] = value}. */
  static void set(JsonNode mapping, String key, JsonNode value) {
    if (!(mapping instanceof ObjectNode object)) {
      throw new Error("TypeError", "'" + typeName(mapping) + "' object does not support item assignment");
    }
    object.set(key, value);
  }

  /** {@code mapping[key] = value} with a key the model gave. */
  static void set(JsonNode mapping, JsonNode key, JsonNode value) {
    hashable(key);
    set(mapping, key.isString() ? key.stringValue() : str(key), value);
  }

  /** {@code mapping.setdefault(key, fallback)}. */
  static JsonNode setdefault(JsonNode mapping, String key, JsonNode fallback) {
    if (!(mapping instanceof ObjectNode object)) {
      throw attribute(mapping, "setdefault");
    }
    JsonNode value = object.get(key);
    if (value == null) {
      object.set(key, fallback);
      return fallback;
    }
    return value;
  }

  /** {@code container.append(value)}. */
  static void append(JsonNode container, JsonNode value) {
    if (!(container instanceof ArrayNode array)) {
      throw attribute(container, "append");
    }
    array.add(value);
  }

  static boolean eq(JsonNode a, JsonNode b) {
    return PythonEquality.equal(a, b);
  }

  /** {@code a < b} for numbers or strings. */
  static boolean lt(JsonNode a, JsonNode b) {
    if (isNumber(a) && isNumber(b)) {
      return a.doubleValue() < b.doubleValue();
    }
    if (a.isString() && b.isString()) {
      return PythonText.compareCodePoints(a.stringValue(), b.stringValue()) < 0;
    }
    throw new Error("TypeError", "'<' not supported between instances of '" + typeName(a) + "' and '"
        + typeName(b) + "'");
  }

  /** {@code a > b} for numbers or strings. */
  static boolean gt(JsonNode a, JsonNode b) {
    if (isNumber(a) && isNumber(b) || a.isString() && b.isString()) {
      return lt(b, a);
    }
    throw new Error("TypeError", "'>' not supported between instances of '" + typeName(a) + "' and '"
        + typeName(b) + "'");
  }

  private static boolean isNumber(JsonNode value) {
    return value.isNumber() || value.isBoolean();
  }

  private static double number(JsonNode value) {
    return value.isBoolean() ? (value.booleanValue() ? 1 : 0) : value.doubleValue();
  }

  private static boolean isInt(JsonNode value) {
    return value.isBoolean() || value.isIntegralNumber();
  }

  private static long integer(JsonNode value) {
    return value.isBoolean() ? (value.booleanValue() ? 1 : 0) : value.longValue();
  }

  /** {@code a + b} for numbers (ints stay ints). */
  static JsonNode add(JsonNode a, JsonNode b) {
    if (isNumber(a) && isNumber(b)) {
      if (isInt(a) && isInt(b)) {
        try {
          return Json.toTree(Math.addExact(integer(a), integer(b)));
        } catch (ArithmeticException e) {
          return Json.toTree(new java.math.BigInteger(a.asString()).add(new java.math.BigInteger(b.asString())));
        }
      }
      return Json.toTree(number(a) + number(b));
    }
    throw new Error("TypeError", "unsupported operand type(s) for +: '" + typeName(a) + "' and '" + typeName(b)
        + "'");
  }

  /** {@code a * b} for numbers (ints stay ints). Sequences repeated by a count are not supported. */
  static JsonNode multiply(JsonNode a, JsonNode b) {
    if (isNumber(a) && isNumber(b)) {
      if (isInt(a) && isInt(b)) {
        try {
          return Json.toTree(Math.multiplyExact(integer(a), integer(b)));
        } catch (ArithmeticException e) {
          return Json.toTree(new java.math.BigInteger(a.asString()).multiply(new java.math.BigInteger(b.asString())));
        }
      }
      return Json.toTree(number(a) * number(b));
    }
    throw new Error("TypeError", "unsupported operand type(s) for *: '" + typeName(a) + "' and '" + typeName(b)
        + "'");
  }

  /** {@code existing + "\n" + notes if existing else notes}: appended notes. */
  static JsonNode appendNotes(JsonNode existing, JsonNode notes) {
    if (!truthy(existing)) {
      return notes;
    }
    if (!existing.isString()) {
      throw new Error("TypeError", "unsupported operand type(s) for +: '" + typeName(existing) + "' and 'str'");
    }
    if (!notes.isString()) {
      throw new Error("TypeError", "can only concatenate str (not \"" + typeName(notes) + "\") to str");
    }
    return Json.toTree(existing.stringValue() + "\n" + notes.stringValue());
  }

  /** {@code f"{prefix}{uuid.uuid4().hex[:6].upper()}"}: six random hex digits. */
  static String newId(String prefix) {
    return prefix + UUID.randomUUID().toString().substring(0, 6).toUpperCase(Locale.ROOT);
  }

  /** A dict built in order from name/value pairs. */
  static ObjectNode record(Object... pairs) {
    ObjectNode object = Json.object();
    for (int i = 0; i < pairs.length; i += 2) {
      Object value = pairs[i + 1];
      object.set((String) pairs[i], value instanceof JsonNode node ? node : Json.toTree(value));
    }
    return object;
  }
}
