package dev.gym4j.config;

import java.util.Optional;

import tools.jackson.databind.JsonNode;

/** A reference from one server's config to another instance: {@code {type: resources_servers, name: weather}}. */
public record ServerRef(ServerKind type, String name) {

  /** The reference a config value holds, if it has exactly the {@code {type, name}} shape. */
  public static Optional<ServerRef> from(JsonNode value) {
    if (value == null || !value.isObject() || value.size() != 2) {
      return Optional.empty();
    }
    JsonNode type = value.get("type");
    JsonNode name = value.get("name");
    if (type == null || name == null || !type.isString() || !name.isString()) {
      return Optional.empty();
    }
    return ServerKind.byKey(type.stringValue()).map(kind -> new ServerRef(kind, name.stringValue()));
  }
}
