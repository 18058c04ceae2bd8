package dev.gym4j.environments.code_gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's code_gen (resources_servers/code_gen/app.py and lcb_integration/testing_util.py on main): the
 * recorded solutions are run for real in the sandbox against the recorded tests; the per-test results and the
 * failure metadata come out as NeMo Gym recorded them.
 */
class CodeGenTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "code_gen";
  }

  @Override
  protected String[] overrides() {
    return new String[] {"++code_gen.resources_servers.code_gen.unit_test_timeout_secs=2"};
  }

  @Test
  void perTestResultsAndFailureMetadataMatchTheRecordings() {
    List<JsonNode> rows = EnvironmentHarness.joined(Json.readLines(fixture("example_rollouts.jsonl")),
        Json.readLines(fixture("example.jsonl")));
    for (JsonNode row : rows) {
      JsonNode verdict = harness().verify(row);
      assertThat(verdict.get("result")).as("results").isEqualTo(row.get("result"));
      ObjectNode metadata = (ObjectNode) verdict.get("metadata").deepCopy();
      ObjectNode recorded = (ObjectNode) row.get("metadata").deepCopy();
      metadata.remove("execution time");
      recorded.remove("execution time");
      assertThat(metadata).isEqualTo(recorded);
      assertThat(verdict.get("extracted_model_code")).isEqualTo(row.get("extracted_model_code"));
    }
  }

  @Test
  void callBasedTestsTimeLimitsAndErrorsUseLiveCodeBenchsCodes() {
    String tests = """
        {"inputs": ["[1, 2]\\n3", "[5]\\n1", "[0]\\n0"], "outputs": ["6", "6", "0"], "fn_name": "addAll"}""";
    String solution = """
        class Solution:
            def addAll(self, xs, k):
                return sum(xs) + k
        """;
    assertThat(result(tests, solution)).isEqualTo(Json.parse("[true, true, true]"));
    assertThat(result(tests, solution.replace("sum(xs) + k", "sum(xs) + k if k != 1 else 0")))
        .isEqualTo(Json.parse("[true, false]"));
    assertThat(result(tests, solution.replace("return", "while k == 1: pass\n        return")))
        .isEqualTo(Json.parse("[true, -3]"));
    assertThat(result(tests, solution.replace("return sum(xs) + k", "return xs[7]"))).isEqualTo(Json.parse("[-4]"));
    assertThat(result(tests, "def (:")).isEqualTo(Json.parse("[-4]"));
  }

  @Test
  void standardInputTestsCompareLinesThenDecimals() {
    String tests = """
        {"inputs": ["2 3\\n", "1 1\\n"], "outputs": ["5.0\\n", "2\\n"]}""";
    assertThat(result(tests, "a, b = map(int, input().split())\nprint(a + b)")).isEqualTo(Json.parse("[true, true]"));
    assertThat(result(tests, "print(sqrt(16) + 1)")).isEqualTo(Json.parse("[true, -2]"));
  }

  @Test
  void withoutTwoFenceLinesThereIsNoCodeAndNoRun() {
    assertThat(CodeGen.extractCode("just text")).isEmpty();
    assertThat(CodeGen.extractCode("```python\nprint(1)\n```\nand\n```\nprint(2)\n```")).isEqualTo("print(2)");
  }

  private JsonNode result(String tests, String solution) {
    ObjectNode row = (ObjectNode) Json.parse("""
        {"responses_create_params": {"input": "q"}, "verifier_metadata": {"unit_tests": %s},
         "response": {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text",
         "text": %s}]}]}}""".formatted(tests, Json.write("```python\n" + solution + "\n```")));
    JsonNode verdict = harness().post("/verify", row, Map.of()).json();
    return verdict.get("result");
  }
}
