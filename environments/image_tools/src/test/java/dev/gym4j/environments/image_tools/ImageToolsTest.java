package dev.gym4j.environments.image_tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Against NeMo Gym's resources_servers/image_tools/app.py and base.py (main, 2026-08-22) and its recorded rollouts. */
class ImageToolsTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "image_tools";
  }

  @Override
  protected List<String> verifyFields() {
    return ImageTools.FIELDS;
  }

  private JsonNode verify(String expectedAction, String text) {
    ObjectNode request = Json.object();
    request.set("responses_create_params", Json.parse("{\"input\": \"q\"}"));
    request.set("expected_action", Json.parse(expectedAction));
    request.set("response", Json.parse("{\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(text) + "}]}]}"));
    var reply = harness().post("/verify", request, Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  private static String xml(String name, String... parameters) {
    StringBuilder text = new StringBuilder("<tool_call>\n<function=" + name + ">\n");
    for (int i = 0; i < parameters.length; i += 2) {
      text.append("<parameter=").append(parameters[i]).append(">\n").append(parameters[i + 1]).append("\n</parameter>\n");
    }
    return text.append("</function>\n</tool_call>").toString();
  }

  @Test
  void zoomAndCropAreOneDecisionAndAnExactDegenerateBoxScoresOne() {
    JsonNode verdict = verify("{\"name\": \"image_zoom_in_tool\", \"arguments\": {\"bbox_2d\": [167, 1000, 1000, 1000]}}",
        xml("image_crop_tool", "bbox_2d", "[167, 1000, 1000, 1000]", "label", "x"));
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("argument_detail").asString()).isEqualTo("exact_bbox");
    assertThat(verdict.get("model_output").asString()).isEqualTo("image_crop_tool({\"bbox_2d\": [167, 1000, 1000, 1000]})");
  }

  @Test
  void rotationsCompareModulo360AndFlipAxesAsText() {
    String rotate = "{\"name\": \"image_rotate_tool\", \"arguments\": {\"degrees\": -10, \"img_idx\": 0}}";
    assertThat(verify(rotate, xml("image_rotate_tool", "degrees", "350")).get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify(rotate, xml("image_rotate_tool", "degrees", "10")).get("failure_reason").asString())
        .isEqualTo("argument_below_threshold");
    JsonNode flip = verify("{\"name\": \"image_flip_tool\", \"arguments\": {\"axis\": \"Horizontal\"}}",
        xml("image_flip_tool", "axis", " horizontal"));
    assertThat(flip.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(flip.get("argument_detail").asString()).isEqualTo("axis");
  }

  @Test
  void wrongImageExtraCallsAndJsonCallsAsNemoGym() {
    String zoom = "{\"name\": \"image_zoom_in_tool\", \"arguments\": {\"bbox_2d\": [0, 0, 10, 10], \"img_idx\": 1}}";
    JsonNode target = verify(zoom, xml("image_zoom_in_tool", "bbox_2d", "[0, 0, 10, 10]", "img_idx", "0"));
    assertThat(target.get("failure_reason").asString()).isEqualTo("target_mismatch");
    assertThat(target.get("argument_score").isNull()).isTrue();
    String twice = xml("image_zoom_in_tool", "bbox_2d", "0 0 10 10") + "<tool_call>{\"name\": \"image_crop_tool\"}</tool_call>";
    JsonNode extra = verify(zoom, twice);
    assertThat(extra.get("num_rollout_tool_calls").asInt()).isEqualTo(2);
    assertThat(extra.get("argument_score").asDouble()).isEqualTo(1.0);
    assertThat(extra.get("reward").asDouble()).isEqualTo(0.0);
    assertThat(extra.get("failure_reason").asString()).isEqualTo("none");
    JsonNode notAnObject = verify(zoom, "<tool_call> {\"name\": \"image_zoom_in_tool\", \"arguments\": [1]} </tool_call>");
    assertThat(notAnObject.get("failure_reason").asString()).isEqualTo("unknown_error");
    JsonNode none = verify(zoom, "I will answer: 4");
    assertThat(none.get("failure_reason").asString()).isEqualTo("no_tool_call_in_rollout");
    assertThat(none.get("model_output").asString()).isEqualTo("I will answer: 4");
  }

  @Test
  void expectedActionMustBeAnObject() {
    ObjectNode request = Json.object();
    request.set("responses_create_params", Json.parse("{\"input\": \"q\"}"));
    request.put("expected_action", "image_zoom_in_tool");
    request.set("response", Json.parse("{\"output\": []}"));
    var reply = harness().post("/verify", request, Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("expected_action").doesNotContain("java.");
  }
}
