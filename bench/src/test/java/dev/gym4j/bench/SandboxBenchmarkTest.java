package dev.gym4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class SandboxBenchmarkTest {
  @Test
  void printsBothRatesTheRatioAndTheLatencyPercentiles() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean ran = new SandboxBenchmark(new PrintStream(bytes, true, StandardCharsets.UTF_8), 20).run();
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertThat(ran).as(text).isTrue();
    assertThat(text).containsPattern("sandbox executions/s: [0-9.]+ \\(plain python3 -c: [0-9.]+; ratio [0-9.]+; "
        + "goal >= 0.50\\)").containsPattern("sandbox start latency p50/p99: [0-9.]+/[0-9.]+ ms");
  }

  @Test
  void theFigureComparesTheSameNumberOfRunsOfEachKind() throws Exception {
    try (var sandbox = dev.gym4j.sandbox.Sandbox.start(dev.gym4j.sandbox.SandboxSettings.defaults())) {
      SandboxBenchmark.Figure figure = SandboxBenchmark.measure(sandbox, 2, 10);
      assertThat(figure.sandboxed().perSecond()).isPositive();
      assertThat(figure.plain().perSecond()).isPositive();
      assertThat(figure.sandboxed().p50Millis()).isLessThanOrEqualTo(figure.sandboxed().p99Millis());
      assertThat(figure.plain().p50Millis()).isLessThanOrEqualTo(figure.plain().p99Millis());
    }
  }
}
