package dev.gym4j.environments.execute_python;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExecutePythonTest {
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
