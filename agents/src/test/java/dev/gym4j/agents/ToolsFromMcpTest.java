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
 * simple_agent with {@code tools_from_mcp: true}: the tools come from the resources server's {@code /mcp}
 * (expose_tools_over_mcp there), calls go as MCP tools/call in the rollout's session, and the same trust rules hold as
 * for tools a row offers: protocol routes are never tools, and nothing a peer says chooses a host or a header.
 */
class ToolsFromMcpTest {
  private static final String ROW = """
      {"responses_create_params": {"input": [{"role": "user", "content": "add 3"}], "tools": []},
       "initial_count": 3, "expected_count": 6}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    HostileMcpPeer.CALLS.clear();
    model = ScriptedUpstream.start();
    deployment = AgentDeployments.deploy(dir,
        AgentDeployments.resources("counter", "test_counter", "expose_tools_over_mcp: true"),
        AgentDeployments.resources("evil", "test_hostile_mcp"), AgentDeployments.openAiModel(model.baseUrl()),
        AgentDeployments.agent("agent", "simple_agent", "counter", "tools_from_mcp: true"),
        AgentDeployments.agent("evil_agent", "simple_agent", "evil", "tools_from_mcp: true", "max_steps: 10"));
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  @Test
  void theModelIsOfferedTheMcpToolsAndItsCallsRunInTheRolloutsSession() {
    model.enqueue(Answer.toolCall("verify", "{}"), Answer.toolCall("seed_session", "{\"initial_count\": 6}"),
        Answer.toolCall("increment_counter", "{\"count\": 3}"), Answer.text("6"));

    JsonNode result = run("agent", ROW);

    JsonNode offered = model.received().getFirst().body().get("tools");
    assertThat(offered.findValuesAsString("name")).contains("increment_counter", "get_counter_value", "explode")
        .doesNotContain("verify", "seed_session", "aggregate_metrics");
    List<String> outputs = toolOutputs(result);
    assertThat(outputs.get(0)).contains("Tool 'verify' does not exist");
    assertThat(outputs.get(1)).contains("Tool 'seed_session' does not exist");
    assertThat(Json.parse(outputs.get(2))).isEqualTo(Json.parse("{\"count\": 6}"));
    assertThat(result.get("final_count").asInt()).isEqualTo(6);
    assertThat(result.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void aHostilePeerChoosesNoToolNameHostOrHeaderAndItsStreamIsReadForTheRightId() {
    model.enqueue(Answer.toolCall("../verify", "{}"), Answer.toolCall("a/b", "{}"),
        Answer.toolCall("ok_tool", "{}"), Answer.text("done"));

    JsonNode result = run("evil_agent", ROW);

    JsonNode offered = model.received().getFirst().body().get("tools");
    assertThat(offered.findValuesAsString("name")).containsExactly("ok_tool");
    List<String> outputs = toolOutputs(result);
    assertThat(outputs.get(0)).contains("does not exist");
    assertThat(outputs.get(1)).contains("does not exist");
    assertThat(outputs.get(2)).isEqualTo("ok_tool ran");
    // the token went back, the planted Authorization did not, and the call went to the configured server's /mcp
    assertThat(HostileMcpPeer.CALLS).containsExactly("ok_tool " + HostileMcpPeer.TOKEN + " -");
    assertThat(result.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void aResourcesServerWithoutMcpFailsTheRolloutAsAResourcesError() throws java.io.IOException {
    java.nio.file.Files.createDirectories(dir.resolve("plain"));
    Deployment plain = AgentDeployments.deploy(dir.resolve("plain"),
        AgentDeployments.resources("counter", "test_counter"),
        AgentDeployments.openAiModel(model.baseUrl()),
        AgentDeployments.agent("agent", "simple_agent", "counter", "tools_from_mcp: true"));
    try (plain) {
      HttpReply reply = plain.client().post("agent", "/run", Json.parse(ROW), Map.of());
      assertThat(reply.status()).isEqualTo(502);
      assertThat(reply.text()).contains("expose_tools_over_mcp").contains("resources_error");
      assertThat(model.calls()).isZero();
    }
  }

  private JsonNode run(String agent, String row) {
    HttpReply reply = deployment.client().post(agent, "/run", Json.parse(row), Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  private static List<String> toolOutputs(JsonNode result) {
    return Response.of(result.get("response")).output().stream().filter(FunctionCallOutput.class::isInstance)
        .map(item -> ((FunctionCallOutput) item).output()).toList();
  }
}
