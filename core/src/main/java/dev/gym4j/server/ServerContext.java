package dev.gym4j.server;

import dev.gym4j.client.ServerClient;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.json.Json;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a server gets to work with: its own config block, the global config, and a client that reaches
 * the other servers by instance name.
 */
public record ServerContext(ServerInstance instance, GlobalConfig global, ServerClient client) {

  public String name() {
    return instance.name();
  }

  public ObjectNode config() {
    return instance.config();
  }

  /** A setting that must be present and not null, or a config error naming its full key path. */
  public tools.jackson.databind.JsonNode required(String field) {
    tools.jackson.databind.JsonNode value = instance.config().get(field);
    if (value == null || value.isNull()) {
      throw new dev.gym4j.config.ConfigException("missing required value " + path(field)
          + global.origins().suffix(path(field)) + ": the " + instance.implementation() + " server needs it");
    }
    return value;
  }

  /** A required string setting. */
  public String requiredString(String field) {
    tools.jackson.databind.JsonNode value = required(field);
    if (!value.isString() || value.stringValue().isBlank()) {
      throw new dev.gym4j.config.ConfigException(path(field) + " must be a non-empty string"
          + global.origins().suffix(path(field)));
    }
    return value.stringValue();
  }

  /** The full dotted key path of one of this server's settings. */
  public String path(String field) {
    return instance.name() + "." + instance.kind().key() + "." + instance.implementation() + "." + field;
  }

  /** The server's config block bound to a record (snake_case keys; keys the record lacks are ignored). */
  public <T> T config(Class<T> type) {
    return Json.convert(instance.config(), type);
  }
}
