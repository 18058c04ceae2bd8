package dev.gym4j.environments.example_tool_call_multireward;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ExampleToolCallMultirewardTest extends RecordedRolloutsTest {
  private static final String TOOLS = "\"tools\": [{\"type\": \"function\", \"name\": \"get_weather\", \"parameters\": "
      + "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}}]";

  @Override
  protected String environment() {
    return "example_tool_call_multireward";
  }

  private JsonNode verify(String output) {
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\", " + TOOLS + "}, "
        + "\"expected_call\": {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, "
        + "\"response\": {\"output\": [" + output + "]}}"), Map.of()).json();
  }

  private static String call(String arguments) {
    return "{\"type\": \"function_call\", \"call_id\": \"c\", \"name\": \"get_weather\", \"arguments\": "
        + Json.write(Json.toTree(arguments)) + "}";
  }

  @Test
  void oneRightCallAndNothingElseScoresThree() {
    JsonNode verdict = verify(call("{\"city\": \"Paris\"}"));
    assertThat(verdict.get("reward").asDouble()).isEqualTo(3.0);
    assertThat(verdict.get("reward_components")).isEqualTo(Json.parse(
        "{\"correctness\": 1.0, \"schema_valid\": 1.0, \"format\": 1.0}"));
  }

  @Test
  void eachComponentFailsOnItsOwn() {
    String message = "{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", "
        + "\"text\": \"done\"}]}";
    assertThat(verify(call("{\"city\": \"Paris\"}") + "," + message).get("reward").asDouble()).isEqualTo(2.0);
    assertThat(verify(call("{\"city\": \"Oslo\"}")).get("correctness").asDouble()).isZero();
    assertThat(verify(call("{\"town\": \"Paris\"}")).get("schema_valid").asDouble()).isZero();
    assertThat(verify(call("{not json")).get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify(message).get("reward").asDouble()).isZero();
  }
}
