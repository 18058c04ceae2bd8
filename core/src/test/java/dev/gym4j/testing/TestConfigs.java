package dev.gym4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;

/** Configs for tests: written to a temporary directory, loaded with the head server on a free port. */
public final class TestConfigs {
  private TestConfigs() {}

  public static GlobalConfig load(Path dir, String yaml, String... overrides) {
    try {
      Files.writeString(dir.resolve("test.yaml"), yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> arguments = new ArrayList<>(List.of("+config_paths=[test.yaml]", "++head_server.port=0"));
    arguments.addAll(List.of(overrides));
    return new ConfigLoader(List.of(dir), Map.of()).load(arguments);
  }
}
