package dev.gym4j.environments.bigcodebench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's bigcodebench (resources_servers/bigcodebench/app.py, code_extraction.py on main) on the recorded
 * rollouts: the tasks that need only the standard library run for real in the sandbox and get their recorded
 * rewards; the others are skipped with the missing libraries named, never scored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BigCodeBenchTest {
  /** Recorded tasks whose prompt and tests import only the standard library. */
  private static final List<String> STANDARD_LIBRARY_ONLY = List.of("BigCodeBench/15", "BigCodeBench/19");
  private EnvironmentHarness harness;
  private EnvironmentHarness replaying;
  private List<JsonNode> rows;

  @BeforeAll
  void start() {
    harness = EnvironmentHarness.start("bigcodebench", "++bigcodebench.resources_servers.bigcodebench.gt_time_limit=10");
    Path fixtures = Path.of("data");
    replaying = EnvironmentHarness.replaying("bigcodebench", List.of(fixtures.resolve("example_rollouts.jsonl")),
        "++bigcodebench.resources_servers.bigcodebench.gt_time_limit=10");
    rows = EnvironmentHarness.joined(Json.readLines(fixtures.resolve("example_rollouts.jsonl")),
        Json.readLines(fixtures.resolve("example.jsonl")));
  }

  @AfterAll
  void stop() {
    harness.close();
    replaying.close();
  }

  @Test
  void tasksOnTheStandardLibraryGetTheRecordedRewardsAndTheOthersAreSkippedByName() {
    int run = 0;
    for (JsonNode row : rows) {
      String task = row.at("/verifier_metadata/task_id").asString();
      ObjectNode request = (ObjectNode) row.deepCopy();
      HttpReply reply = harness.post("/verify", request, Map.of());
      if (reply.status() == 200) {
        assertThat(reply.json().get("reward").asDouble()).as(task).isEqualTo(row.get("reward").asDouble());
        assertThat(reply.json().get("status").asString()).as(task).isEqualTo(row.get("status").asString());
        assertThat(reply.json().get("details").propertyNames()).as(task)
            .containsExactlyInAnyOrderElementsOf(row.get("details").propertyNames());
        run++;
      } else {
        assertThat(STANDARD_LIBRARY_ONLY).as(task + " needs only the standard library").doesNotContain(task);
        assertThat(reply.status()).isEqualTo(502);
        assertThat(reply.json().get("detail").asString()).contains("skipped " + task, "the task needs [");
      }
    }
    assertThat(run).isGreaterThanOrEqualTo(STANDARD_LIBRARY_ONLY.size());
  }

  @Test
  void replayThroughTheAgentReachesTheRecordedRewardsOfTheStandardLibraryTasks() {
    for (JsonNode row : rows) {
      if (STANDARD_LIBRARY_ONLY.contains(row.at("/verifier_metadata/task_id").asString())) {
        assertThat(replaying.replay(row).get("reward").asDouble()).isEqualTo(row.get("reward").asDouble());
      }
    }
  }

  @Test
  void aSolutionThatHangsIsATimeoutAndOneWithoutCodeIsNotRun() {
    ObjectNode row = rows.stream().filter(r -> r.at("/verifier_metadata/task_id").asString().equals("BigCodeBench/19"))
        .findFirst().map(r -> (ObjectNode) r.deepCopy()).orElseThrow();
    row.set("response", Json.parse("""
        {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text",
         "text": "```python\\ndef task_func(directory):\\n    while True:\\n        pass\\n```"}]}]}"""));
    JsonNode verdict = harness.post("/verify", row, Map.of()).json();
    assertThat(verdict.get("status").asString()).isEqualTo("timeout");
    assertThat(verdict.get("reward").asDouble()).isZero();
    row.set("response", Json.parse("{\"output\": []}"));
    assertThat(harness.post("/verify", row, Map.of()).json().get("status").asString()).isEqualTo("empty_output");
  }

  @Test
  void extractionTakesTheLastPythonBlockAfterTheReasoning() {
    assertThat(BigCodeBench.extractCode("<think>```python\nx\n```</think>a\n```python\ny = 1\n```\n```\nz\n```"))
        .isEqualTo("y = 1");
    assertThat(BigCodeBench.extractCode("```python\nunclosed")).isEmpty();
    assertThat(BigCodeBench.extractCode("  plain text  ")).isEqualTo("plain text");
  }
}
