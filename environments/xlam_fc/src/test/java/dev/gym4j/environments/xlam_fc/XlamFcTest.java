package dev.gym4j.environments.xlam_fc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class XlamFcTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "xlam_fc";
  }

  private JsonNode verify(String expected, String... calls) {
    StringBuilder output = new StringBuilder();
    for (String call : calls) {
      int bar = call.indexOf('|');
      output.append(output.isEmpty() ? "" : ",").append("{\"type\": \"function_call\", \"call_id\": \"c\", \"name\": \"")
          .append(call, 0, bar).append("\", \"arguments\": ").append(Json.write(Json.toTree(call.substring(bar + 1))))
          .append("}");
    }
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"expected_answers\": "
        + expected + ", \"response\": {\"output\": [" + output + "]}}"), Map.of()).json();
  }

  @Test
  void everyExpectedCallMatchedAndNothingElse() {
    String expected = "[{\"name\": \"f\", \"arguments\": {\"x\": 1}}, {\"name\": \"f\", \"arguments\": {\"x\": 2}}]";
    assertThat(verify(expected, "f|{\"x\": 2}", "f|{\"x\": 1.0, \"extra\": true}").get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify(expected, "f|{\"x\": 1}").get("reward").asDouble()).isZero();
    JsonNode extra = verify(expected, "f|{\"x\": 1}", "f|{\"x\": 2}", "g|{}");
    assertThat(extra.get("reward").asDouble()).isZero();
    assertThat(extra.get("num_correct").asInt()).isEqualTo(2);
    assertThat(verify(expected, "f|{\"x\": 1}", "f|{\"x\": true}").get("num_correct").asInt()).isEqualTo(1);
  }

  @Test
  void noExpectedCallsMeansNoCallsAndBrokenArgumentsCountAsNone() {
    assertThat(verify("[]").get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify("[]", "f|{}").get("reward").asDouble()).isZero();
    JsonNode broken = verify("[{\"name\": \"f\", \"arguments\": {}}]", "f|{oops");
    assertThat(broken.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(broken.at("/predicted_calls/0/arguments")).isEqualTo(Json.object());
  }
}
