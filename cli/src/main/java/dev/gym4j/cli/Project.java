package dev.gym4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.gym4j.config.ConfigException;

/** The gym4j source tree the commands that change or build it work on: the installation, or the working directory. */
final class Project {
  private Project() {}

  static Path root() {
    String home = System.getProperty("gym4j.home");
    Path root = home != null ? Path.of(home) : Path.of("").toAbsolutePath();
    if (!Files.isRegularFile(root.resolve("environments").resolve("pom.xml"))) {
      throw new ConfigException("no gym4j source tree at " + root + " (expected environments/pom.xml)");
    }
    return root;
  }

  static Path environment(String name) {
    Path dir = root().resolve("environments").resolve(name);
    if (!Files.isDirectory(dir)) {
      throw EvalCommand.unknownEnvironment(name);
    }
    return dir;
  }
}
