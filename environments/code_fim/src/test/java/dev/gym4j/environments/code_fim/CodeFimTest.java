package dev.gym4j.environments.code_fim;

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
 * NeMo Gym's code_fim (resources_servers/code_fim/app.py on main; HumanEval-Infilling's check_correctness): the
 * recorded completions are spliced and run for real in the sandbox; the statuses (exception and line included)
 * come out as NeMo Gym recorded them.
 */
class CodeFimTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "code_fim";
  }

  @Test
  void completionsAndStatusesMatchTheRecordings() {
    List<JsonNode> rows = EnvironmentHarness.joined(Json.readLines(fixture("example_rollouts.jsonl")),
        Json.readLines(fixture("example.jsonl")));
    for (JsonNode row : rows) {
      JsonNode verdict = harness().verify(row);
      assertThat(verdict.path("completion")).as("completion").isEqualTo(row.path("completion").isNull()
          ? verdict.path("completion") : row.get("completion"));
      if (row.path("status").isString()) {
        assertThat(verdict.get("status").asString()).isEqualTo(row.get("status").asString());
      } else {
        assertThat(verdict.path("status").isString()).isFalse();
      }
    }
  }

  @Test
  void theCanonicalMiddlePassesAndALoopTimesOut() {
    // RandomSpanInfilling/HumanEval/2/1: the prefix ends with "return num", the suffix is "% 1.0\n"
    ObjectNode row = (ObjectNode) Json.parse("""
        {"responses_create_params": {"input": "q"}, "verifier_metadata": {"task_id": "RandomSpanInfilling/HumanEval/2/1"},
         "response": {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text",
         "text": "x"}]}]}}""");
    String prefix = Json.readLines(java.nio.file.Path.of("src/main/resources/dev/gym4j/environments/code_fim",
        CodeFim.EXAMPLE_PROBLEMS)).stream().filter(p -> p.get("task_id").asString().endsWith("/2/1")).findFirst()
        .orElseThrow().get("prompt").asString();
    assertThat(prefix).endsWith("return num");
    answer(row, "```python\nber ```");
    assertThat(harness().post("/verify", row, Map.of()).json().get("status").asString()).isEqualTo("passed");
    answer(row, "```python\n\nwhile True: pass\n```");
    JsonNode verdict = harness().post("/verify", row, Map.of()).json();
    assertThat(verdict.get("status").asString()).startsWith("failed: ");
    answer(row, "```python\nber if sum(1 for _ in iter(int, 1)) else number ```");
    verdict = harness().post("/verify", row, Map.of()).json();
    assertThat(verdict.get("status").asString()).isEqualTo("timed out");
    assertThat(verdict.get("reward").asDouble()).isZero();
  }

  @Test
  void overlapWithThePrefixAndTheSuffixIsCut() {
    assertThat(CodeFim.postprocess("\n    x = 1\n    return x\n", "def f():\n    x", "    return x\n"))
        .isEqualTo(" = 1\n");
    assertThat(CodeFim.cutRepeatedPrefix("abc if", " if x:")).isEqualTo(" x:");
    assertThat(CodeFim.cutRepeatedPrefix("abc ", " x")).isEqualTo(" x");
    assertThat(CodeFim.cutRepeatedSuffix("y = 2\nreturn y", "return y\n")).isEqualTo("y = 2\n");
  }

  private static void answer(ObjectNode row, String text) {
    ((ObjectNode) row.at("/response/output/0/content/0")).put("text", text);
  }
}
