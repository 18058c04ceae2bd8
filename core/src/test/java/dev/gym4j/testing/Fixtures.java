package dev.gym4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * NeMo Gym's recorded data as this repository carries it: each environment module's {@code data/}
 * (the task rows, recorded rollouts and materialized inputs its tests need), and, for the environments
 * gym4j has no module for, their recorded rollouts in {@code core/src/test/data/nemo-gym/<environment>/}.
 * Nothing here reads outside the project root.
 */
public final class Fixtures {
  private Fixtures() {}

  /** Where the recorded data of the environments without a module sit. */
  public static Path nemoGym() {
    return projectRoot().resolve("core/src/test/data/nemo-gym");
  }

  /** The folder holding an environment's recorded data: its module's data/, or core's copy. */
  public static Path environment(String name) {
    Path module = projectRoot().resolve("environments").resolve(name).resolve("data");
    Path dir = Files.isDirectory(module) ? module : nemoGym().resolve(name);
    if (!Files.isDirectory(dir)) {
      throw new IllegalStateException("no recorded NeMo Gym data for " + name + " in " + module + " or " + dir);
    }
    return dir;
  }

  /** Every recorded rollout file in the repository: {@code *rollouts*.jsonl} except task rows (inputs). */
  public static List<Path> rolloutFiles() {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> modules = Files.list(projectRoot().resolve("environments"));
         Stream<Path> others = Files.list(nemoGym())) {
      for (Path dir : Stream.concat(modules.map(module -> module.resolve("data")), others).toList()) {
        if (Files.isDirectory(dir)) {
          try (Stream<Path> inDir = Files.list(dir)) {
            inDir.filter(Fixtures::isRolloutFile).forEach(files::add);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files.stream().sorted().toList();
  }

  private static boolean isRolloutFile(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".jsonl") && name.contains("rollouts") && !name.contains("materialized_inputs")
        && !name.contains("replay_inputs");
  }

  /** The project's root directory. */
  public static Path projectRoot() {
    String root = System.getProperty("gym4j.root");
    return root != null ? Path.of(root) : Path.of("").toAbsolutePath();
  }
}
