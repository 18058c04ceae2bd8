package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code gym4j collect} in its own process, killed with SIGKILL at random moments five times and resumed
 * each time: the finished file holds every (task, rollout) exactly once.
 */
class CollectKillResumeTest {
  private static final int TASKS = 30;
  private static final int REPEATS = 2;

  @TempDir
  Path dir;

  @Test
  void killedFiveTimesAndResumedEveryRolloutLandsExactlyOnce() throws Exception {
    Path input = dir.resolve("tasks.jsonl");
    List<JsonNode> examples = Json.readLines(Fixtures.projectRoot()
        .resolve("environments/example_single_tool_call/data/example.jsonl"));
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      ObjectNode row = ((ObjectNode) examples.get(i % examples.size())).deepCopy();
      row.put("uid", "task-" + i);
      lines.add(Json.write(row));
    }
    Files.write(input, lines);
    Path output = dir.resolve("out/rollouts.jsonl");
    Random random = new Random(7);
    try (WeatherStack stack = new WeatherStack(Duration.ofMillis(15))) {
      String head = stack.deployment.head().url().toString();
      int kills = 0;
      while (kills < 5) {
        Process collector = collect(head, input, output);
        waitFor(() -> Files.exists(dir.resolve("out/rollouts_materialized_inputs.jsonl")), collector);
        Thread.sleep(50 + random.nextInt(400));
        if (!collector.isAlive()) {
          break;
        }
        collector.destroyForcibly();
        collector.waitFor(30, TimeUnit.SECONDS);
        kills++;
      }
      assertThat(kills).as("the collection was still running at each kill").isEqualTo(5);
      Process last = collect(head, input, output);
      assertThat(last.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(last.exitValue()).as(new String(last.getInputStream().readAllBytes())).isZero();
    }
    List<JsonNode> rows = Json.readLines(output);
    Set<String> keys = new HashSet<>();
    for (JsonNode row : rows) {
      assertThat(keys.add(row.get("_ng_task_index") + ":" + row.get("_ng_rollout_index")))
          .as("no duplicate of %s", row.get("_ng_task_index")).isTrue();
      assertThat(row.get("reward").asDouble()).isEqualTo(1.0);
    }
    assertThat(keys).hasSize(TASKS * REPEATS);
  }

  private Process collect(String head, Path input, Path output) throws IOException {
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), Main.class.getName(), "collect", "--head", head,
        "--agent", WeatherStack.AGENT, "--input", input.toString(), "--output", output.toString(),
        "--repeats", String.valueOf(REPEATS), "--parallel", "4", "--resume");
    return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(dir.resolve("collector.log").toFile()).start();
  }

  private static void waitFor(java.util.function.BooleanSupplier condition, Process process) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new AssertionError("the collector did not start its run");
      }
      Thread.sleep(10);
    }
  }
}
