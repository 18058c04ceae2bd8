package dev.gym4j.sandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The host's process table and mount table, read from /proc. */
final class Processes {
  private Processes() {}

  /** The host processes whose command line contains {@code marker}: "pid: command line". */
  static List<String> withMarker(String marker) {
    List<String> found = new ArrayList<>();
    if (marker == null) {
      return found;
    }
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      entries.filter(path -> path.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(path -> {
        try {
          String command = new String(Files.readAllBytes(path.resolve("cmdline")), StandardCharsets.UTF_8)
              .replace('\0', ' ');
          if (command.contains(marker)) {
            found.add(path.getFileName() + ": " + command);
          }
        } catch (IOException e) {
          // it ended while we looked
        }
      });
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return found;
  }

  /** The mounts our mount namespace has. */
  static List<String> mounts() {
    try {
      return Files.readAllLines(Path.of("/proc/self/mountinfo"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
