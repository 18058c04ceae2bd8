package dev.gym4j.collect;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.Yaml;
import dev.gym4j.json.Json;
import dev.gym4j.text.PythonFormat;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's {@code prompt_config} ({@code nemo_gym/prompt.py}): a YAML file with a {@code user} template and an
 * optional {@code system} one, filled from each row's top-level fields ({@code {field}}; {@code {{} and
 * {@code }}} for literal braces), which becomes the row's {@code responses_create_params.input}. A row that
 * already has an input is an error, as in NeMo Gym: the two are mutually exclusive.
 */
public record PromptTemplate(String system, String user) {
  private static final TypeReference<java.util.Map<String, Object>> ROW = new TypeReference<>() {};

  public static PromptTemplate load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new ConfigException("prompt_config: file not found: " + file);
    }
    JsonNode tree = Yaml.read(file);
    if (!tree.path("user").isString()) {
      throw new ConfigException("prompt_config " + file + ": 'user' must be a template string");
    }
    JsonNode system = tree.get("system");
    if (system != null && !system.isNull() && !system.isString()) {
      throw new ConfigException("prompt_config " + file + ": 'system' must be a template string");
    }
    return new PromptTemplate(system == null || system.isNull() ? null : system.asString(), tree.get("user").asString());
  }

  /**
   * NeMo Gym's {@code gym dataset render} ({@code materialize_prompts}): every row of {@code input} with its input
   * built from this template and {@code prompt_config_used} set to {@code promptUsed}. Rows that already have an
   * input are all named in one error, and nothing is written then.
   */
  public List<ObjectNode> render(Path input, String promptUsed) {
    List<JsonNode> rows = Json.readLines(input);
    List<Integer> conflicting = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      JsonNode given = rows.get(i).path("responses_create_params").path("input");
      if (!given.isMissingNode() && !given.isNull() && !(given.isString() && given.asString().isEmpty())
          && !(given.isArray() && given.isEmpty())) {
        conflicting.add(i);
      }
    }
    if (!conflicting.isEmpty()) {
      throw new ConfigException(input + ": rows " + conflicting + " (counting from 0) have responses_create_params"
          + ".input, and prompt_config builds it: use one or the other");
    }
    List<ObjectNode> rendered = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (!(rows.get(i) instanceof ObjectNode row)) {
        throw new ConfigException(input + " line " + (i + 1) + " is not a JSON object");
      }
      apply(row, input + " line " + (i + 1));
      row.put("prompt_config_used", promptUsed);
      rendered.add(row);
    }
    return rendered;
  }

  /** The row with its input built from the templates. */
  public void apply(ObjectNode row, String where) {
    JsonNode params = row.get("responses_create_params");
    ObjectNode target = params instanceof ObjectNode object ? object : row.putObject("responses_create_params");
    JsonNode input = target.get("input");
    if (input != null && !input.isNull() && !(input.isString() && input.asString().isEmpty())
        && !(input.isArray() && input.isEmpty())) {
      throw new ConfigException(where + " has responses_create_params.input, and prompt_config builds it: use one "
          + "or the other");
    }
    ArrayNode messages = Json.array();
    if (system != null) {
      messages.addObject().put("role", "system").put("content", fill(system, row, where));
    }
    messages.addObject().put("role", "user").put("content", fill(user, row, where));
    target.set("input", messages);
  }

  /** Python's {@code str.format_map(row)}: non-string fields as Python's {@code str()} writes them. */
  static String fill(String template, ObjectNode row, String where) {
    try {
      return PythonFormat.formatMap(template, Json.MAPPER.convertValue(row, ROW));
    } catch (PythonFormat.MissingField e) {
      throw new ConfigException("prompt_config refers to {" + e.field() + "}, which " + where + " does not have "
          + "(its fields: " + fields(row) + ")");
    } catch (IllegalArgumentException e) {
      throw new ConfigException("prompt_config: " + e.getMessage());
    }
  }

  private static List<String> fields(ObjectNode row) {
    List<String> names = new ArrayList<>();
    row.properties().forEach(field -> names.add(field.getKey()));
    return names;
  }
}
