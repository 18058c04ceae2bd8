package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code gym4j data} and {@code gym4j metrics --groups} on NeMo Gym's files. */
class DataCommandTest {
  @TempDir
  Path dir;
  private final CapturedCommand command = new CapturedCommand();

  @Test
  void exportsDpoPairsFromARecordedFile() throws Exception {
    Path rollouts = Fixtures.environment("blackjack").resolve("example_rollouts.jsonl");
    Path output = dir.resolve("dpo.jsonl");
    assertThat(command.run("data", "export", rollouts.toString(), "--format", "dpo-pairs", "--output",
        output.toString(), "--all-pairs")).as(command.err()).isZero();
    List<JsonNode> pairs = Json.readLines(output);
    assertThat(pairs).hasSize(6).allSatisfy(pair -> assertThat(pair.get("quality_difference").asDouble()).isEqualTo(2.0));
    assertThat(command.out()).contains("5 rollouts read, 6 rows written");
  }

  @Test
  void validatesADatasetAndExitsNonZeroOnABadRow() throws Exception {
    Path good = dir.resolve("good.jsonl");
    Files.copy(Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl"), good);
    assertThat(command.run("data", "validate", good.toString())).isZero();
    assertThat(command.out()).contains("5 rows, 0 bad");
    assertThat(Files.exists(dir.resolve("good_metrics.json"))).isTrue();
    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(bad, "{\"responses_create_params\": {\"input\": 1}}\n");
    assertThat(command.run("data", "validate", bad.toString())).isEqualTo(1);
    assertThat(command.out()).contains(bad + ":1: responses_create_params.input");
  }

  @Test
  void groupsShowWhichTasksGiveGrpoNoSignal() {
    Path file = Fixtures.environment("math_with_judge").resolve("example_rollouts.jsonl");
    assertThat(command.run("metrics", "--groups", file.toString())).isZero();
    assertThat(command.out()).contains("5 task groups, 5 with zero reward variance (100.0 %)");
  }
}
