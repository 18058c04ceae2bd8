package dev.gym4j.agents;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ServerKind;
import dev.gym4j.config.ServerRef;
import dev.gym4j.server.ServerContext;

/** The instance an agent's {@code {type, name}} setting names. */
final class References {
  private References() {}

  static String of(ServerContext context, String field, ServerKind kind) {
    ServerRef ref = ServerRef.from(context.required(field)).orElseThrow(() -> new ConfigException(
        context.path(field) + " must be a reference like {type: " + kind.key() + ", name: <instance>}"));
    if (ref.type() != kind) {
      throw new ConfigException(context.path(field) + " must refer to " + kind.key());
    }
    return ref.name();
  }
}
