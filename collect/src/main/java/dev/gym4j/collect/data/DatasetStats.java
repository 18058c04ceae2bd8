package dev.gym4j.collect.data;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The profile NeMo Gym writes beside a dataset ({@code <data>_metrics.json}): the number of examples, and
 * for the number of tools, the serialized request's word count (a proxy for its tokens), the number of
 * user turns, the temperature and every numeric or boolean task field: count, average, min, max and
 * standard deviation; for string task fields, unique and total counts.
 */
final class DatasetStats {
  private final Map<String, List<Double>> numbers = new LinkedHashMap<>();
  private final Map<String, Set<String>> uniqueStrings = new LinkedHashMap<>();
  private final Map<String, Integer> stringCounts = new LinkedHashMap<>();
  private int examples;

  void add(JsonNode row) {
    examples++;
    JsonNode params = row.path("responses_create_params");
    number("Number of tools", params.path("tools").size());
    number("Json-dumped number of words (proxy for token count)", Json.write(params).split("\\s+").length);
    int turns = 0;
    JsonNode input = params.path("input");
    if (input.isString()) {
      turns = 1;
    } else {
      for (JsonNode item : input) {
        if ("user".equals(item.path("role").asString(""))) {
          turns++;
        }
      }
    }
    number("Number of turns", turns);
    if (params.path("temperature").isNumber()) {
      number("Temperature", params.get("temperature").asDouble());
    }
    for (var field : row.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if (name.equals("responses_create_params") || name.startsWith("_")) {
        continue;
      }
      if (value.isNumber()) {
        number(name, value.asDouble());
      } else if (value.isBoolean()) {
        number(name, value.asBoolean() ? 1 : 0);
      } else if (value.isString()) {
        uniqueStrings.computeIfAbsent(name, k -> new HashSet<>()).add(value.stringValue());
        stringCounts.merge(name, 1, Integer::sum);
      }
    }
  }

  private void number(String name, double value) {
    numbers.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
  }

  ObjectNode toJson() {
    ObjectNode out = Json.object();
    out.put("Number of examples", examples);
    numbers.forEach((name, values) -> {
      ObjectNode stats = out.putObject(name);
      double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
      stats.put("Total # non-null values", values.size());
      stats.put("Average", round(mean));
      stats.put("Min", round(values.stream().mapToDouble(Double::doubleValue).min().orElse(0)));
      stats.put("Max", round(values.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
      stats.put("Standard deviation", round(values.size() > 1 ? Math.sqrt(squares / (values.size() - 1)) : 0));
    });
    uniqueStrings.forEach((name, unique) -> {
      ObjectNode stats = out.putObject(name);
      stats.put("unique_count", unique.size());
      stats.put("total_count", stringCounts.get(name));
    });
    return out;
  }

  /** Two decimals for values of 1 or more, three below, as NeMo Gym rounds. */
  private static double round(double value) {
    double scale = Math.abs(value) >= 1 ? 100 : 1000;
    return Math.round(value * scale) / scale;
  }
}
