package dev.gym4j.environments.gui_coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/gui_coordinate/app.py (main, 2026-08-22) and its recorded rollouts
 * (data/example_rollouts.jsonl, gpt-4.1 on circle_click's images); the values below are what that app.py gives.
 */
class GuiCoordinateTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "gui_coordinate";
  }

  @Override
  protected List<String> verifyFields() {
    return GuiCoordinate.FIELDS;
  }

  @Test
  void thePointIsTheFirstTagInThousandths() {
    assertThat(GuiCoordinate.parsePoint("a <point>[( 630 ,610 )]</point> b <point>(1, 2)</point>"))
        .hasValueSatisfying(p -> assertThat(p).containsExactly(0.63, 0.61));
    assertThat(GuiCoordinate.parsePoint("<point>(6.3, 610)</point>")).isEmpty();
    assertThat(GuiCoordinate.parsePoint("<point>(-6, 610)</point>")).isEmpty();
    assertThat(GuiCoordinate.parsePoint("<point>(1" + "0".repeat(400) + ", 1)</point>")).as("past a float").isEmpty();
    assertThat(GuiCoordinate.parseTruth(" 0.5 ,1e-1")).hasValueSatisfying(p -> assertThat(p).containsExactly(0.5, 0.1));
    assertThat(GuiCoordinate.parseTruth("0.5,0.5,0.5")).isEmpty();
    assertThat(GuiCoordinate.parseTruth("0.5;0.5")).isEmpty();
  }

  @Test
  void theRewardFallsQuadraticallyToZeroAtMaxDist() {
    assertThat(verify("\"0.5,0.5\"", "", "<point>(500, 500)</point>").get("reward").asDouble()).isEqualTo(1.0);
    JsonNode near = verify("\"0.5,0.5\"", ", \"max_dist\": 0.1", "<point>(530, 540)</point>");
    assertThat(near.get("distance").asDouble()).isCloseTo(0.05, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(near.get("reward").asDouble()).isCloseTo(0.25, org.assertj.core.api.Assertions.within(1e-12));
    JsonNode far = verify("\"0.5,0.5\"", "", "<point>(650, 500)</point>");
    assertThat(far.get("reward").asDouble()).as("exactly max_dist away").isZero();
    assertThat(far.get("extracted_x").asDouble()).isEqualTo(0.65);
    JsonNode none = verify("\"0.5,0.5\"", "", "I cannot tell");
    assertThat(none.get("extracted_x").isNull()).isTrue();
    assertThat(none.get("distance").isNull()).isTrue();
  }

  @Test
  void aMissingExpectedAnswerIsA422() {
    var reply = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"response\": {\"output\": []}}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("expected_answer");
  }

  private JsonNode verify(String expected, String extra, String text) {
    return harness().verify(Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"expected_answer\": "
        + expected + extra + ", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(text) + "}]}]}}"));
  }
}
