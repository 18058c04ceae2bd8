package dev.gym4j.config;

/**
 * A configuration that cannot be used. The message says which key, in which file, and what was expected;
 * the CLI prints it without a stack trace.
 */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
