package dev.gym4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** NeMo Gym's recorded data in {@code shared/fixtures/nemo-gym/}, which sits beside the project root. */
public final class Fixtures {
  private Fixtures() {}

  public static Path nemoGym() {
    String shared = System.getProperty("gym4j.shared");
    Path root = shared != null ? Path.of(shared) : Path.of("..", "shared");
    Path dir = root.resolve("fixtures").resolve("nemo-gym").toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("NeMo Gym fixtures not found at " + dir + ": shared/ must sit beside the project");
    }
    return dir;
  }

  public static Path environment(String name) {
    return nemoGym().resolve(name);
  }

  /** Every recorded rollout file: {@code *rollouts*.jsonl} except materialized inputs. */
  public static List<Path> rolloutFiles() {
    try (Stream<Path> files = Files.walk(nemoGym(), 2)) {
      return files.filter(file -> {
        String name = file.getFileName().toString();
        return name.endsWith(".jsonl") && name.contains("rollouts") && !name.contains("materialized_inputs");
      }).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The project's root directory. */
  public static Path projectRoot() {
    String root = System.getProperty("gym4j.root");
    return root != null ? Path.of(root) : Path.of("").toAbsolutePath();
  }
}
