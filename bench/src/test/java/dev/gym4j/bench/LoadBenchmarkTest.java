package dev.gym4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The benchmark's runs, at a tiny scale: they complete without errors and print their figures. */
class LoadBenchmarkTest {

  @Test
  void overheadConcurrencyAndPayloadRunsPrintTheirFigures() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LoadBenchmark benchmark = new LoadBenchmark(new LoadBenchmark.Options(Fixtures.projectRoot(), Duration.ofSeconds(1),
        20, Duration.ofSeconds(2), Duration.ofMillis(100), 4, true, java.util.EnumSet.allOf(LoadBenchmark.Figure.class)),
        new PrintStream(bytes, true));
    assertThat(benchmark.overhead()).isTrue();
    assertThat(benchmark.concurrency()).isTrue();
    benchmark.payload();
    String printed = bytes.toString();
    assertThat(printed).contains("overhead ratio (HTTP/1.1 to the model, hops in process): ",
        "overhead ratio (HTTP/2 multiplexed to the model, hops in process): ", "rollouts in flight",
        "with 0 errors", "heap per in-flight rollout (", "added latency per hop p50 / p99: ", "payload cost");
    assertThat(printed.lines().filter(line -> line.matches(".+: .+ \\(.+\\)"))).hasSize(10);
  }

  @Test
  void theCpuFigureComparesHopsInProcessWithHttpAt32And256InFlight() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LoadBenchmark benchmark = new LoadBenchmark(new LoadBenchmark.Options(Fixtures.projectRoot(), Duration.ofSeconds(1),
        20, Duration.ofSeconds(2), Duration.ofMillis(100), 4, true, java.util.EnumSet.of(LoadBenchmark.Figure.CPU)),
        new PrintStream(bytes, true));
    assertThat(benchmark.cpu(1)).isTrue();
    List<String> lines = bytes.toString().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).matches("CPU per rollout at 32 in flight, HTTP/1.1 hops \\(baseline\\): "
        + "[0-9.]+ ms \\[.+\\] at [0-9]+ rollouts/s .*");
    assertThat(lines.get(3)).matches("CPU per rollout at 256 in flight, hops in process: [0-9.]+ ms .+ \\([0-9.]+x "
        + "the baseline's CPU per rollout, [0-9.]+x its rollouts/s; target <= 0.5x CPU\\)");
  }

  @Test
  void thePayloadIsALongTrainingRolloutWithAppendOnlyTokenIds() {
    JsonNode request = Json.parse(PayloadBuilder.rollout(4, 4000));
    JsonNode previous = null;
    for (JsonNode item : request.get("input")) {
      if (item.has("generation_token_ids")) {
        if (previous != null) {
          int prefix = previous.get("prompt_token_ids").size() + previous.get("generation_token_ids").size();
          assertThat(item.get("prompt_token_ids").size()).isGreaterThan(prefix);
          for (int i = 0; i < previous.get("prompt_token_ids").size(); i++) {
            assertThat(item.get("prompt_token_ids").get(i)).isEqualTo(previous.get("prompt_token_ids").get(i));
          }
        }
        previous = item;
      }
    }
    assertThat(previous).isNotNull();
  }
}
