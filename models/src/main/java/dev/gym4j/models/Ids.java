package dev.gym4j.models;

import java.util.UUID;

/** Item and response ids in OpenAI's shapes: a prefix and 32 hex digits. */
final class Ids {
  private Ids() {}

  static String of(String prefix) {
    return prefix + UUID.randomUUID().toString().replace("-", "");
  }
}
