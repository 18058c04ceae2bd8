package dev.gym4j.bench;

import java.io.PrintStream;
import java.util.Collection;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The JMH suite ({@code gym4j bench --micro}): each benchmark in a forked JVM after warm-up, one thread, so
 * rates are per core: math verification, payload conversion, and one HTTP hop between servers. Prints its figures as {@code name: value (target)}.
 */
public final class MicroBenchmarks {
  private final PrintStream out;
  private final int seconds;

  public MicroBenchmarks(PrintStream out, int secondsPerIteration) {
    this.out = out;
    this.seconds = secondsPerIteration;
  }

  public static void main(String[] args) throws RunnerException {
    new MicroBenchmarks(System.out, args.length > 0 ? Integer.parseInt(args[0]) : 2).run();
  }

  public void run() throws RunnerException {
    Collection<RunResult> math = run(MathVerifyBenchmark.class);
    for (RunResult result : math) {
      Result<?> primary = result.getPrimaryResult();
      if (result.getParams().getMode() == org.openjdk.jmh.annotations.Mode.Throughput) {
        figure("math verifications per second per core (42 recorded + 1,000 generated pairs)",
            String.format("%,.0f", primary.getScore() * 1_000_000), "—");
      } else {
        var stats = primary.getStatistics();
        figure("math verification latency p50 / p99", String.format("%.1f / %.1f µs", stats.getPercentile(50),
            stats.getPercentile(99)), "p99 well under the 1 s budget");
      }
    }
    double plain = 0;
    double convert = 0;
    for (RunResult result : run(PayloadBenchmark.class)) {
      if (result.getParams().getBenchmark().endsWith("plainReadWrite")) {
        plain = result.getPrimaryResult().getScore();
      } else {
        convert = result.getPrimaryResult().getScore();
      }
    }
    figure("payload cost, Responses→Chat vs plain Jackson read+write (20 turns, 64k tokens)",
        String.format("%.2fx (%.2f ms vs %.2f ms)", convert / plain, convert, plain), "<= 2x");
    StringBuilder hops = new StringBuilder();
    for (RunResult result : run(HopBenchmark.class)) {
      hops.append(hops.isEmpty() ? "" : ", ").append(result.getParams().getParam("protocol"))
          .append(String.format(" %.0f µs", result.getPrimaryResult().getScore()));
    }
    figure("one hop, small JSON POST and answer through ServerClient on loopback, one caller", hops.toString(),
        "—");
  }

  private Collection<RunResult> run(Class<?> benchmark) throws RunnerException {
    Options options = new OptionsBuilder().include(benchmark.getName() + "\\.").forks(1).threads(1)
        .warmupIterations(2).warmupTime(TimeValue.seconds(seconds)).measurementIterations(3)
        .measurementTime(TimeValue.seconds(seconds)).verbosity(VerboseMode.SILENT)
        // JMH 1.37 still reads field offsets through sun.misc.Unsafe; say it is allowed rather than warn
        .jvmArgsAppend("--sun-misc-unsafe-memory-access=allow").build();
    return new Runner(options).run();
  }

  private void figure(String name, String value, String target) {
    out.println(name + ": " + value + " (" + target + ")");
    out.flush();
  }
}
