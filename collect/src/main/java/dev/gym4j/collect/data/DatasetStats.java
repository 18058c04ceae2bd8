package dev.gym4j.collect.data;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The profile NeMo Gym writes beside a dataset ({@code <data>_metrics.json}), computed as its
 * {@code nemo_gym/train_data_utils.py} does: the number of examples; the number of tools (rows that have
 * {@code tools}), the word count of the request as Python's {@code json.dumps} writes it (a proxy for its
 * tokens), the number of user turns (rows with at least one) and the temperature (rows that set it): count,
 * average, min, max and sample standard deviation, rounded to 2 decimals (3 between −1 and 1); then every other
 * top-level field, list items counted one by one: numbers and booleans the same way, strings as unique and total
 * counts. Dicts and nulls are not profiled.
 */
final class DatasetStats {
  private static final String[] FIXED = {"Number of tools", "Json-dumped number of words (proxy for token count)",
      "Number of turns", "Temperature"};

  private final Map<String, Numbers> numbers = new LinkedHashMap<>();
  private final Map<String, Strings> strings = new LinkedHashMap<>();
  private final Set<String> order = new LinkedHashSet<>();
  private int examples;

  DatasetStats() {
    for (String name : FIXED) {
      numbers.put(name, new Numbers());
    }
  }

  void add(JsonNode row) {
    examples++;
    JsonNode params = row.path("responses_create_params");
    if (params.has("tools") && !params.get("tools").isNull()) {
      numbers.get(FIXED[0]).observe(params.get("tools").size());
    }
    numbers.get(FIXED[1]).observe(pythonWords(params));
    int turns = 0;
    JsonNode input = params.path("input");
    if (input.isString()) {
      turns = 1;
    } else {
      for (JsonNode item : input) {
        turns += "user".equals(item.path("role").asString("")) ? 1 : 0;
      }
    }
    if (turns > 0) {
      numbers.get(FIXED[2]).observe(turns);
    }
    if (params.path("temperature").isNumber()) {
      numbers.get(FIXED[3]).observe(params.get("temperature").asDouble());
    }
    for (var field : row.properties()) {
      String name = field.getKey();
      if (name.equals("responses_create_params") || name.equals("response")) {
        continue;
      }
      JsonNode value = field.getValue();
      for (JsonNode item : value.isArray() ? value : java.util.List.of(value)) {
        other(name, item);
      }
    }
  }

  private void other(String name, JsonNode item) {
    if (item.isNumber() || item.isBoolean()) {
      if (!strings.containsKey(name)) {
        order.add(name);
        numbers.computeIfAbsent(name, k -> new Numbers()).observe(item.isBoolean() ? (item.asBoolean() ? 1 : 0)
            : item.asDouble());
      }
    } else if (item.isString() && !numbers.containsKey(name)) {
      order.add(name);
      strings.computeIfAbsent(name, k -> new Strings()).add(item.asString());
    }
  }

  ObjectNode toJson() {
    ObjectNode out = Json.object();
    out.put("Number of examples", examples);
    for (String name : FIXED) {
      out.set(name, numbers.get(name).toJson());
    }
    for (String name : order) {
      out.set(name, strings.containsKey(name) ? strings.get(name).toJson() : numbers.get(name).toJson());
    }
    return out;
  }

  /**
   * Words of Python's {@code json.dumps(value)}: it separates items with {@code ", "} and keys with {@code ": "}
   * and escapes every other whitespace character, so the words are the runs between spaces.
   */
  static int pythonWords(JsonNode value) {
    int[] count = {0};
    boolean[] inWord = {false};
    pythonDump(value, c -> {
      if (c == ' ') {
        inWord[0] = false;
      } else if (!inWord[0]) {
        inWord[0] = true;
        count[0]++;
      }
    });
    return count[0];
  }

  private static void pythonDump(JsonNode value, java.util.function.IntConsumer out) {
    if (value.isObject()) {
      out.accept('{');
      boolean first = true;
      for (var field : value.properties()) {
        if (!first) {
          out.accept(',');
          out.accept(' ');
        }
        first = false;
        string(field.getKey(), out);
        out.accept(':');
        out.accept(' ');
        pythonDump(field.getValue(), out);
      }
      out.accept('}');
    } else if (value.isArray()) {
      out.accept('[');
      for (int i = 0; i < value.size(); i++) {
        if (i > 0) {
          out.accept(',');
          out.accept(' ');
        }
        pythonDump(value.get(i), out);
      }
      out.accept(']');
    } else if (value.isString()) {
      string(value.asString(), out);
    } else {
      Json.write(value).chars().forEach(out);
    }
  }

  /** A string as json.dumps writes it: escapes hold no space except a literal space itself. */
  private static void string(String text, java.util.function.IntConsumer out) {
    out.accept('"');
    text.chars().forEach(c -> out.accept(c == ' ' ? ' ' : c < 0x20 || c > 0x7e ? 'x' : c));
    out.accept('"');
  }

  /** NeMo Gym's AvgMinMax: Welford's running mean and variance. */
  private static final class Numbers {
    private int total;
    private double mean;
    private double m2;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    void observe(double x) {
      min = Math.min(min, x);
      max = Math.max(max, x);
      total++;
      double delta = x - mean;
      mean += delta / total;
      m2 += delta * (x - mean);
    }

    ObjectNode toJson() {
      ObjectNode stats = Json.object();
      stats.put("Total # non-null values", total);
      stats.put("Average", round(total > 0 ? mean : 0));
      stats.put("Min", round(total > 0 ? min : 0));
      stats.put("Max", round(total > 0 ? max : 0));
      stats.put("Standard deviation", round(total > 1 ? Math.sqrt(m2 / (total - 1)) : 0));
      return stats;
    }
  }

  private static final class Strings {
    private final Set<String> unique = new java.util.HashSet<>();
    private int total;

    void add(String value) {
      unique.add(value);
      total++;
    }

    ObjectNode toJson() {
      ObjectNode stats = Json.object();
      stats.put("unique_count", unique.size());
      stats.put("total_count", total);
      return stats;
    }
  }

  /** Python's {@code round(x, 2)} for |x| ≥ 1, {@code round(x, 3)} below: half-even on the exact binary value. */
  static double round(double value) {
    int digits = value >= 1 || value <= -1 ? 2 : 3;
    return new BigDecimal(value).setScale(digits, RoundingMode.HALF_EVEN).doubleValue();
  }
}
