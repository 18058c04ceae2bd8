package dev.gym4j.config;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Dotted key paths ({@code a.b.c}) into a config tree. */
final class ConfigPath {
  private ConfigPath() {}

  static List<String> split(String dotted) {
    List<String> parts = new ArrayList<>(List.of(dotted.split("\\.", -1)));
    for (String part : parts) {
      if (part.isEmpty()) {
        throw new ConfigException("bad key '" + dotted + "': empty part in a dotted path");
      }
    }
    return parts;
  }

  static String join(String parent, String key) {
    return parent.isEmpty() ? key : parent + "." + key;
  }

  /** The node at a dotted path, or null. List elements are addressed by index. */
  static JsonNode get(JsonNode root, String dotted) {
    JsonNode node = root;
    for (String part : split(dotted)) {
      if (node == null) {
        return null;
      }
      if (node.isObject()) {
        node = node.get(part);
      } else if (node.isArray() && part.chars().allMatch(Character::isDigit)) {
        node = node.get(Integer.parseInt(part));
      } else {
        return null;
      }
    }
    return node;
  }

  /**
   * Sets a value, creating the objects along the way (a scalar in the way is replaced). A number addresses
   * an element of an existing list, as in {@code datasets.0.num_repeats}.
   */
  static void set(ObjectNode root, String dotted, JsonNode value) {
    List<String> parts = split(dotted);
    JsonNode node = root;
    for (int i = 0; i < parts.size(); i++) {
      String part = parts.get(i);
      boolean last = i == parts.size() - 1;
      if (node instanceof tools.jackson.databind.node.ArrayNode array && part.chars().allMatch(Character::isDigit)
          && Integer.parseInt(part) < array.size()) {
        int index = Integer.parseInt(part);
        if (last) {
          array.set(index, value);
          return;
        }
        if (!array.get(index).isContainer()) {
          array.set(index, Json.object());
        }
        node = array.get(index);
        continue;
      }
      if (!(node instanceof ObjectNode object)) {
        throw new ConfigException("cannot set " + dotted + ": " + String.join(".", parts.subList(0, i))
            + " is a list without an element " + part);
      }
      if (last) {
        object.set(part, value);
        return;
      }
      JsonNode child = object.get(part);
      if (child == null || !child.isContainer()) {
        child = Json.object();
        object.set(part, child);
      }
      node = child;
    }
  }

  /** Removes a key; returns false when it was not there. */
  static boolean remove(ObjectNode root, String dotted) {
    List<String> parts = split(dotted);
    JsonNode parent = parts.size() == 1 ? root : get(root, String.join(".", parts.subList(0, parts.size() - 1)));
    if (parent instanceof ObjectNode object && object.has(parts.getLast())) {
      object.remove(parts.getLast());
      return true;
    }
    return false;
  }
}
