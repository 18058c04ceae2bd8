package dev.gym4j.config;

import java.util.Arrays;
import java.util.Optional;

/** The three kinds of server, named by the config key NeMo Gym uses for them. */
public enum ServerKind {
  /** A policy or judge model behind the Responses API. */
  MODEL("responses_api_models"),
  /** An environment: tools, per-rollout state and {@code verify}. */
  RESOURCES("resources_servers"),
  /** The loop between model and environment. */
  AGENT("responses_api_agents");

  private final String key;

  ServerKind(String key) {
    this.key = key;
  }

  public String key() {
    return key;
  }

  public static Optional<ServerKind> byKey(String key) {
    return Arrays.stream(values()).filter(kind -> kind.key.equals(key)).findFirst();
  }
}
