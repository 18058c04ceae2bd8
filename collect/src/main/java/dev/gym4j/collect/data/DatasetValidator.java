package dev.gym4j.collect.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks every row of a NeMo Gym dataset: it parses, its {@code responses_create_params} is a valid
 * Responses request, its tools are well-formed function tools, and its {@code agent_ref} names a known
 * agent (when the agents are given). Writes the dataset's profile beside it.
 */
public final class DatasetValidator {
  /** One bad row. */
  public record Problem(Path file, int line, String message) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + message;
    }
  }

  /** A file's problems and the path of the profile written beside it. */
  public record Report(List<Problem> problems, int rows, Path metrics) {}

  private DatasetValidator() {}

  /**
   * @param agents the agent instance names {@code agent_ref} may name; null to skip that check
   */
  public static Report validate(Path file, Set<String> agents) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    List<Problem> problems = new ArrayList<>();
    DatasetStats stats = new DatasetStats();
    int rows = 0;
    for (int number = 1; number <= lines.size(); number++) {
      String line = lines.get(number - 1);
      if (line.isBlank()) {
        continue;
      }
      rows++;
      String problem = check(line, agents);
      if (problem != null) {
        problems.add(new Problem(file, number, problem));
      } else {
        stats.add(Json.parse(line));
      }
    }
    Path metrics = metricsPath(file);
    try {
      Files.writeString(metrics, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(stats.toJson()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Report(problems, rows, metrics);
  }

  static Path metricsPath(Path file) {
    String name = file.getFileName().toString();
    String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - 6) : name;
    return file.resolveSibling(stem + "_metrics.json");
  }

  /** What is wrong with a row, or null. */
  static String check(String line, Set<String> agents) {
    JsonNode row;
    try {
      row = Json.parse(line);
    } catch (JacksonException e) {
      return "not valid JSON: " + e.getOriginalMessage();
    }
    if (!(row instanceof ObjectNode object)) {
      return "not a JSON object";
    }
    try {
      JsonNode params = Shape.required(object, "responses_create_params", List.of());
      ResponseCreateParams.of(params, List.of("responses_create_params"));
      JsonNode tools = params.path("tools");
      for (int i = 0; i < tools.size(); i++) {
        checkTool(tools.get(i), List.of("responses_create_params", "tools", i));
      }
    } catch (FieldError e) {
      return e.dottedLocation() + ": " + e.getMessage();
    }
    JsonNode ref = object.get("agent_ref");
    if (agents != null) {
      String name = ref == null ? null : ref.path("name").asString(null);
      if (name == null) {
        return "agent_ref: missing; rows are routed to an agent by agent_ref.name";
      }
      if (!agents.contains(name)) {
        return "agent_ref.name: no agent named " + name + " in the config (agents: " + agents + ")";
      }
    }
    return null;
  }

  private static void checkTool(JsonNode tool, List<Object> path) {
    if (!"function".equals(Shape.text(tool, "type"))) {
      return;
    }
    String name = Shape.text(tool, "name");
    if (name == null || !name.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new FieldError(Shape.at(path, "name"), "a function tool needs a name of letters, digits, _ or - "
          + "(at most 64)", "value_error");
    }
    JsonNode parameters = tool.get("parameters");
    if (parameters != null && !parameters.isNull()) {
      if (!parameters.isObject() || !"object".equals(Shape.text(parameters, "type"))) {
        throw new FieldError(Shape.at(path, "parameters"), "must be a JSON Schema of type object", "value_error");
      }
      JsonNode required = parameters.get("required");
      JsonNode properties = parameters.path("properties");
      if (required != null) {
        for (JsonNode field : required) {
          if (!properties.has(field.asString(""))) {
            throw new FieldError(Shape.at(path, "parameters"), "requires '" + field.asString("")
                + "', which is not among its properties", "value_error");
          }
        }
      }
    }
  }
}
