package dev.gym4j.environments.example_multi_step;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ExampleMultiStepTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "example_multi_step";
  }

  private JsonNode verify(String... calls) {
    StringBuilder output = new StringBuilder();
    for (String arguments : calls) {
      output.append(output.isEmpty() ? "" : ",").append("{\"type\": \"function_call\", \"call_id\": \"c\", "
          + "\"name\": \"extract_synonym_values\", \"arguments\": ").append(Json.write(Json.toTree(arguments))).append("}");
    }
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"expected_synonym_values\": [711, 407], \"minefield_label_value\": 299, \"response\": {\"output\": ["
        + output + "]}}"), Map.of()).json();
  }

  @Test
  void theValueOfASynonymIsTheSumOfItsCodePoints() {
    assertThat(harness().post("/get_synonym_value", Json.parse("{\"synonym\": \"Blazing\"}"), Map.of()).json()
        .get("synonym_value").asLong()).isEqualTo(711);
    assertThat(harness().post("/get_synonym_value", Json.parse("{\"synonym\": \"é\"}"), Map.of()).json()
        .get("synonym_value").asLong()).isEqualTo(233);
  }

  @Test
  void onlyTheLastReportCountsAndOrderMatters() {
    assertThat(verify("{\"synonym_values\": [1]}", "{\"synonym_values\": [711, 407]}").get("reward").asDouble())
        .isEqualTo(1.0);
    JsonNode reversed = verify("{\"synonym_values\": [407, 711]}");
    assertThat(reversed.get("reward").asDouble()).isZero();
    assertThat(reversed.get("order_instruction_following_failure").asBoolean()).isTrue();
    JsonNode partial = verify("{\"synonym_values\": [711, 299]}");
    assertThat(partial.get("set_overlap").asDouble()).isEqualTo(0.5);
    assertThat(partial.get("original_term_minefield_hit").asBoolean()).isTrue();
  }

  @Test
  void noReportOrABrokenOneGetsZero() {
    assertThat(verify().get("reward").asDouble()).isZero();
    assertThat(verify("{\"synonym_values\": [711,").get("parsed_synonym_values")).isEmpty();
  }
}
