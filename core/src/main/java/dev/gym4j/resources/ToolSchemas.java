package dev.gym4j.resources;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.Json;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON schemas of tool arguments, generated from the argument records: strings, numbers, integers,
 * booleans, enums (as string enums), lists, maps and nested records; every component is required unless
 * it is an {@link Optional}; {@link Description}s become descriptions. The schemas are strict (no extra
 * properties), as OpenAI's strict function calling wants them.
 */
public final class ToolSchemas {
  private ToolSchemas() {}

  /** The Responses API function tool for a tool method: {@code {type, name, description, parameters, strict}}. */
  public static ObjectNode functionTool(ToolMethod tool) {
    ObjectNode function = Json.object();
    function.put("type", "function");
    function.put("name", tool.name());
    function.put("description", tool.description());
    function.set("parameters", schema(tool.argumentType()));
    function.put("strict", true);
    return function;
  }

  public static ObjectNode schema(Type type) {
    ObjectNode schema = Json.object();
    Class<?> raw = raw(type);
    if (raw == String.class || raw == Character.class || raw == char.class) {
      schema.put("type", "string");
    } else if (raw == int.class || raw == long.class || raw == Integer.class || raw == Long.class
        || raw == short.class || raw == Short.class || raw == java.math.BigInteger.class) {
      schema.put("type", "integer");
    } else if (raw == double.class || raw == float.class || raw == Double.class || raw == Float.class
        || raw == java.math.BigDecimal.class) {
      schema.put("type", "number");
    } else if (raw == boolean.class || raw == Boolean.class) {
      schema.put("type", "boolean");
    } else if (raw.isEnum()) {
      schema.put("type", "string");
      ArrayNode values = schema.putArray("enum");
      for (Object constant : raw.getEnumConstants()) {
        values.add(constant.toString());
      }
    } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
      schema.put("type", "array");
      schema.set("items", schema(raw.isArray() ? raw.getComponentType() : argument(type, 0)));
    } else if (Map.class.isAssignableFrom(raw)) {
      schema.put("type", "object");
      schema.set("additionalProperties", schema(argument(type, 1)));
    } else if (raw.isRecord()) {
      schema.put("type", "object");
      ObjectNode properties = schema.putObject("properties");
      ArrayNode required = schema.putArray("required");
      for (RecordComponent component : raw.getRecordComponents()) {
        String name = ToolMethod.snakeCase(component.getName());
        boolean optional = component.getType() == Optional.class;
        ObjectNode property = schema(optional ? argument(component.getGenericType(), 0) : component.getGenericType());
        Description description = component.getAnnotation(Description.class);
        if (description != null) {
          property.put("description", description.value());
        }
        properties.set(name, property);
        if (!optional) {
          required.add(name);
        }
      }
      schema.put("additionalProperties", false);
    } else {
      throw new IllegalArgumentException("no JSON schema for tool argument type " + type.getTypeName());
    }
    return schema;
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    throw new IllegalArgumentException("no JSON schema for tool argument type " + type.getTypeName());
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType p) {
      return p.getActualTypeArguments()[index];
    }
    return Object.class;
  }
}
