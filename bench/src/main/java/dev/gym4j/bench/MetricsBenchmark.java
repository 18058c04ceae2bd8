package dev.gym4j.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.config.ConfigLoader;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;

/**
 * The metrics figure of {@code gym4j bench --metrics} (issue 31: {@code /aggregate_metrics} was cubic in the rollouts
 * of one task): one {@code POST /aggregate_metrics} with {@code rollouts} verify responses of a single task (one in
 * four correct) to a real resources server on loopback, over HTTP. Prints the CPU time of this process (client and
 * server, garbage collection included) per request, the median of {@code rounds} after as many warm-up rounds, and
 * the wall time; the target is under a second of CPU for 100,000 rollouts.
 */
public final class MetricsBenchmark {
  private final PrintStream out;
  private final int rollouts;
  private final int rounds;

  public MetricsBenchmark(PrintStream out, int rollouts, int rounds) {
    this.out = out;
    this.rollouts = rollouts;
    this.rounds = rounds;
  }

  /** The figures of one run: median CPU and wall seconds per request, and the entries of the answer. */
  public record Figures(double cpuSeconds, double wallSeconds, int answerEntries) {}

  public Figures run() throws IOException, InterruptedException {
    Path home = Files.createTempDirectory("gym4j-metrics-bench");
    try {
      Files.writeString(home.resolve("metrics.yaml"), """
          metrics_bench:
            resources_servers:
              example_single_tool_call: {domain: other, aggregate_metrics_max_rows: %d}
          """.formatted(Math.max(rollouts, 1)));
      var config = new ConfigLoader(List.of(home), Map.of()).load(List.of("+config_paths=[metrics.yaml]",
          "++head_server.port=0"));
      try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
        URI url = deployment.servers().getFirst().url().resolve("/aggregate_metrics");
        return measure(url);
      }
    } finally {
      Files.deleteIfExists(home.resolve("metrics.yaml"));
      Files.deleteIfExists(home);
    }
  }

  private Figures measure(URI url) throws IOException, InterruptedException {
    byte[] body = body();
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean();
    double[] cpu = new double[rounds];
    double[] wall = new double[rounds];
    int entries = 0;
    for (int round = -rounds; round < rounds; round++) {
      long cpuStart = os.getProcessCpuTime();
      long start = System.nanoTime();
      HttpResponse<byte[]> reply = http.send(HttpRequest.newBuilder(url).timeout(Duration.ofMinutes(5))
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
      if (reply.statusCode() != 200) {
        throw new IllegalStateException("/aggregate_metrics answered " + reply.statusCode() + ": "
            + new String(reply.body(), 0, Math.min(300, reply.body().length), StandardCharsets.UTF_8));
      }
      if (round >= 0) {
        cpu[round] = (os.getProcessCpuTime() - cpuStart) / 1e9;
        wall[round] = (System.nanoTime() - start) / 1e9;
        entries = Json.parse(reply.body()).get("agent_metrics").size();
      }
    }
    Figures figures = new Figures(median(cpu), median(wall), entries);
    out.printf("aggregate_metrics, %,d rollouts of one task (one HTTP request, %.1f MB, answer of %,d entries, "
        + "median of %d): %.2f s CPU, %.2f s wall (< 1 s CPU)%n", rollouts, body.length / 1e6, entries, rounds,
        figures.cpuSeconds(), figures.wallSeconds());
    return figures;
  }

  private byte[] body() {
    StringBuilder body = new StringBuilder("{\"verify_responses\": [");
    for (int i = 0; i < rollouts; i++) {
      body.append(i == 0 ? "" : ",").append("{\"_ng_task_index\": 0, \"_ng_rollout_index\": ").append(i)
          .append(", \"reward\": ").append(i % 4 == 0 ? "1.0" : "0.0").append('}');
    }
    return body.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
