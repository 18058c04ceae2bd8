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

  /** The server's config block bound to a record (snake_case keys; keys the record lacks are ignored). */
  public <T> T config(Class<T> type) {
    return Json.convert(instance.config(), type);
  }
}
