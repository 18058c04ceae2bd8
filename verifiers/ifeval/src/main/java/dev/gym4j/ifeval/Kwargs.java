package dev.gym4j.ifeval;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An instruction's kwargs (nulls already dropped, as NeMo Gym drops them). Python's checkers draw a random
 * value for a missing kwarg; ours refuse it, since a random verdict is no verdict. A kwarg the checker does
 * not take fails as Python's {@code build_description} does.
 */
final class Kwargs {
  private final String id;
  private final Map<String, Object> values;

  Kwargs(String id, Map<String, Object> values, Set<String> accepted) {
    this.id = id;
    this.values = values;
    for (String key : values.keySet()) {
      if (!accepted.contains(key)) {
        throw new InvalidInstruction(key, id + " takes no kwarg '" + key + "' (it takes " + accepted + ")");
      }
    }
  }

  private Object required(String name) {
    Object value = values.get(name);
    if (value == null) {
      throw new InvalidInstruction(name, id + " needs the kwarg '" + name + "'");
    }
    return value;
  }

  int integer(String name) {
    Object value = required(name);
    if (value instanceof Number number && number.doubleValue() == Math.rint(number.doubleValue())) {
      return number.intValue();
    }
    throw new InvalidInstruction(name, id + ": '" + name + "' must be an integer, not " + value);
  }

  /** A non-empty string; a list is read as its first element, as some checkers do. */
  String string(String name) {
    Object value = required(name);
    if (value instanceof List<?> list && !list.isEmpty()) {
      value = list.getFirst();
    }
    if (value instanceof String text && !text.isEmpty()) {
      return text;
    }
    throw new InvalidInstruction(name, id + ": '" + name + "' must be a non-empty string, not " + value);
  }

  List<String> strings(String name) {
    Object value = required(name);
    if (value instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(String.class::isInstance)) {
      return list.stream().map(String.class::cast).toList();
    }
    throw new InvalidInstruction(name, id + ": '" + name + "' must be a non-empty list of strings, not " + value);
  }

  /** {@code less than} or {@code at least}. */
  Relation relation(String name) {
    String value = string(name);
    return switch (value) {
      case "less than" -> Relation.LESS_THAN;
      case "at least" -> Relation.AT_LEAST;
      default -> throw new InvalidInstruction(name, id + ": '" + name + "' must be 'less than' or 'at least', not '"
          + value + "'");
    };
  }

  /** The comparison most counting instructions make. */
  enum Relation {
    LESS_THAN, AT_LEAST;

    boolean holds(long actual, long threshold) {
      return this == LESS_THAN ? actual < threshold : actual >= threshold;
    }
  }
}
