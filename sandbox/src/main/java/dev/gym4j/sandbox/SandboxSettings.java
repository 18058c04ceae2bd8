package dev.gym4j.sandbox;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.gym4j.config.ConfigException;
import tools.jackson.databind.JsonNode;

/**
 * How a server runs untrusted code, from its instance config:
 *
 * <pre>
 * sandbox: bubblewrap            # the default; unsafe_subprocess runs code with no isolation (a laptop only)
 * python: /usr/bin/python3       # the system interpreter, seen read-only inside the sandbox
 * sandbox_concurrency: 2         # runs at once (default: the number of processors); more wait in a queue
 * sandbox_queue_timeout_seconds: 60
 * sandbox_read_only_paths: [/usr]
 * sandbox_limits: {wall_clock_seconds: 10, cpu_seconds: 10, memory_mb: 1024, processes: 32, ...}
 * </pre>
 */
public record SandboxSettings(Mode mode, Path bubblewrap, Path python, List<Path> readOnlyPaths, Limits limits,
    int concurrency, Duration queueTimeout, int maxLiveProcesses) {

  /** How code is run. */
  public enum Mode {
    /** Isolated with bubblewrap; refuses to start where it cannot isolate. */
    BUBBLEWRAP,
    /** A plain child process with resource limits and no isolation, for a developer's machine without bubblewrap. */
    UNSAFE_SUBPROCESS
  }

  public static final Path DEFAULT_PYTHON = Path.of("/usr/bin/python3");

  public SandboxSettings {
    readOnlyPaths = List.copyOf(readOnlyPaths);
    if (concurrency < 1 || maxLiveProcesses < 1) {
      throw new IllegalArgumentException("sandbox_concurrency and sandbox_max_live_processes must be at least 1");
    }
    if (!python.isAbsolute()) {
      throw new IllegalArgumentException("python must be an absolute path, got " + python);
    }
  }

  public static SandboxSettings defaults() {
    return new SandboxSettings(Mode.BUBBLEWRAP, Path.of("/usr/bin/bwrap"), DEFAULT_PYTHON, List.of(Path.of("/usr")),
        Limits.DEFAULTS, Runtime.getRuntime().availableProcessors(), Duration.ofSeconds(60), 64);
  }

  /** Settings from an instance's config block; {@code where} names that block in error messages. */
  public static SandboxSettings from(JsonNode config, String where) {
    SandboxSettings base = defaults();
    String mode = config.path("sandbox").asString("bubblewrap");
    Mode parsed = switch (mode.toLowerCase(Locale.ROOT)) {
      case "bubblewrap" -> Mode.BUBBLEWRAP;
      case "unsafe_subprocess" -> Mode.UNSAFE_SUBPROCESS;
      default -> throw new ConfigException(where + ".sandbox: expected bubblewrap or unsafe_subprocess, got " + mode);
    };
    List<Path> paths = new ArrayList<>();
    config.path("sandbox_read_only_paths").forEach(node -> paths.add(Path.of(node.asString())));
    try {
      return new SandboxSettings(parsed,
          Path.of(config.path("bubblewrap").asString(base.bubblewrap().toString())),
          Path.of(config.path("python").asString(base.python().toString())),
          paths.isEmpty() ? base.readOnlyPaths() : paths,
          base.limits().overriddenBy(config.get("sandbox_limits")),
          config.path("sandbox_concurrency").asInt(base.concurrency()),
          Duration.ofSeconds(config.path("sandbox_queue_timeout_seconds").asLong(base.queueTimeout().toSeconds())),
          config.path("sandbox_max_live_processes").asInt(base.maxLiveProcesses()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(where + ": " + e.getMessage());
    }
  }

  public SandboxSettings withMode(Mode value) {
    return new SandboxSettings(value, bubblewrap, python, readOnlyPaths, limits, concurrency, queueTimeout,
        maxLiveProcesses);
  }

  public SandboxSettings withLimits(Limits value) {
    return new SandboxSettings(mode, bubblewrap, python, readOnlyPaths, value, concurrency, queueTimeout,
        maxLiveProcesses);
  }

  public SandboxSettings withConcurrency(int value, Duration queue) {
    return new SandboxSettings(mode, bubblewrap, python, readOnlyPaths, limits, value, queue, maxLiveProcesses);
  }

  public SandboxSettings withBubblewrap(Path value) {
    return new SandboxSettings(mode, value, python, readOnlyPaths, limits, concurrency, queueTimeout,
        maxLiveProcesses);
  }
}
