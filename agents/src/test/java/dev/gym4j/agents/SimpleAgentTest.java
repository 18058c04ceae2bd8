package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** simple_agent over real servers: the counter environment, vllm_model in training mode, a scripted model. */
class SimpleAgentTest {
  private static final String ROW = """
      {"responses_create_params": {"input": [{"role": "user", "content": "add 1 then 2"}],
        "tools": [{"type": "function", "name": "increment_counter", "parameters": {"type": "object",
          "properties": {"count": {"type": "integer"}}, "required": ["count"]}},
          {"type": "function", "name": "explode", "parameters": {"type": "object", "properties": {}}}]},
       "initial_count": 3, "expected_count": 6, "_ng_task_index": 0, "_ng_rollout_index": 0}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
  }

  private void deploy(String agentSettings) {
    deployment = Deployment.start(TestConfigs.load(dir, """
        client_initial_backoff_seconds: 0.01
        client_max_backoff_seconds: 0.02
        """ + TestConfigs.counterAgentYaml(model.baseUrl()) + agentSettings.indent(6)),
        Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    if (deployment != null) {
      deployment.close();
    }
    model.close();
  }

  private HttpReply run(String row) {
    return deployment.client().post("agent", "/run", Json.parse(row), Map.of());
  }

  @Test
  void aRolloutCallsToolsKeepsSessionStateAndIsVerified() {
    deploy("max_steps: 10\n");
    model.enqueue(Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("one first"),
        Answer.toolCall("increment_counter", "{\"count\": 2}"), Answer.text("Done: 6."));
    HttpReply reply = run(ROW);
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    JsonNode result = reply.json();
    assertThat(result.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(result.get("final_count").asInt()).isEqualTo(6);
    assertThat(result.get("expected_count").asInt()).isEqualTo(6);
    Response response = Response.of(result.get("response"));
    assertThat(response.output()).extracting(Item::type).containsExactly("reasoning", "function_call",
        "function_call_output", "function_call", "function_call_output", "message");
    assertThat(((FunctionCallOutput) response.output().get(2)).output()).isEqualTo("{\"count\":4}");

    long outputTokens = 0;
    List<Integer> seen = new ArrayList<>();
    for (Item item : response.output()) {
      if (item.hasTokenInfo()) {
        List<Integer> prompt = new ArrayList<>();
        item.json().get("prompt_token_ids").forEach(id -> prompt.add(id.asInt()));
        assertThat(prompt.subList(0, seen.size())).isEqualTo(seen);
        seen.clear();
        seen.addAll(prompt);
        item.json().get("generation_token_ids").forEach(id -> seen.add(id.asInt()));
        outputTokens += item.json().get("generation_token_ids").size();
      }
    }
    assertThat(response.usage().orElseThrow().outputTokens()).as("usage summed over 3 calls").isEqualTo(outputTokens);
  }

  @Test
  void badArgumentsUnknownToolsAndFailingToolsBecomeToolOutputsAndTheRolloutGoesOn() {
    deploy("max_steps: 10\n");
    model.enqueue(Answer.toolCall("increment_counter", "{\"count\": "), Answer.toolCall("no_such_tool", "{}"),
        Answer.toolCall("explode", "{}"), Answer.toolCall("increment_counter", "{\"count\": \"x\"}"),
        Answer.text("gave up"));
    HttpReply reply = run(ROW);
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    List<String> outputs = Response.of(reply.json().get("response")).output().stream()
        .filter(item -> item instanceof FunctionCallOutput).map(item -> ((FunctionCallOutput) item).output()).toList();
    assertThat(outputs).hasSize(4);
    assertThat(outputs.get(0)).startsWith("{\"error\":\"Invalid tool call arguments:");
    assertThat(outputs.get(1)).isEqualTo("{\"error\":\"Tool 'no_such_tool' does not exist. Available tools: "
        + "increment_counter, explode.\"}");
    // a tool that throws is a 500 that names no class (issue 14, item 7), as FastAPI's plain 500 does
    assertThat(outputs.get(2)).contains("Internal Server Error in counter").doesNotContain("Exception");
    assertThat(outputs.get(3)).contains("\"loc\":[\"body\",\"count\"]");
    assertThat(reply.json().get("reward").asDouble()).isZero();
  }

  @Test
  void aModelThatNeverStopsCallingToolsEndsAtMaxSteps() {
    deploy("max_steps: 4\n");
    model.otherwise(request -> Answer.toolCall("increment_counter", "{\"count\": 1}"));
    HttpReply reply = run(ROW);
    assertThat(reply.status()).isEqualTo(200);
    assertThat(model.calls()).isEqualTo(4);
    List<Item> output = Response.of(reply.json().get("response")).output();
    assertThat(output).hasSize(8);
    assertThat(output.getLast()).isInstanceOf(FunctionCallOutput.class);
    assertThat(reply.json().get("final_count").asInt()).isEqualTo(7);
  }

  @Test
  void anIncompleteResponseEndsTheLoop() {
    deploy("max_steps: 10\n");
    model.enqueue(Answer.contextLengthExceeded());
    HttpReply reply = run(ROW);
    assertThat(reply.status()).isEqualTo(200);
    assertThat(Response.of(reply.json().get("response")).isIncomplete()).isTrue();
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void aFailingModelIsATypedFailureNotAReward() {
    deploy("max_steps: 10\n");
    model.otherwise(request -> Answer.error(500, "{\"error\": \"engine died\"}"));
    HttpReply reply = run(ROW);
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("model_error");
    assertThat(reply.json().has("reward")).isFalse();
  }

  @Test
  void aRolloutPastItsDeadlineFailsAsTimeout() {
    deploy("rollout_timeout_seconds: 0.3\n");
    model.otherwise(request -> Answer.text("late").after(Duration.ofSeconds(3)));
    HttpReply reply = run(ROW);
    assertThat(reply.status()).isEqualTo(504);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("timeout");
  }

  @Test
  void theResponsesEndpointFoldsTheEpisodeAndSetsTheSessionCookies() {
    deploy("max_steps: 10\n");
    model.enqueue(Answer.toolCall("increment_counter", "{\"count\": 5}"), Answer.text("ok"));
    HttpReply reply = deployment.client().post("agent", "/v1/responses",
        Json.parse(ROW).get("responses_create_params"), Map.of());
    assertThat(reply.status()).isEqualTo(200);
    assertThat(Response.of(reply.json()).outputText()).isEqualTo("ok");
    assertThat(reply.cookies()).containsKeys("CounterEnvironment___counter", "VLLMModel___policy_model");
  }
}
