package dev.gym4j.resources;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.FieldError;
import tools.jackson.databind.JsonNode;

/**
 * Checks a tool call's arguments against the argument record the way strict JSON Schema checks them against
 * the schema {@link ToolSchemas} publishes, before anything is bound: nothing is coerced. An integer is a
 * JSON number without a fractional part ({@code 5} and {@code 5.0}, never {@code 5.5} or {@code "5"}) within
 * the range of its Java type; a number is a finite JSON number; a string, a boolean, an array and an object
 * are just that. The first mismatch fails with a {@link FieldError} naming its location, in pydantic's error
 * types. Fields the record does not name are ignored, as NeMo Gym's argument models ignore them.
 */
final class ToolArguments {
  /** Digits an unbounded integer may have: enough for any real argument, too few to cost real work. */
  private static final int MAX_BIG_INTEGER_DIGITS = 4300;

  private ToolArguments() {}

  static void check(JsonNode value, Type type, List<Object> location) {
    Class<?> raw = raw(type);
    if (raw == Optional.class) {
      check(value, argument(type, 0), location);
    } else if (raw == String.class) {
      require(value.isString(), location, "Input should be a valid string", "string_type");
    } else if (raw == char.class || raw == Character.class) {
      require(value.isString() && value.stringValue().length() == 1, location,
          "Input should be a string of exactly one character", "string_type");
    } else if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class
        || raw == short.class || raw == Short.class || raw == byte.class || raw == Byte.class
        || raw == BigInteger.class) {
      integer(value, raw, location);
    } else if (raw == double.class || raw == Double.class || raw == float.class || raw == Float.class
        || raw == BigDecimal.class) {
      require(value.isNumber(), location, "Input should be a valid number", "float_type");
      boolean finite = raw == BigDecimal.class || Double.isFinite(value.decimalValue().doubleValue());
      require(finite, location, "Input should be a finite number", "finite_number");
    } else if (raw == boolean.class || raw == Boolean.class) {
      require(value.isBoolean(), location, "Input should be a valid boolean", "bool_type");
    } else if (raw.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object constant : raw.getEnumConstants()) {
        names.add(constant.toString());
      }
      require(value.isString() && names.contains(value.stringValue()), location,
          "Input should be one of " + names, "enum");
    } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
      require(value.isArray(), location, "Input should be a valid list", "list_type");
      Type item = raw.isArray() ? raw.getComponentType() : argument(type, 0);
      for (int i = 0; i < value.size(); i++) {
        check(value.get(i), item, at(location, i));
      }
    } else if (Map.class.isAssignableFrom(raw)) {
      require(value.isObject(), location, "Input should be a valid dictionary", "dict_type");
      for (Map.Entry<String, JsonNode> entry : value.properties()) {
        check(entry.getValue(), argument(type, 1), at(location, entry.getKey()));
      }
    } else if (raw.isRecord()) {
      require(value.isObject(), location, "Input should be a valid dictionary or object", "model_type");
      for (RecordComponent component : raw.getRecordComponents()) {
        String field = ToolMethod.snakeCase(component.getName());
        JsonNode given = value.get(field);
        boolean optional = component.getType() == Optional.class;
        if (given == null || given.isNull()) {
          require(optional, at(location, field), "Field required", "missing");
        } else {
          check(given, component.getGenericType(), at(location, field));
        }
      }
    }
    // Object, JsonNode and other open types take any value
  }

  private static void integer(JsonNode value, Class<?> raw, List<Object> location) {
    require(value.isNumber(), location, "Input should be a valid integer", "int_type");
    BigDecimal number = value.decimalValue();
    // precision and scale are read, never the digits expanded: 1e999999999 costs nothing
    require(number.signum() == 0 || number.scale() <= 0 || number.stripTrailingZeros().scale() <= 0, location,
        "Input should be a valid integer, got a number with a fractional part", "int_from_float");
    BigInteger[] range = switch (raw.getSimpleName()) {
      case "byte", "Byte" -> range(Byte.MIN_VALUE, Byte.MAX_VALUE);
      case "short", "Short" -> range(Short.MIN_VALUE, Short.MAX_VALUE);
      case "int", "Integer" -> range(Integer.MIN_VALUE, Integer.MAX_VALUE);
      case "long", "Long" -> range(Long.MIN_VALUE, Long.MAX_VALUE);
      default -> null;
    };
    if (range == null) {
      require(number.precision() - number.scale() <= MAX_BIG_INTEGER_DIGITS, location,
          "Input should have at most " + MAX_BIG_INTEGER_DIGITS + " digits", "int_overflow");
      return;
    }
    require(number.compareTo(new BigDecimal(range[0])) >= 0 && number.compareTo(new BigDecimal(range[1])) <= 0,
        location, "Input should be between " + range[0] + " and " + range[1], "int_overflow");
  }

  private static BigInteger[] range(long min, long max) {
    return new BigInteger[] {BigInteger.valueOf(min), BigInteger.valueOf(max)};
  }

  private static void require(boolean holds, List<Object> location, String message, String type) {
    if (!holds) {
      throw new FieldError(location, message, type);
    }
  }

  private static List<Object> at(List<Object> location, Object step) {
    List<Object> next = new ArrayList<>(location);
    next.add(step);
    return next;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    return Object.class;
  }

  private static Type argument(Type type, int index) {
    return type instanceof ParameterizedType p ? p.getActualTypeArguments()[index] : Object.class;
  }
}
