package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.head.InstanceRecord;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Metrics;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Response;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 14, items 1 and 2: a model's tool calls reach only the tools its request offers. The model is a
 * {@link ScriptedUpstream} behind {@code openai_model} that calls hostile tool names on purpose; every
 * server is real, on an ephemeral port. NeMo Gym's {@code responses_api_agents/simple_agent/app.py} posts
 * any name to {@code /<name>}; we refuse on purpose (see agents/README.md).
 */
class HostileToolCallsTest {
  /** Offers increment_counter only; the counter starts at 3 and the task wants 6. */
  private static final String ROW = """
      {"responses_create_params": {"input": [{"role": "user", "content": "add 3"}],
        "tools": [{"type": "function", "name": "increment_counter", "parameters": {"type": "object",
          "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]},
       "initial_count": 3, "expected_count": 6}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    deployment = AgentDeployments.deploy(dir, AgentDeployments.resources("counter", "test_counter"),
        AgentDeployments.openAiModel(model.baseUrl()),
        AgentDeployments.agent("agent", "simple_agent", "counter", "max_steps: 20"));
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  @Test
  void a_tool_name_that_is_a_network_path_reaches_no_other_host_issue_14() {
    int headPort = deployment.head().url().getPort();
    String counterUrl = deployment.head().registry().get("counter").orElseThrow().url();
    String evil = "{\"process_name\": \"counter\", \"url\": \"http://127.0.0.1:9\"}";
    // the model server's own port: a request that got there would be counted as a model call
    String modelPath = "/127.0.0.1:" + model.root().getPort() + "/v1/responses";
    List<String> names = List.of("/127.0.0.1:" + headPort + "/server_instances", modelPath,
        "http://127.0.0.1:" + headPort + "/server_instances", "../server_instances", "%2e%2e/verify",
        "increment_counter/../verify", "increment counter", "increment_counter?count=100", "x".repeat(65));
    for (String name : names) {
      model.enqueue(Answer.toolCall(name, name.contains("server_instances") ? evil : "{\"count\": 100}"));
    }
    model.enqueue(Answer.text("done"));

    JsonNode result = run(ROW);

    assertThat(model.calls()).as("no tool call reached the model server").isEqualTo(names.size() + 1);
    InstanceRecord counter = deployment.head().registry().get("counter").orElseThrow();
    assertThat(counter.url()).as("the head server's registry is unchanged").isEqualTo(counterUrl);
    List<String> outputs = toolOutputs(result);
    assertThat(outputs).hasSize(names.size()).allSatisfy(output -> assertThat(Json.parse(output).get("error")
        .asString()).contains("does not exist. Available tools: increment_counter."));
    assertThat(outputs.getLast()).contains("'" + "x".repeat(64)).doesNotContain("x".repeat(81));
    assertThat(result.get("final_count").asInt()).isEqualTo(3);
    assertThat(result.get("reward").asDouble()).isZero();
  }

  @Test
  void seed_session_as_a_tool_cannot_reset_the_task_issue_14() {
    long seeds = requests("/seed_session");
    model.enqueue(Answer.toolCall("seed_session", "{\"initial_count\": 6}"), Answer.text("6"));

    JsonNode result = run(ROW);

    assertThat(result.get("final_count").asInt()).isEqualTo(3);
    assertThat(result.get("reward").asDouble()).as("without the fix seed_session made this 1.0").isZero();
    assertThat(settled("/seed_session", seeds + 1)).as("only the agent's own seed").isEqualTo(seeds + 1);
    assertThat(toolOutputs(result).getFirst()).contains("Tool 'seed_session' does not exist");
  }

  @Test
  void verify_and_aggregate_metrics_are_not_tools_even_when_a_row_offers_them_issue_14() {
    ObjectNode row = (ObjectNode) Json.parse(ROW);
    for (String route : List.of("seed_session", "verify", "aggregate_metrics", "reset", "step")) {
      ((tools.jackson.databind.node.ArrayNode) row.at("/responses_create_params/tools"))
          .addObject().put("type", "function").put("name", route).putObject("parameters").put("type", "object");
    }
    long verifies = requests("/verify");
    long aggregates = requests("/aggregate_metrics");
    String verifyBody = Json.write(row.deepCopy().set("response", Json.parse("{\"output\": []}")));
    model.enqueue(Answer.toolCall("verify", verifyBody),
        Answer.toolCall("aggregate_metrics", "{\"verify_responses\": [{\"reward\": 1.0}]}"),
        Answer.toolCall("seed_session", "{\"initial_count\": 6}"), Answer.toolCall("increment_counter",
            "{\"count\": 1}"), Answer.text("done"));

    JsonNode result = run(Json.write(row));

    List<String> outputs = toolOutputs(result);
    assertThat(outputs.get(0)).contains("Tool 'verify' does not exist").doesNotContain("reward");
    assertThat(outputs.get(1)).contains("Tool 'aggregate_metrics' does not exist").doesNotContain("mean");
    assertThat(outputs.get(2)).contains("Tool 'seed_session' does not exist");
    assertThat(outputs.get(3)).isEqualTo("{\"count\":4}");
    assertThat(settled("/verify", verifies + 1)).as("only the agent's own verify").isEqualTo(verifies + 1);
    assertThat(requests("/aggregate_metrics")).isEqualTo(aggregates);
    assertThat(result.get("reward").asDouble()).isZero();
  }

  @Test
  void a_declared_tool_the_request_does_not_offer_is_refused_and_the_rollout_goes_on_issue_14() {
    model.enqueue(Answer.toolCall("explode", "{}"), Answer.toolCall("increment_counter", "{\"count\": 3}"),
        Answer.text("6"));

    JsonNode result = run(ROW);

    assertThat(toolOutputs(result)).containsExactly(
        "{\"error\":\"Tool 'explode' does not exist. Available tools: increment_counter.\"}", "{\"count\":6}");
    assertThat(result.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void the_responses_endpoint_refuses_the_same_calls_issue_14() {
    String counterUrl = deployment.head().registry().get("counter").orElseThrow().url();
    model.enqueue(Answer.toolCall("/127.0.0.1:" + deployment.head().url().getPort() + "/server_instances",
        "{\"process_name\": \"counter\", \"url\": \"http://127.0.0.1:9\"}"), Answer.toolCall("verify", "{}"),
        Answer.text("done"));

    HttpReply reply = deployment.client().post("agent", "/v1/responses", Json.parse(ROW).get("responses_create_params"),
        Map.of());

    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    assertThat(Response.of(reply.json()).output().stream().filter(FunctionCallOutput.class::isInstance)
        .map(item -> ((FunctionCallOutput) item).output())).allSatisfy(output -> assertThat(output)
        .contains("does not exist"));
    assertThat(deployment.head().registry().get("counter").orElseThrow().url()).isEqualTo(counterUrl);
    assertThat(model.calls()).isEqualTo(3);
  }

  private JsonNode run(String row) {
    HttpReply reply = deployment.client().post("agent", "/run", Json.parse(row), Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  private static List<String> toolOutputs(JsonNode result) {
    return Response.of(result.get("response")).output().stream().filter(FunctionCallOutput.class::isInstance)
        .map(item -> ((FunctionCallOutput) item).output()).toList();
  }

  /** POSTs the counter environment has answered on a route, from its request metrics. */
  static long requests(String route) {
    return Metrics.REGISTRY.find("gym4j.requests").tag("server", "counter").tag("route", route).timers().stream()
        .mapToLong(Timer::count).sum();
  }

  /**
   * The count of a route once it has reached {@code expected} (or after 5 s) and a moment later: a server
   * records a request just after it answered, so the caller can see the answer before the count.
   */
  private static long settled(String route, long expected) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    try {
      while (requests(route) < expected && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return requests(route);
  }
}
