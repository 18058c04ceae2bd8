package dev.gym4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The metrics figure on a small run (the real one is 100,000 rollouts): it prints its figure from a real answer. */
class MetricsBenchmarkTest {
  @Test
  void printsTheCpuOfOneAggregateMetricsRequest() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    MetricsBenchmark.Figures figures = new MetricsBenchmark(new PrintStream(printed, true, StandardCharsets.UTF_8),
        500, 1).run();
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("aggregate_metrics, 500 rollouts of one task")
        .contains(" s CPU, ");
    // pass@k, pass@1[avg-of-k] for k = 1…500, the spread for k = 2…500 and the usual statistics
    assertThat(figures.answerEntries()).isGreaterThan(4 * 500);
    assertThat(figures.cpuSeconds()).isPositive();
  }
}
