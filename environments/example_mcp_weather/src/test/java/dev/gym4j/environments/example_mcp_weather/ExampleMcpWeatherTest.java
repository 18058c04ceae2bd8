package dev.gym4j.environments.example_mcp_weather;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/example_mcp_weather/app.py and tests/test_app.py (main), and its recorded
 * rollouts. The replay runs simple_agent with {@code tools_from_mcp}: every tool call of the replay goes over MCP.
 */
class ExampleMcpWeatherTest extends RecordedFieldsTest {
  private static final String NEMO_GYM_FILE = "example_rollouts_nemo_gym.jsonl";

  @Override
  protected String environment() {
    return "example_mcp_weather";
  }

  @Override
  protected List<String> verifyFields() {
    return List.of("expected_weather", "tool_call_seen", "final_response_mentions_weather");
  }

  /**
   * NeMo Gym's file as it is: its tool outputs are the bare sentence, which neither NeMo Gym's HTTP route nor its
   * MCP endpoint gives (both answer {@code {"weather": …}}), so replay_model could not continue it past the tool
   * call. Through /verify (the recorded calls re-run) every row gets its reward and verify fields.
   */
  @Test
  void nemoGymsOwnRecordingVerifiesToItsRewardsAndFields() {
    List<JsonNode> rows = EnvironmentHarness.joined(Json.readLines(fixture(NEMO_GYM_FILE)),
        Json.readLines(fixture("example.jsonl")));
    assertThat(rows).hasSize(5);
    for (JsonNode row : rows) {
      ObjectNode task = ((ObjectNode) row).deepCopy();
      task.remove(verifyFields());
      task.remove("reward");
      JsonNode verdict = harness().verify(task);
      assertThat(verdict.get("reward").asDouble()).isEqualTo(row.get("reward").asDouble());
      for (String field : verifyFields()) {
        assertThat(verdict.get(field)).as(field).isEqualTo(row.get(field));
      }
    }
    System.out.printf("conformance example_mcp_weather (%s as NeMo Gym wrote it): %d/%d through /verify%n",
        NEMO_GYM_FILE, rows.size(), rows.size());
  }

  /** The shipped example_rollouts.jsonl is NeMo Gym's with each tool output as NeMo Gym main's tool writes it. */
  @Test
  void theReplayedRecordingDiffersOnlyInTheToolOutputsOurToolGives() {
    List<JsonNode> nemoGym = Json.readLines(fixture(NEMO_GYM_FILE));
    List<JsonNode> shipped = Json.readLines(fixture("example_rollouts.jsonl"));
    assertThat(shipped).hasSize(nemoGym.size());
    for (int i = 0; i < shipped.size(); i++) {
      ObjectNode expected = (ObjectNode) nemoGym.get(i).deepCopy();
      for (JsonNode item : expected.at("/response/output")) {
        if ("function_call_output".equals(item.path("type").asString(""))) {
          String city = expected.at("/verifier_metadata/expected_city").asString();
          ((ObjectNode) item).put("output", Json.write(toolAnswer(city)));
        }
      }
      assertThat(shipped.get(i)).isEqualTo(expected);
    }
  }

  private JsonNode toolAnswer(String city) {
    Map<String, String> cookies = harness().post("/seed_session", Json.object(), Map.of()).cookies();
    return harness().post("/get_weather", Json.parse("{\"city\": \"" + city + "\"}"), cookies).json();
  }

  @Test
  void aToolCallIsScoredOnlyInTheSessionThatMadeIt() {
    Map<String, String> one = seed("Paris");
    Map<String, String> two = seed("Paris");
    assertThat(harness().post("/get_weather", Json.parse("{\"city\": \"Paris\"}"), one).json())
        .isEqualTo(Json.parse("{\"weather\": \"The weather in Paris is sunny and 72 F.\"}"));
    JsonNode other = verify("Paris", "The weather in Paris is sunny and 72 F.", two);
    assertThat(other.get("reward").asDouble()).isZero();
    assertThat(other.get("tool_call_seen").asBoolean()).isFalse();
    assertThat(other.get("final_response_mentions_weather").asBoolean()).isTrue();
    JsonNode same = verify("Paris", "The weather in Paris is sunny and 72 F.", one);
    assertThat(same.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(same.get("expected_weather").asString()).isEqualTo("The weather in Paris is sunny and 72 F.");
  }

  @Test
  void aCallForTheCityInAnotherCaseCounts() {
    Map<String, String> cookies = seed("Paris");
    harness().post("/get_weather", Json.parse("{\"city\": \"PARIS\"}"), cookies);
    JsonNode verdict = verify("Paris", "Sure: THE WEATHER IN PARIS IS SUNNY AND 72 F.", cookies);
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void anAnswerWithoutTheSentenceGetsZero() {
    Map<String, String> cookies = seed("Tokyo");
    harness().post("/get_weather", Json.parse("{\"city\": \"Tokyo\"}"), cookies);
    JsonNode verdict = verify("Tokyo", "It is sunny in Tokyo.", cookies);
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("tool_call_seen").asBoolean()).isTrue();
    assertThat(verdict.get("final_response_mentions_weather").asBoolean()).isFalse();
  }

  @Test
  void seedSessionHandsOutTheMcpEndpointAndTheRolloutsToken() {
    var reply = harness().post("/seed_session", Json.parse("{\"verifier_metadata\": {\"expected_city\": \"Paris\"}}"),
        Map.of());
    JsonNode mcp = reply.json().get("mcp");
    assertThat(mcp.get("server_name").asString()).isEqualTo("example_mcp_weather");
    assertThat(mcp.get("url_path").asString()).isEqualTo("/mcp");
    assertThat(mcp.get("transport").asString()).isEqualTo("http");
    assertThat(mcp.at("/headers/X-NeMo-Gym-Session-Token").asString()).isNotBlank();
  }

  @Test
  void aMissingCityIsA422NamingIt() {
    var reply = harness().post("/get_weather", Json.object(), seed("Paris"));
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"city\"]");
  }

  private Map<String, String> seed(String city) {
    return harness().post("/seed_session", Json.parse("{\"verifier_metadata\": {\"expected_city\": \"" + city
        + "\"}}"), Map.of()).cookies();
  }

  static ObjectNode verifyRequest(String city, String answer) {
    ObjectNode request = (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"user\", "
        + "\"content\": \"use the weather tool\"}]}, \"response\": {\"id\": \"resp_1\", \"created_at\": 0, \"model\": "
        + "\"test\", \"object\": \"response\", \"output\": [{\"id\": \"msg_1\", \"type\": \"message\", \"role\": "
        + "\"assistant\", \"status\": \"completed\", \"content\": [{\"type\": \"output_text\", \"annotations\": []}]}], "
        + "\"parallel_tool_calls\": false, \"tool_choice\": \"none\", \"tools\": []}}");
    ((ObjectNode) request.at("/response/output/0/content/0")).put("text", answer);
    request.putObject("verifier_metadata").put("expected_city", city);
    return request;
  }

  private JsonNode verify(String city, String answer, Map<String, String> cookies) {
    return harness().post("/verify", verifyRequest(city, answer), cookies).json();
  }
}
