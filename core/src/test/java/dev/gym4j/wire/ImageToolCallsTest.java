package dev.gym4j.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonValues;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/image_tools/base.py (main, 2026-08-22): tool_call_texts.jsonl holds texts
 * with the calls its {@code parse_image_tool_calls} and the verdict its {@code has_malformed_image_tool_markup}
 * gave them (CPython 3.12): XML before JSON calls, a repeated parameter, values that are not JSON, empty names,
 * unclosed and stray tags, a leftover {@code <think>}.
 */
class ImageToolCallsTest {
  @Test
  void callsAndMalformedMarkupAsNemoGym() {
    List<JsonNode> cases = Json.readLines(Path.of("src", "test", "resources", "image_tools", "tool_call_texts.jsonl"));
    for (JsonNode c : cases) {
      String text = c.get("text").asString();
      List<ImageToolCalls.Call> calls = ImageToolCalls.parse(text);
      assertThat(calls).as(text).hasSize(c.get("calls").size());
      for (int i = 0; i < calls.size(); i++) {
        JsonNode expected = c.get("calls").get(i);
        assertThat(PythonValues.str(calls.get(i).name())).as(text).isEqualTo(expected.get("name").asString());
        assertThat(PythonValues.dumps(calls.get(i).arguments())).as(text)
            .isEqualTo(PythonValues.dumps(expected.get("arguments")));
      }
      assertThat(ImageToolCalls.hasMalformedMarkup(text)).as(text).isEqualTo(c.get("malformed").asBoolean());
    }
    assertThat(cases).hasSize(12);
  }

  @Test
  void manyUnclosedTagsAreReadInOnePass() {
    String text = "<tool_call><function=image_crop_tool><parameter=bbox_2d>".repeat(50_000);
    assertThat(ImageToolCalls.parse(text)).isEmpty();
    assertThat(ImageToolCalls.parse(text + "</function></tool_call>")).hasSize(1);
    assertThat(ImageToolCalls.parse("<tool_call>{".repeat(50_000))).isEmpty();
  }

  @Test
  void boxesAreOrderedAndReadFromText() {
    assertThat(ImageToolCalls.bbox(Json.toTree("x=9, y=8 to 1 2"))).containsExactly(1, 2, 9, 8);
    assertThat(ImageToolCalls.bbox(Json.parse("[1, \"2\", 3, 4]"))).containsExactly(1, 2, 3, 4);
    assertThat(ImageToolCalls.bbox(Json.parse("[1, null, 3, 4]"))).isNull();
    assertThat(ImageToolCalls.iou(new double[] {0, 0, 10, 10}, new double[] {5, 0, 15, 10})).isEqualTo(1 / 3.0);
  }
}
