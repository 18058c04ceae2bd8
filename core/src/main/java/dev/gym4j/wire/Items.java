package dev.gym4j.wire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/** Reading and writing lists of {@link Item}s. */
final class Items {
  private Items() {}

  static List<Item> read(JsonNode array, List<Object> path) {
    if (array == null || array.isNull()) {
      return List.of();
    }
    if (!array.isArray()) {
      throw new FieldError(path, "Input should be a valid list", "list_type");
    }
    List<Item> items = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      items.add(Item.of(array.get(i), Shape.at(path, i)));
    }
    return Collections.unmodifiableList(items);
  }

  static ArrayNode write(List<? extends Item> items) {
    ArrayNode array = Json.array();
    for (Item item : items) {
      array.add(item.json());
    }
    return array;
  }
}
