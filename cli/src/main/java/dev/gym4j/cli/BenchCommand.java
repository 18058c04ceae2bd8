package dev.gym4j.cli;

import java.time.Duration;
import java.util.concurrent.Callable;

import dev.gym4j.bench.LoadBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code gym4j bench}: the load benchmark, four figures side by side in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Benchmark the whole stack against a scripted model on this machine.",
        "Prints overhead ratio, CPU per rollout (hops in process against HTTP/1.1, at 32 and 256 in flight),",
        "rollouts in flight, start-up and payload cost as 'name: value (target)'.",
        "With --micro, runs the JMH suite instead: math verifications per second per core and their p99,",
        "the payload conversion cost and one HTTP hop between servers, each in a forked JVM after warm-up.",
        "With --sandbox, runs the sandbox figure instead: sandboxed executions per second of a trivial program",
        "against plain python3 -c in the same run, and p50/p99 latency of one run.",
        "With --viewer, runs the viewer figure instead: gym4j view on a generated 1 GB rollouts file.",
        "With --metrics, runs the metrics figure instead: CPU of one /aggregate_metrics of 100,000 rollouts."})
final class BenchCommand implements Callable<Integer> {
  @Option(names = "--in-flight", defaultValue = "100000", description = "Rollouts to hold in flight (default "
      + "${DEFAULT-VALUE}).")
  int inFlight;

  @Option(names = "--http1", description = "Hold them with HTTP/1.1 to the model (a socket per request, so "
      + "ulimit -n bounds --in-flight) instead of HTTP/2 streams on shared connections (client_http2, "
      + "upstream_http2); hops between the servers are in process either way.")
  boolean http1;

  @Option(names = "--hold-seconds", defaultValue = "60", description = "How long to hold them (default ${DEFAULT-VALUE}).")
  int holdSeconds;

  @Option(names = "--model-latency-ms", defaultValue = "2000", description = "Model latency per call while holding "
      + "(default ${DEFAULT-VALUE}).")
  int modelLatencyMillis;

  @Option(names = "--overhead-seconds", defaultValue = "10", description = "Length of each overhead run (default "
      + "${DEFAULT-VALUE}).")
  int overheadSeconds;

  @Option(names = "--clients", defaultValue = "64", description = "Concurrent callers in the overhead runs "
      + "(default ${DEFAULT-VALUE}).")
  int clients;

  // strings, not the bench's enum: the bench is not on the runtime classpath unless this command runs
  @Option(names = "--only", split = ",", paramLabel = "FIGURE", description = "Run only these figures: "
      + "overhead, cpu, concurrency, startup, payload (default: all five).")
  java.util.List<String> only = java.util.List.of();

  @Option(names = "--micro", description = "Run the JMH micro-benchmark suite instead of the load benchmark.")
  boolean micro;

  @Option(names = "--micro-seconds", defaultValue = "2", description = "Length of each JMH iteration "
      + "(default ${DEFAULT-VALUE}; 2 warm-up and 3 measured per benchmark).")
  int microSeconds;

  @Option(names = "--sandbox", description = "Run the sandbox figure instead of the load benchmark (needs "
      + "bubblewrap and /usr/bin/python3).")
  boolean sandbox;

  @Option(names = "--sandbox-runs", defaultValue = "1000", description = "Runs of each kind in the sandbox figure "
      + "(default ${DEFAULT-VALUE}).")
  int sandboxRuns;

  @Option(names = "--viewer", description = "Run the viewer figure instead: generate a rollouts file of --viewer-mb "
      + "and print gym4j view's time to first render and to open a rollout.")
  boolean viewer;

  @Option(names = "--viewer-mb", defaultValue = "1000", description = "Size of the viewer figure's generated file "
      + "in MB (default ${DEFAULT-VALUE}; written to the temporary directory and deleted after).")
  long viewerMegabytes;

  @Option(names = "--metrics", description = "Run the metrics figure instead: the CPU time of one POST "
      + "/aggregate_metrics with --metrics-rollouts rollouts of one task.")
  boolean metrics;

  @Option(names = "--metrics-rollouts", defaultValue = "100000", description = "Rollouts in the metrics figure's "
      + "request (default ${DEFAULT-VALUE}).")
  int metricsRollouts;

  @Override
  public Integer call() throws Exception {
    try {
      return BenchRun.run(this);
    } catch (NoClassDefFoundError e) {
      throw new dev.gym4j.config.ConfigException("the benchmark is not on this classpath: run it with ./gym4j bench, "
          + "which adds cli/target/dist/bench");
    }
  }

  /** Touches the bench's classes, so that they are loaded only when the bench runs. */
  static final class BenchRun {
    private BenchRun() {}

    static int run(BenchCommand command) throws Exception {
      if (command.metrics) {
        new dev.gym4j.bench.MetricsBenchmark(System.out, command.metricsRollouts, 5).run();
        return 0;
      }
      if (command.viewer) {
        new dev.gym4j.bench.ViewerBenchmark(System.out, command.viewerMegabytes * 1_000_000L,
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir"))).run();
        return 0;
      }
      if (command.sandbox) {
        return new dev.gym4j.bench.SandboxBenchmark(System.out, command.sandboxRuns).run() ? 0 : 1;
      }
      if (command.micro) {
        new dev.gym4j.bench.MicroBenchmarks(System.out, command.microSeconds).run();
        return 0;
      }
      java.util.EnumSet<LoadBenchmark.Figure> figures = java.util.EnumSet.allOf(LoadBenchmark.Figure.class);
      if (!command.only.isEmpty()) {
        figures.clear();
        for (String name : command.only) {
          try {
            figures.add(LoadBenchmark.Figure.valueOf(name.strip().toUpperCase(java.util.Locale.ROOT)));
          } catch (IllegalArgumentException e) {
            throw new dev.gym4j.config.ConfigException("--only: no figure named '" + name + "'; the figures are "
                + "overhead, cpu, concurrency, startup and payload");
          }
        }
      }
      LoadBenchmark.Options options = new LoadBenchmark.Options(Project.root(),
          Duration.ofSeconds(command.overheadSeconds), command.inFlight, Duration.ofSeconds(command.holdSeconds),
          Duration.ofMillis(command.modelLatencyMillis), command.clients, !command.http1, figures);
      return new LoadBenchmark(options, System.out).run() ? 0 : 1;
    }
  }
}
