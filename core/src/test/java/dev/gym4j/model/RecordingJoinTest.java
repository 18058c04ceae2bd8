package dev.gym4j.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class RecordingJoinTest {
  private static JsonNode row(String image, String extra) {
    return Json.parse("""
        {"responses_create_params": {"input": [{"role": "user", "content": [
          {"type": "input_image", "image_url": "data:image/png;base64,%s"},
          {"type": "input_text", "text": "How many red circles are in the image?"}]}]}%s}""".formatted(image, extra));
  }

  @Test
  void rowsAskingTheSameOfDifferentImagesJoinByTheirImage() {
    List<JsonNode> tasks = List.of(row("AAAA", ", \"target\": 1"), row("BBBB", ", \"target\": 2"));
    List<JsonNode> joined = Recording.joined(List.of(row("BBBB", ""), row("AAAA", "")), tasks);
    assertThat(joined.get(0).get("target").asInt()).isEqualTo(2);
    assertThat(joined.get(1).get("target").asInt()).isEqualTo(1);
  }
}
