package dev.gym4j.environments.structured_outputs;

import java.util.List;
import java.util.Locale;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's schema handling: "strictify" (every object with {@code properties} requires all of them and
 * allows no others; the walk goes through object values only, not into lists, so {@code anyOf} or
 * {@code items} arrays are left as written), validation under JSON Schema 2020-12 without format
 * assertions, and the coercion of XML and CSV strings to the types the schema declares.
 */
final class Schemas {
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  private Schemas() {}

  static JsonNode strictify(JsonNode schema) {
    if (!(schema instanceof ObjectNode object)) {
      return schema;
    }
    ObjectNode copy = object.deepCopy();
    strictifyInPlace(copy);
    return copy;
  }

  private static void strictifyInPlace(ObjectNode node) {
    if (node.get("properties") instanceof ObjectNode properties) {
      ArrayNode required = Json.array();
      properties.propertyNames().forEach(required::add);
      node.set("required", required);
      node.put("additionalProperties", false);
    }
    for (var field : node.properties()) {
      if (field.getValue() instanceof ObjectNode child) {
        strictifyInPlace(child);
      }
    }
  }

  static List<String> errors(JsonNode schema, JsonNode instance) {
    Schema compiled = REGISTRY.getSchema(schema);
    return compiled.validate(instance).stream().map(Error::toString).toList();
  }

  /** XML and CSV carry only strings: turn them into the integers, numbers and booleans the schema asks for. */
  static JsonNode coerce(JsonNode value, JsonNode schema) {
    if (schema == null || !schema.isObject()) {
      return value;
    }
    String type = schema.path("type").asString("");
    if (value.isString()) {
      String text = value.stringValue().strip();
      try {
        switch (type) {
          case "integer":
            return text.isEmpty() ? Json.toTree("") : Json.toTree(Long.parseLong(text));
          case "number":
            return text.isEmpty() ? Json.toTree("") : Json.toTree(new java.math.BigDecimal(text));
          case "boolean":
            String lower = text.toLowerCase(Locale.ROOT);
            if (lower.equals("true") || lower.equals("1")) {
              return Json.toTree(true);
            }
            if (lower.equals("false") || lower.equals("0")) {
              return Json.toTree(false);
            }
            return value;
          default:
            return value;
        }
      } catch (NumberFormatException e) {
        return value;
      }
    }
    if (type.equals("array")) {
      JsonNode list = value;
      // <items><item>…</item></items> arrives as {"item": [...]}: unwrap the single-key wrapper
      if (list.isObject() && list.size() == 1) {
        list = list.properties().iterator().next().getValue();
      }
      if (!list.isArray()) {
        ArrayNode single = Json.array();
        if (!list.isNull()) {
          single.add(list);
        }
        list = single;
      }
      ArrayNode out = Json.array();
      for (JsonNode item : list) {
        out.add(coerce(item, schema.get("items")));
      }
      return out;
    }
    if (value.isObject() && schema.path("properties").isObject()) {
      ObjectNode out = ((ObjectNode) value).deepCopy();
      for (var field : schema.get("properties").properties()) {
        if (out.has(field.getKey())) {
          out.set(field.getKey(), coerce(out.get(field.getKey()), field.getValue()));
        }
      }
      return out;
    }
    if (value.isNull() && type.equals("string")) {
      return Json.toTree("");
    }
    return value;
  }
}
