package dev.gym4j.sandbox;

import java.time.Duration;

/**
 * What one sandboxed run may use. Every limit is enforced by the kernel or by the sandbox itself, and reaching
 * one ends the whole process tree with an outcome that names it.
 *
 * @param wallClock    time from start to the kill, whatever the program does (sleeping included)
 * @param cpu          processor time of the main process and what it waited for (RLIMIT_CPU)
 * @param memoryBytes  address space of each process (RLIMIT_AS)
 * @param processes    processes and threads the run may have at once (RLIMIT_NPROC), so a fork bomb stays small
 * @param fileSizeBytes largest file the program may write (RLIMIT_FSIZE)
 * @param openFiles    open file descriptors per process (RLIMIT_NOFILE)
 * @param stdoutBytes  bytes of standard output kept; one more ends the run ({@code output_limit})
 * @param stderrBytes  bytes of standard error kept; one more ends the run ({@code output_limit})
 * @param scratchBytes size of the writable working directory and of {@code /tmp} (tmpfs, in memory)
 */
public record Limits(Duration wallClock, Duration cpu, long memoryBytes, int processes, long fileSizeBytes,
    int openFiles, int stdoutBytes, int stderrBytes, long scratchBytes) {

  private static final long MB = 1024L * 1024;

  /** Safe defaults for a short program: 10 s, 10 s of CPU, 1 GiB, 32 processes, 16 MiB files and output 1 MiB. */
  public static final Limits DEFAULTS = new Limits(Duration.ofSeconds(10), Duration.ofSeconds(10), 1024 * MB, 32,
      16 * MB, 64, (int) MB, (int) MB, 64 * MB);

  public Limits {
    if (wallClock.isNegative() || wallClock.isZero()) {
      throw new IllegalArgumentException("wall_clock_seconds must be positive, got " + wallClock);
    }
    if (cpu.toSeconds() < 1) {
      throw new IllegalArgumentException("cpu_seconds must be at least 1, got " + cpu);
    }
    positive("memory_mb", memoryBytes);
    positive("processes", processes);
    positive("file_size_mb", fileSizeBytes);
    positive("open_files", openFiles);
    positive("stdout_bytes", stdoutBytes);
    positive("stderr_bytes", stderrBytes);
    positive("scratch_mb", scratchBytes);
  }

  private static void positive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  public Limits withWallClock(Duration value) {
    return new Limits(value, cpu, memoryBytes, processes, fileSizeBytes, openFiles, stdoutBytes, stderrBytes,
        scratchBytes);
  }

  public Limits withCpu(Duration value) {
    return new Limits(wallClock, value, memoryBytes, processes, fileSizeBytes, openFiles, stdoutBytes, stderrBytes,
        scratchBytes);
  }

  public Limits withMemoryBytes(long value) {
    return new Limits(wallClock, cpu, value, processes, fileSizeBytes, openFiles, stdoutBytes, stderrBytes,
        scratchBytes);
  }

  public Limits withProcesses(int value) {
    return new Limits(wallClock, cpu, memoryBytes, value, fileSizeBytes, openFiles, stdoutBytes, stderrBytes,
        scratchBytes);
  }

  public Limits withFileSizeBytes(long value) {
    return new Limits(wallClock, cpu, memoryBytes, processes, value, openFiles, stdoutBytes, stderrBytes,
        scratchBytes);
  }

  public Limits withOutputBytes(int stdout, int stderr) {
    return new Limits(wallClock, cpu, memoryBytes, processes, fileSizeBytes, openFiles, stdout, stderr,
        scratchBytes);
  }

  /**
   * Limits from a config block ({@code wall_clock_seconds}, {@code cpu_seconds}, {@code memory_mb},
   * {@code processes}, {@code file_size_mb}, {@code open_files}, {@code stdout_bytes}, {@code stderr_bytes},
   * {@code scratch_mb}); a key left out keeps this value.
   */
  public Limits overriddenBy(tools.jackson.databind.JsonNode config) {
    if (config == null || !config.isObject()) {
      return this;
    }
    return new Limits(
        seconds(config, "wall_clock_seconds", wallClock),
        seconds(config, "cpu_seconds", cpu),
        config.path("memory_mb").asLong(memoryBytes / MB) * MB,
        config.path("processes").asInt(processes),
        config.path("file_size_mb").asLong(fileSizeBytes / MB) * MB,
        config.path("open_files").asInt(openFiles),
        config.path("stdout_bytes").asInt(stdoutBytes),
        config.path("stderr_bytes").asInt(stderrBytes),
        config.path("scratch_mb").asLong(scratchBytes / MB) * MB);
  }

  private static Duration seconds(tools.jackson.databind.JsonNode config, String key, Duration fallback) {
    return config.has(key) ? Duration.ofMillis(Math.round(config.get(key).asDouble() * 1000)) : fallback;
  }
}
