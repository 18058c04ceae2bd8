package dev.gym4j.environments.execute_python;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.ScriptedRecordings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * execute_python is gym4j's own, so nothing NeMo Gym recorded applies. {@code data/example_rollouts.jsonl} (what
 * {@code gym4j eval} replays) is gym4j's recording: the three example rows run through the live loop with a
 * scripted model ({@link #PROGRAMS}: one program per row, the third one wrong on purpose, then a closing answer),
 * every program run for real in the sandbox, as the environment answered.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExecutePythonTest {
  /** Per example row, the scripted model's program; the third sums the digits of 2**100, not 2**1000. */
  private static final List<String> PROGRAMS = List.of(
      "a, b = 1, 1\nfor _ in range(18):\n    a, b = b, a + b\nprint(b)",
      "n = 10000\nsieve = [True] * n\nsieve[0] = sieve[1] = False\nfor i in range(2, int(n ** 0.5) + 1):\n"
          + "    if sieve[i]:\n        sieve[i * i::i] = [False] * len(sieve[i * i::i])\nprint(sum(sieve))",
      "print(sum(int(d) for d in str(2 ** 100)))");
  private static final String RESPONSE = "\"responses_create_params\": {\"input\": \"q\"}, \"response\": {\"output\": []}";
  private EnvironmentHarness harness;

  @BeforeAll
  void start() {
    harness = EnvironmentHarness.start("execute_python");
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @Test
  void gym4jsRecordingIsTheScriptedModelsProgramsRunInTheSandbox() {
    List<JsonNode> rows = Json.readLines(Path.of("data", "example.jsonl"));
    List<ScriptedRecordings.Script> scripts = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      ArrayNode call = Json.array();
      call.addObject().put("type", "function_call").put("id", "fc_" + i).put("call_id", "call_" + i)
          .put("name", "execute_python").put("arguments", Json.write(Json.object().put("code", PROGRAMS.get(i))));
      ArrayNode answer = Json.array();
      answer.addObject().put("type", "message").put("role", "assistant").put("id", "msg_" + i)
          .putArray("content").addObject().put("type", "output_text").put("text", "The program printed the answer.")
          .putArray("annotations");
      scripts.add(new ScriptedRecordings.Script(rows.get(i), List.of(call, answer), List.of()));
    }
    List<JsonNode> made = ScriptedRecordings.record(harness, scripts);
    assertThat(made).extracting(row -> row.get("reward").asDouble()).containsExactly(1.0, 1.0, 0.0);
    ScriptedRecordings.check(Path.of("data", "example_rollouts.jsonl"), made);
  }

  /** As {@code gym4j eval --env execute_python} with no model: every program runs again, replay_model answers. */
  @Test
  void replayModelReplaysTheRecordingWithTheProgramsRunAgain() {
    List<JsonNode> recorded = Json.readLines(Path.of("data", "example_rollouts.jsonl"));
    try (EnvironmentHarness replaying = EnvironmentHarness.replaying("execute_python",
        List.of(Path.of("data", "example_rollouts.jsonl")))) {
      for (JsonNode row : recorded) {
        assertThat(replaying.replay(row).get("reward").asDouble()).isEqualTo(row.get("reward").asDouble());
      }
    }
  }

  @Test
  void aProgramRunsInTheSandboxAndTheLastOutputIsScored() {
    Map<String, String> session = harness.post("/seed_session", Json.parse("{}"), Map.of()).cookies();
    JsonNode run = harness.post("/execute_python", Json.parse(
        "{\"code\": \"import sys\\nprint(sum(map(int, sys.stdin.read().split())))\", \"stdin\": \"40 2\"}"), session)
        .json();
    assertThat(run.get("outcome").asString()).isEqualTo("exited");
    assertThat(run.get("exit_code").asInt()).isZero();
    assertThat(run.get("stdout").asString()).isEqualTo("42\n");
    JsonNode verdict = harness.post("/verify", Json.parse("{\"expected_output\": \"42\", " + RESPONSE + "}"), session)
        .json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void aLimitReachedIsReportedToTheModelByName() {
    Map<String, String> session = harness.post("/seed_session", Json.parse("{}"), Map.of()).cookies();
    JsonNode run = harness.post("/execute_python", Json.parse("{\"code\": \"while True:\\n    print('x' * 1000)\"}"),
        session).json();
    assertThat(run.get("outcome").asString()).isEqualTo("output_limit");
    JsonNode verdict = harness.post("/verify", Json.parse("{\"expected_output\": \"x\", " + RESPONSE + "}"), session)
        .json();
    assertThat(verdict.get("reward").asDouble()).isZero();
  }

  @Test
  void aRowWithoutExpectedOutputIsA422NamingTheField() {
    var reply = harness.post("/verify", Json.parse("{" + RESPONSE + "}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"expected_output\"]");
  }

  @Test
  void withoutBubblewrapTheServerRefusesToStartUnlessTheConfigOptsOutLoudly() {
    String missing = "++execute_python.resources_servers.execute_python.bubblewrap=/nonexistent/bwrap";
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnvironmentHarness.start("execute_python", missing).close())
        .hasStackTraceContaining("bubblewrap is not installed at /nonexistent/bwrap")
        .hasStackTraceContaining("sandbox: unsafe_subprocess");
    try (EnvironmentHarness unsafe = EnvironmentHarness.start("execute_python", missing,
        "++execute_python.resources_servers.execute_python.sandbox=unsafe_subprocess")) {
      Map<String, String> session = unsafe.post("/seed_session", Json.parse("{}"), Map.of()).cookies();
      JsonNode run = unsafe.post("/execute_python", Json.parse("{\"code\": \"print(6 * 7)\"}"), session).json();
      assertThat(run.get("stdout").asString()).isEqualTo("42\n");
    }
  }

  @Test
  void aSandboxModeThatDoesNotExistIsAConfigErrorNamingTheKey() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnvironmentHarness.start("execute_python",
        "++execute_python.resources_servers.execute_python.sandbox=docker").close())
        .hasStackTraceContaining("execute_python.sandbox: expected bubblewrap or unsafe_subprocess, got docker");
  }

  @Test
  void theToolIsOfferedWithItsSchema() {
    JsonNode tools = harness.client().get(harness.resourcesServer(), "/tools").json();
    assertThat(tools.get(0).get("name").asString()).isEqualTo("execute_python");
    assertThat(tools.get(0).at("/parameters/required").toString()).isEqualTo("[\"code\"]");
  }
}
