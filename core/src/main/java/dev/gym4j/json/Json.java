package dev.gym4j.json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.config.ConfigException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one JSON mapper of gym4j.
 *
 * <p>Floats are read as {@link java.math.BigDecimal} with their trailing zeros kept, so a value such as
 * {@code 1.0} or a log-prob such as {@code -0.000123} is written back exactly as it was read: rollout files,
 * rewards and token log-probs pass through gym4j unchanged.
 */
public final class Json {
  public static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      // Java records in camelCase, JSON in the snake_case every OpenAI and NeMo Gym body uses
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .build();

  private Json() {}

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  public static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }

  /**
   * {@code FILE line N is not JSON (column C: what the parser expected)}: the parser's own message without its
   * source excerpt and byte offset, which name neither the file nor the line.
   */
  public static String badLine(Path file, int number, JacksonException error) {
    String reason = error.getOriginalMessage() == null ? "" : error.getOriginalMessage().lines().findFirst()
        .orElse("");
    int column = error.getLocation() == null ? -1 : error.getLocation().getColumnNr();
    return file + " line " + number + " is not JSON (" + (column > 0 ? "column " + column + ": " : "") + reason
        + "); a JSONL file holds one JSON value per line";
  }

  /** Parses JSON text; throws {@link JacksonException} on malformed input. */
  public static JsonNode parse(String text) {
    return MAPPER.readTree(text);
  }

  public static JsonNode parse(byte[] bytes) {
    return MAPPER.readTree(bytes);
  }

  public static String write(Object value) {
    return MAPPER.writeValueAsString(value);
  }

  public static byte[] writeBytes(Object value) {
    return MAPPER.writeValueAsBytes(value);
  }

  public static <T> T convert(JsonNode node, Class<T> type) {
    return MAPPER.treeToValue(node, type);
  }

  public static JsonNode toTree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * A deep copy of {@code source} whose fields named in {@code cleared} are null, in their places: their values
   * (token ids, a whole output) are not copied, for a copy that replaces or removes them.
   */
  public static ObjectNode copyClearing(ObjectNode source, java.util.Set<String> cleared) {
    ObjectNode copy = object();
    for (var field : source.properties()) {
      copy.set(field.getKey(), cleared.contains(field.getKey()) ? copy.nullNode() : field.getValue().deepCopy());
    }
    return copy;
  }

  /**
   * Reads a JSONL file: one JSON value per non-blank line. A line that is not JSON fails with a
   * {@link ConfigException} naming the file, the line and the column.
   */
  public static List<JsonNode> readLines(Path file) {
    try {
      List<JsonNode> rows = new ArrayList<>();
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).isBlank()) {
          continue;
        }
        try {
          rows.add(parse(lines.get(i)));
        } catch (JacksonException e) {
          throw new ConfigException(badLine(file, i + 1, e));
        }
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
