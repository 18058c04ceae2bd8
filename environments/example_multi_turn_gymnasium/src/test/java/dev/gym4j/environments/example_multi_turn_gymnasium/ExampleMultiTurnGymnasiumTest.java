package dev.gym4j.environments.example_multi_turn_gymnasium;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ExampleMultiTurnGymnasiumTest extends RecordedRolloutsTest {
  private static final String ROW = "{\"responses_create_params\": {\"input\": \"capital of France?\"}, "
      + "\"follow_ups\": [\"landmark?\"], \"expected_answer\": \"Eiffel\"}";

  @Override
  protected String environment() {
    return "example_multi_turn_gymnasium";
  }

  @Override
  protected boolean gymnasium() {
    return true;
  }

  @Override
  protected String taskFile() {
    return "example_rollouts_materialized_inputs.jsonl";
  }

  @Test
  void followUpsComeInOrderThenTheLastAnswerIsChecked() {
    var cookies = harness().post("/reset", Json.parse(ROW), Map.of()).cookies();
    JsonNode first = step("Paris.", cookies);
    assertThat(first.get("observation").asString()).isEqualTo("landmark?");
    assertThat(first.get("terminated").asBoolean()).isFalse();
    JsonNode last = step("The EIFFEL tower.", cookies);
    assertThat(last.get("terminated").asBoolean()).isTrue();
    assertThat(last.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void aWrongLastAnswerGetsZero() {
    var cookies = harness().post("/reset", Json.parse(ROW), Map.of()).cookies();
    step("Paris.", cookies);
    assertThat(step("The Louvre.", cookies).get("reward").asDouble()).isZero();
  }

  private JsonNode step(String answer, Map<String, String> cookies) {
    ObjectNode request = (ObjectNode) Json.parse(ROW);
    request.set("response", Json.parse("{\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": \"" + answer + "\"}]}]}"));
    return harness().post("/step", request, cookies).json();
  }
}
