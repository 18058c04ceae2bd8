package dev.gym4j.collect;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.Yaml;
import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's {@code prompt_config} ({@code nemo_gym/prompt.py}): a YAML file with a {@code user} template and an
 * optional {@code system} one, filled from each row's top-level fields ({@code {field}}; {@code {{} and
 * {@code }}} for literal braces), which becomes the row's {@code responses_create_params.input}. A row that
 * already has an input is an error, as in NeMo Gym: the two are mutually exclusive.
 */
record PromptTemplate(String system, String user) {

  static PromptTemplate load(Path file) {
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

  /** The row with its input built from the templates. */
  void apply(ObjectNode row, String where) {
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

  /** Python's {@code str.format_map(row)} for plain field names. */
  static String fill(String template, ObjectNode row, String where) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if ((c == '{' || c == '}') && i + 1 < template.length() && template.charAt(i + 1) == c) {
        out.append(c);
        i += 2;
      } else if (c == '{') {
        int end = template.indexOf('}', i);
        if (end < 0) {
          throw new ConfigException("prompt_config: unmatched '{' in the template");
        }
        String field = template.substring(i + 1, end);
        JsonNode value = row.get(field);
        if (value == null) {
          throw new ConfigException("prompt_config refers to {" + field + "}, which " + where + " does not have "
              + "(its fields: " + fields(row) + ")");
        }
        out.append(value.isString() ? value.asString() : Json.write(value));
        i = end + 1;
      } else if (c == '}') {
        throw new ConfigException("prompt_config: single '}' in the template (write }} for a literal brace)");
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static List<String> fields(ObjectNode row) {
    List<String> names = new ArrayList<>();
    row.properties().forEach(field -> names.add(field.getKey()));
    return names;
  }
}
