package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 31, defect 7: a model that calls tools thousands of times a turn had every call run (10,000 calls × 10 steps
 * made 100,000 tool executions in one rollout). simple_agent now runs at most max_tool_calls_per_turn calls of a
 * turn and max_tool_calls_per_rollout in all; each call past them gets a tool error as its output, which the model
 * sees. The model is a scripted one behind openai_model; the counter environment counts the calls it ran.
 */
class ToolCallLimitsTest {
  /** The counter starts at 0; every increment_counter call that runs adds 1. */
  private static final String ROW = """
      {"responses_create_params": {"input": [{"role": "user", "content": "count"}],
        "tools": [{"type": "function", "name": "increment_counter", "parameters": {"type": "object",
          "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]},
       "initial_count": 0, "expected_count": 0}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    deployment = AgentDeployments.deploy(dir, AgentDeployments.resources("counter", "test_counter"),
        AgentDeployments.openAiModel(model.baseUrl()),
        AgentDeployments.agent("capped", "simple_agent", "counter", "max_tool_calls_per_turn: 5",
            "max_tool_calls_per_rollout: 8"),
        AgentDeployments.agent("defaults", "simple_agent", "counter"));
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  private static Answer calls(int n) {
    Answer answer = Answer.toolCall("increment_counter", "{\"count\": 1}");
    for (int i = 1; i < n; i++) {
      answer = answer.withToolCall("increment_counter", "{\"count\": 1}");
    }
    return answer;
  }

  private JsonNode run(String agent) {
    HttpReply reply = deployment.client().post(agent, "/run", Json.parse(ROW), Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  private static List<String> toolOutputs(JsonNode result) {
    return Response.of(result.get("response")).output().stream().filter(FunctionCallOutput.class::isInstance)
        .map(item -> ((FunctionCallOutput) item).output()).toList();
  }

  @Test
  void calls_past_the_limits_of_a_turn_and_of_the_rollout_get_a_tool_error() {
    model.enqueue(calls(3_000), calls(3_000), Answer.text("done"));

    JsonNode result = run("capped");

    // 5 of the first turn, then 3 of the second: the rollout's 8
    assertThat(result.get("final_count").asInt()).isEqualTo(8);
    List<String> outputs = toolOutputs(result);
    assertThat(outputs).hasSize(6_000);
    assertThat(outputs.subList(0, 5)).containsExactly("{\"count\":1}", "{\"count\":2}", "{\"count\":3}",
        "{\"count\":4}", "{\"count\":5}");
    assertThat(Json.parse(outputs.get(5)).get("error").asString()).isEqualTo("Tool call not run: the model made "
        + "more than 5 tool calls in one turn (max_tool_calls_per_turn).");
    assertThat(outputs.subList(3_000, 3_003)).containsExactly("{\"count\":6}", "{\"count\":7}", "{\"count\":8}");
    assertThat(Json.parse(outputs.get(3_003)).get("error").asString()).isEqualTo("Tool call not run: the model "
        + "made more than 8 tool calls in this rollout (max_tool_calls_per_rollout).");
    assertThat(outputs.subList(3_004, 6_000)).allSatisfy(output -> assertThat(output).contains("Tool call not run"));
    // the model saw the errors: its third turn's input holds them
    assertThat(model.received()).hasSize(3);
    assertThat(model.received().getLast().body().toString()).contains("max_tool_calls_per_rollout");
  }

  @Test
  void by_default_a_turn_runs_at_most_128_calls() {
    model.enqueue(calls(5_000), Answer.text("done"));

    JsonNode result = run("defaults");

    assertThat(result.get("final_count").asInt()).isEqualTo(128);
    List<String> outputs = toolOutputs(result);
    assertThat(outputs).hasSize(5_000);
    assertThat(outputs.get(128)).contains("more than 128 tool calls in one turn");
  }
}
