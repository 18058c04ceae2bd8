package dev.gym4j.environments.example_single_tool_call;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The environment from its own config.yaml, replaying NeMo Gym's recorded rollouts against it. */
class ExampleSingleToolCallTest {
  private static Deployment deployment;
  private static ServerClient client;

  @BeforeAll
  static void start() {
    var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of())
        .load(List.of("+config_paths=[environments/example_single_tool_call/config.yaml]", "++head_server.port=0",
            // the environment alone: its agent needs a policy model, which these tests do not use
            "~example_single_tool_call_simple_agent"));
    deployment = Deployment.start(config, Implementations.load(), Set.of());
    client = deployment.client();
  }

  @AfterAll
  static void stop() {
    deployment.close();
  }

  @Test
  void recordedRolloutsGetTheRecordedToolOutputsAndRewards() {
    Path rollouts = Fixtures.environment("example_single_tool_call").resolve("example_rollouts.jsonl");
    int toolCalls = 0;
    for (JsonNode row : Json.readLines(rollouts)) {
      ObjectNode task = ((ObjectNode) row).deepCopy();
      task.remove(List.of("response", "reward"));
      Map<String, String> cookies = new HashMap<>(post("/seed_session", task, Map.of()).cookies());
      Response response = Response.of(row.get("response"));
      Map<String, String> recordedOutputs = new HashMap<>();
      for (Item item : response.output()) {
        if (item instanceof FunctionCallOutput output) {
          recordedOutputs.put(output.callId(), output.output());
        }
      }
      for (Item item : response.output()) {
        if (item instanceof FunctionCall call) {
          HttpReply reply = post("/" + call.name(), Json.parse(call.arguments()), cookies);
          cookies.putAll(reply.cookies());
          assertThat(reply.status()).isEqualTo(200);
          assertThat(reply.json()).isEqualTo(Json.parse(recordedOutputs.get(call.callId())));
          toolCalls++;
        }
      }
      ObjectNode verify = task.deepCopy();
      verify.set("response", row.get("response"));
      HttpReply verdict = post("/verify", verify, cookies);
      assertThat(verdict.status()).isEqualTo(200);
      assertThat(verdict.json().get("reward").asDouble()).isEqualTo(row.get("reward").asDouble());
      assertThat(verdict.json().get("response")).isEqualTo(row.get("response"));
    }
    assertThat(toolCalls).isEqualTo(3);
  }

  @Test
  void exampleDataRowsAreValidRequestsOfferingTheTool() {
    Path data = Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl");
    List<JsonNode> rows = Json.readLines(data);
    assertThat(rows).hasSizeGreaterThanOrEqualTo(5);
    for (JsonNode row : rows) {
      ResponseCreateParams params = ResponseCreateParams.of(row.get("responses_create_params"));
      assertThat(params.tools().get(0).get("name").asString()).isEqualTo("get_weather");
    }
  }

  @Test
  void aCallWithoutACityIsA422NamingIt() {
    HttpReply reply = post("/get_weather", Json.parse("{\"town\": \"Paris\"}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"city\"]");
    HttpReply wrongType = post("/get_weather", Json.parse("{\"city\": [\"Paris\"]}"), Map.of());
    assertThat(wrongType.status()).isEqualTo(422);
    assertThat(wrongType.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"city\"]");
  }

  private static HttpReply post(String path, JsonNode body, Map<String, String> cookies) {
    return client.post("example_single_tool_call", path, body, cookies);
  }
}
