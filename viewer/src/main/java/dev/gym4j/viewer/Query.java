package dev.gym4j.viewer;

import java.util.Map;

/** The query parameters of one API request, read with checks: a bad value is a {@link BadParameter}. */
record Query(Map<String, String> values) {
  String text(String name) {
    String value = values.get(name);
    return value == null || value.isBlank() ? null : value;
  }

  int integer(String name, int fallback, int min, int max) {
    String value = text(name);
    if (value == null) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.strip());
      if (parsed < min || parsed > max) {
        throw new BadParameter(name, "must be between " + min + " and " + max);
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new BadParameter(name, "must be a whole number");
    }
  }

  double number(String name, double fallback) {
    String value = text(name);
    if (value == null) {
      return fallback;
    }
    try {
      double parsed = Double.parseDouble(value.strip());
      if (!Double.isFinite(parsed)) {
        throw new BadParameter(name, "must be a finite number");
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new BadParameter(name, "must be a number");
    }
  }

  String choice(String name, String fallback, java.util.Set<String> allowed) {
    String value = text(name);
    if (value == null) {
      return fallback;
    }
    if (!allowed.contains(value)) {
      throw new BadParameter(name, "must be one of " + String.join(", ", new java.util.TreeSet<>(allowed)));
    }
    return value;
  }
}
