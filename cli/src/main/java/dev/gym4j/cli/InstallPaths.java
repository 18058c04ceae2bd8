package dev.gym4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.gym4j.config.ConfigException;

/** Files named relative to the working directory or, failing that, to the gym4j installation. */
final class InstallPaths {
  private InstallPaths() {}

  static Path locate(String relative) {
    Path here = Path.of(relative);
    if (Files.exists(here) || here.isAbsolute()) {
      return here;
    }
    String home = System.getProperty("gym4j.home");
    Path installed = home == null ? here : Path.of(home).resolve(relative);
    if (!Files.exists(installed)) {
      throw new ConfigException("file not found: " + relative + " (looked in the working directory"
          + (home == null ? "" : " and " + home) + ")");
    }
    return installed;
  }
}
