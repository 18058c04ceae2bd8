package dev.gym4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.gym4j.config.ConfigException;
import dev.gym4j.head.HeadSecret;

/**
 * Where {@code run} and {@code serve} get the deployment's registration secret. Never from a command-line
 * value: other users of the machine can read a process's arguments.
 */
final class HeadSecrets {
  static final String DEFAULT_FILE = ".gym4j/head-secret";
  private static final String VARIABLE = "$" + HeadSecret.ENVIRONMENT_VARIABLE;

  private HeadSecrets() {}

  /** The secret of a deployment and where its operator finds it. */
  record ForRun(HeadSecret secret, String where) {}

  /** $GYM4J_HEAD_SECRET if set; otherwise a fresh secret, written to {@code file} for serve to read. */
  static ForRun forRun(Path file) {
    String given = System.getenv(HeadSecret.ENVIRONMENT_VARIABLE);
    if (given != null && !given.isBlank()) {
      return new ForRun(HeadSecret.of(given, VARIABLE), "from " + VARIABLE);
    }
    HeadSecret secret = HeadSecret.generate();
    try {
      secret.writeTo(file);
      return new ForRun(secret, "in " + file + " (give it to gym4j serve with --head-secret-file or " + VARIABLE + ")");
    } catch (IOException e) {
      return new ForRun(secret, "not written, " + file + " is not writable (" + e.getMessage() + "); set " + VARIABLE
          + " to choose the secret");
    }
  }

  /** The file given, else $GYM4J_HEAD_SECRET, else the default file if it exists here. */
  static HeadSecret forServe(Path file) {
    if (file != null) {
      return HeadSecret.read(file);
    }
    String given = System.getenv(HeadSecret.ENVIRONMENT_VARIABLE);
    if (given != null && !given.isBlank()) {
      return HeadSecret.of(given, VARIABLE);
    }
    Path fallback = Path.of(DEFAULT_FILE);
    if (Files.isRegularFile(fallback)) {
      return HeadSecret.read(fallback);
    }
    throw new ConfigException("gym4j serve needs the deployment's registration secret: pass --head-secret-file "
        + "(gym4j run wrote it to " + DEFAULT_FILE + " on the head server's machine) or set " + VARIABLE);
  }
}
