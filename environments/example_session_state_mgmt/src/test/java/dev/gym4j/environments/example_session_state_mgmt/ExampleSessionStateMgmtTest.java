package dev.gym4j.environments.example_session_state_mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ExampleSessionStateMgmtTest extends RecordedRolloutsTest {
  private static final String RESPONSE = ", \"responses_create_params\": {\"input\": \"q\"}, \"response\": {\"output\": []}}";

  @Override
  protected String environment() {
    return "example_session_state_mgmt";
  }

  @Test
  void theCounterIsKeptPerRolloutAndChecked() {
    Map<String, String> one = new HashMap<>(harness().post("/seed_session", Json.parse("{\"initial_count\": 3}"), Map.of())
        .cookies());
    Map<String, String> two = harness().post("/seed_session", Json.parse("{\"initial_count\": 10}"), Map.of()).cookies();
    assertThat(harness().post("/increment_counter", Json.parse("{\"count\": 3}"), one).json())
        .isEqualTo(Json.parse("{\"success\": true}"));
    assertThat(harness().post("/get_counter_value", Json.parse("{}"), one).json().get("count").asLong()).isEqualTo(6);
    assertThat(harness().post("/get_counter_value", Json.parse("{}"), two).json().get("count").asLong()).isEqualTo(10);
    assertThat(reward("{\"expected_count\": 6" + RESPONSE, one)).isEqualTo(1.0);
    assertThat(reward("{\"expected_count\": 11" + RESPONSE, two)).isZero();
  }

  @Test
  void aRolloutThatWasNeverSeededGetsZero() {
    assertThat(reward("{\"expected_count\": 0" + RESPONSE, Map.of())).isZero();
  }

  @Test
  void aCountThatIsNotAnIntegerIsA422() {
    var reply = harness().post("/increment_counter", Json.parse("{\"count\": \"many\"}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"count\"]");
  }

  /** Issue 31, defect 6: {@code expected_count: 2**70} gave a 500 (Jackson's {@code asLong} throws on it). */
  @Test
  void anExpectedCountPastALongIsA422NamingIt_issue31() {
    Map<String, String> seeded = harness().post("/seed_session", Json.parse("{\"initial_count\": 3}"), Map.of())
        .cookies();
    for (Map<String, String> cookies : java.util.List.of(seeded, Map.<String, String>of())) {
      var reply = harness().post("/verify", Json.parse("{\"expected_count\": 1180591620717411303424" + RESPONSE),
          cookies);
      assertThat(reply.status()).isEqualTo(422);
      assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"expected_count\"]");
      assertThat(reply.json().at("/detail/0/type").asString()).isEqualTo("int_overflow");
    }
  }

  private double reward(String verify, Map<String, String> cookies) {
    JsonNode verdict = harness().post("/verify", Json.parse(verify), cookies).json();
    return verdict.get("reward").asDouble();
  }
}
