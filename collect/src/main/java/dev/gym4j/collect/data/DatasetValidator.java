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
 * agent (when the agents are given). Profiles the dataset as NeMo Gym does ({@link DatasetStats}) and writes the
 * profile beside it only where there is none, unless asked to replace it.
 */
public final class DatasetValidator {
  /** One bad row. */
  public record Problem(Path file, int line, String message) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + message;
    }
  }

  /** What to do with the profile file beside the dataset. */
  public enum MetricsFile {
    /** Write it when there is none; compare with the one there is, and never change it (NeMo Gym's rule). */
    WRITE_IF_ABSENT,
    /** Replace it: only when the user asked. */
    OVERWRITE,
    /** Compare with the one there is, write none. */
    CHECK_ONLY
  }

  /**
   * A file's problems and what happened to its profile.
   *
   * @param metrics the profile file beside the data
   * @param metricsStatus {@code written}, {@code up to date}, {@code differs}, {@code overwritten} or {@code none}
   * @param differences where a profile already there differs from the one computed now
   */
  public record Report(List<Problem> problems, int rows, Path metrics, String metricsStatus, List<String> differences) {}

  /** Keys of NeMo Gym's DatasetConfig at the top of a profile: they describe the entry, not the data. */
  private static final Set<String> DATASET_KEYS = Set.of("name", "type", "jsonl_fpath", "num_repeats", "source",
      "gitlab_identifier", "huggingface_identifier", "license");

  private DatasetValidator() {}

  /**
   * @param agents the agent instance names {@code agent_ref} may name; null to skip that check
   */
  public static Report validate(Path file, Set<String> agents) {
    return validate(file, agents, true, MetricsFile.WRITE_IF_ABSENT, null);
  }

  /**
   * @param agents the agent instance names {@code agent_ref} may name; null to skip that check
   * @param requireAgentRef whether a row must have an {@code agent_ref} (only checked with {@code agents})
   * @param metricsFile what to do with {@code <data>_metrics.json}
   * @param entry the config's dataset entry for this file, written at the top of a new profile as NeMo Gym
   *     does; null when unknown
   */
  public static Report validate(Path file, Set<String> agents, boolean requireAgentRef, MetricsFile metricsFile,
      JsonNode entry) {
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
      String problem = check(line, agents, requireAgentRef);
      if (problem != null) {
        problems.add(new Problem(file, number, problem));
      } else {
        stats.add(Json.parse(line));
      }
    }
    Path metrics = metricsPath(file);
    ObjectNode profile = stats.toJson();
    if (Files.exists(metrics) && metricsFile != MetricsFile.OVERWRITE) {
      List<String> differences = differences(metrics, profile);
      return new Report(problems, rows, metrics, differences.isEmpty() ? "up to date" : "differs", differences);
    }
    if (metricsFile == MetricsFile.CHECK_ONLY) {
      return new Report(problems, rows, metrics, "none", List.of());
    }
    String status = Files.exists(metrics) ? "overwritten" : "written";
    ObjectNode written = entryHeader(entry);
    written.setAll(profile);
    try {
      Files.writeString(metrics, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(written) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Report(problems, rows, metrics, status, List.of());
  }

  /**
   * How a profile already on disk differs from the one computed now, by NeMo Gym's rule: every figure in the
   * file must be there now, numbers within 0.5 % (0.05 % below 1). The dataset entry's own keys are not compared:
   * they name paths that differ between NeMo Gym's tree and ours.
   */
  static List<String> differences(Path metrics, ObjectNode now) {
    JsonNode before;
    try {
      before = Json.parse(Files.readString(metrics));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (JacksonException e) {
      return List.of(metrics + " is not JSON");
    }
    List<String> differences = new ArrayList<>();
    for (var field : before.properties()) {
      if (!DATASET_KEYS.contains(field.getKey())) {
        compare(field.getKey(), field.getValue(), now.get(field.getKey()), differences);
      }
    }
    return differences;
  }

  private static void compare(String path, JsonNode before, JsonNode now, List<String> differences) {
    if (now == null) {
      differences.add(path + ": in the file, not computed now");
    } else if (before.isObject() && now.isObject()) {
      before.properties().forEach(f -> compare(path + "." + f.getKey(), f.getValue(), now.get(f.getKey()), differences));
    } else if (before.isNumber() && now.isNumber()) {
      double a = before.asDouble();
      double b = now.asDouble();
      double tolerance = Math.max(Math.abs(a), Math.abs(b)) >= 1 ? 5e-3 : 5e-4;
      if (a != b && (!before.isFloatingPointNumber() || !now.isFloatingPointNumber() || Math.abs(a - b) > tolerance)) {
        differences.add(path + ": " + before + " in the file, " + now + " now");
      }
    } else if (!before.equals(now)) {
      differences.add(path + ": " + before + " in the file, " + now + " now");
    }
  }

  /** The dataset entry's keys NeMo Gym writes at the top of a profile (none when the entry is unknown). */
  static ObjectNode entryHeader(JsonNode entry) {
    ObjectNode header = Json.object();
    if (entry != null && entry.isObject()) {
      for (String key : List.of("name", "type", "jsonl_fpath", "num_repeats", "source", "gitlab_identifier",
          "huggingface_identifier", "license")) {
        header.set(key, entry.has(key) ? entry.get(key) : key.equals("num_repeats") ? Json.MAPPER.getNodeFactory()
            .numberNode(1) : Json.MAPPER.getNodeFactory().nullNode());
      }
    }
    return header;
  }

  static Path metricsPath(Path file) {
    String name = file.getFileName().toString();
    String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - 6) : name;
    return file.resolveSibling(stem + "_metrics.json");
  }

  /** What is wrong with a row, or null. */
  static String check(String line, Set<String> agents, boolean requireAgentRef) {
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
        return requireAgentRef ? "agent_ref: missing; rows are routed to an agent by agent_ref.name" : null;
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
