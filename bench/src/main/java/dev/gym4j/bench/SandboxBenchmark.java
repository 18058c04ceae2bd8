package dev.gym4j.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.gym4j.sandbox.Execution;
import dev.gym4j.sandbox.ExecutionResult;
import dev.gym4j.sandbox.Limits;
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxException;
import dev.gym4j.sandbox.SandboxSettings;

/**
 * The sandbox figure of {@code gym4j bench}: executions per second of a trivial Python program, sandboxed (with
 * every limit and the whole-tree kill) against plain {@code python3 -c pass}, the same number of runs with the same
 * concurrency (the number of processors) in the same run, alternating, and the latency of one run (start to end),
 * p50 and p99, for both.
 */
public final class SandboxBenchmark {
  /** One side of the comparison: runs per second, and per-run latency percentiles in milliseconds. */
  public record Side(double perSecond, double p50Millis, double p99Millis) {}

  /** Both sides. */
  public record Figure(Side sandboxed, Side plain) {
    public double ratio() {
      return sandboxed.perSecond() / plain.perSecond();
    }
  }

  private final PrintStream out;
  private final int runs;

  public SandboxBenchmark(PrintStream out, int runs) {
    this.out = out;
    this.runs = runs;
  }

  /** Measures and prints; false when the sandbox cannot run here (the reason is printed). */
  public boolean run() throws Exception {
    SandboxSettings settings = SandboxSettings.defaults();
    Figure figure;
    try (Sandbox sandbox = Sandbox.start(settings)) {
      figure = measure(sandbox, settings.concurrency(), runs);
    } catch (SandboxException e) {
      out.println("sandbox: unavailable: " + e.getMessage());
      return false;
    }
    out.printf("sandbox executions/s: %.1f (plain python3 -c: %.1f; ratio %.2f; goal >= 0.50)%n",
        figure.sandboxed().perSecond(), figure.plain().perSecond(), figure.ratio());
    out.printf("sandbox start latency p50/p99: %.1f/%.1f ms (plain python3 -c: %.1f/%.1f ms)%n",
        figure.sandboxed().p50Millis(), figure.sandboxed().p99Millis(), figure.plain().p50Millis(),
        figure.plain().p99Millis());
    return true;
  }

  /** {@code runs} runs of each kind, {@code concurrency} at a time, in rounds that alternate the two kinds. */
  public static Figure measure(Sandbox sandbox, int concurrency, int runs) throws Exception {
    String python = sandbox.python();
    Execution trivial = new Execution(List.of(python, "-c", "pass"), java.util.Map.of(), new byte[0],
        Limits.DEFAULTS);
    Task sandboxed = () -> {
      ExecutionResult result = sandbox.run(trivial);
      if (!result.succeeded()) {
        throw new IllegalStateException("a trivial sandboxed run failed: " + result.outcome() + " " + result.stderr());
      }
    };
    Task plain = () -> {
      Process process = new ProcessBuilder(python, "-c", "pass").redirectErrorStream(true).start();
      process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("plain python3 -c pass failed");
      }
    };
    // warm up both paths (page cache, JIT) before measuring
    rounds(sandboxed, concurrency, Math.min(20, runs));
    rounds(plain, concurrency, Math.min(20, runs));
    List<Long> sandboxedLatencies = new ArrayList<>();
    List<Long> plainLatencies = new ArrayList<>();
    long sandboxedNanos = 0;
    long plainNanos = 0;
    int rounds = 5;
    for (int round = 0; round < rounds; round++) {
      int share = runs / rounds;
      long start = System.nanoTime();
      sandboxedLatencies.addAll(rounds(sandboxed, concurrency, share));
      sandboxedNanos += System.nanoTime() - start;
      start = System.nanoTime();
      plainLatencies.addAll(rounds(plain, concurrency, share));
      plainNanos += System.nanoTime() - start;
    }
    return new Figure(side(sandboxedLatencies, sandboxedNanos), side(plainLatencies, plainNanos));
  }

  private interface Task {
    void run() throws IOException, InterruptedException;
  }

  private static List<Long> rounds(Task task, int concurrency, int count) throws Exception {
    List<Future<Long>> futures = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(concurrency)) {
      for (int i = 0; i < count; i++) {
        futures.add(pool.submit(() -> {
          long start = System.nanoTime();
          task.run();
          return System.nanoTime() - start;
        }));
      }
    }
    List<Long> latencies = new ArrayList<>();
    for (Future<Long> future : futures) {
      latencies.add(future.get());
    }
    return latencies;
  }

  private static Side side(List<Long> latencies, long nanos) {
    List<Long> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    return new Side(sorted.size() / (nanos / 1e9), percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6);
  }

  private static double percentile(List<Long> sorted, double q) {
    int index = (int) Math.ceil(q * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
