package dev.gym4j.environments.circle_count;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import dev.gym4j.environments.circle_scenes.CircleScenes;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/circle_count/app.py and generate_data.py (main, 2026-08-22) and its
 * recorded rollouts (data/example_rollouts.jsonl, Qwen3-VL-8B-Instruct).
 */
class CircleCountTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "circle_count";
  }

  @Override
  protected List<String> verifyFields() {
    return CircleCount.FIELDS;
  }

  @Test
  void theSeedsGiveNemoGymsScenesAndPrompts() {
    List<JsonNode> rows = Json.readLines(fixture("example.jsonl"));
    for (int seed = 0; seed < rows.size(); seed++) {
      ObjectNode ours = Scenes.row(seed);
      ObjectNode theirs = (ObjectNode) rows.get(seed).deepCopy();
      theirs.remove("agent_ref");
      assertThat(ours.get("circles")).as("seed %d circles", seed).isEqualTo(theirs.get("circles"));
      assertThat(ours.get("target_color")).as("seed %d", seed).isEqualTo(theirs.get("target_color"));
      // everything but the image's bytes, which come from another PNG encoder
      image(ours).put("image_url", "");
      image(theirs).put("image_url", "");
      assertThat(ours).as("seed %d row", seed).isEqualTo(theirs);
    }
  }

  @Test
  void theDrawnImagesDifferFromPilsOnlyOnDiscEdges() throws Exception {
    List<JsonNode> rows = Json.readLines(fixture("example.jsonl"));
    for (int seed = 0; seed < rows.size(); seed++) {
      BufferedImage theirs = decode(image((ObjectNode) rows.get(seed)).get("image_url").asString());
      BufferedImage ours = decode(image(Scenes.row(seed)).get("image_url").asString());
      assertThat(ours.getWidth()).isEqualTo(theirs.getWidth());
      long differing = 0;
      for (int y = 0; y < ours.getHeight(); y++) {
        for (int x = 0; x < ours.getWidth(); x++) {
          if ((ours.getRGB(x, y) & 0xFFFFFF) != (theirs.getRGB(x, y) & 0xFFFFFF)) {
            differing++;
            assertThat(onAnOutline(rows.get(seed).get("circles"), x, y)).as("seed %d pixel (%d, %d)", seed, x, y)
                .isTrue();
          }
        }
      }
      double share = (double) differing / (ours.getWidth() * ours.getHeight());
      System.out.printf("circle_count seed %d: %d pixels (%.4f %%) differ from NeMo Gym's PIL image%n", seed,
          differing, 100 * share);
      for (JsonNode circle : rows.get(seed).get("circles")) {
        int centre = ours.getRGB(circle.get("x").asInt(), circle.get("y").asInt()) & 0xFFFFFF;
        assertThat(centre).isEqualTo(CircleScenes.COLORS.get(circle.get("color").asString()).getRGB() & 0xFFFFFF);
      }
    }
  }

  @Test
  void theCountIsTheFirstBoxOfDigits() {
    assertThat(CircleCount.boxedCount("so \\boxed{12} or \\boxed{3}")).isEqualTo(BigInteger.valueOf(12));
    assertThat(CircleCount.boxedCount("\\boxed{ 3} then \\boxed{4}")).isEqualTo(BigInteger.valueOf(4));
    assertThat(CircleCount.boxedCount("\\boxed{٣}")).as("Arabic-Indic three, as Python's \\d and int()")
        .isEqualTo(BigInteger.valueOf(3));
    assertThat(CircleCount.boxedCount("\\boxed{-3} \\boxed{3.0} \\boxed{}")).isNull();
    assertThat(CircleCount.boxedCount("\\boxed{" + "9".repeat(5000) + "}")).isNull();
  }

  @Test
  void aCircleWithoutAColourIsA422NamingIt() {
    var reply = harness().post("/verify", Json.parse("""
        {"responses_create_params": {"input": "q"}, "target_color": "red", "circles": [{"x": 1}],
         "response": {"output": []}}"""), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("circles").contains("color").doesNotContain("Exception");
  }

  /** Within a pixel and a half of a circle's outline: PIL and Java2D round a disc's edge differently. */
  private static boolean onAnOutline(JsonNode circles, int x, int y) {
    for (JsonNode c : circles) {
      double distance = Math.hypot(x - c.get("x").asInt(), y - c.get("y").asInt());
      if (Math.abs(distance - c.get("radius").asInt()) <= 1.5) {
        return true;
      }
    }
    return false;
  }

  private static ObjectNode image(ObjectNode row) {
    return (ObjectNode) row.get("responses_create_params").get("input").get(1).get("content").get(0);
  }

  private static BufferedImage decode(String dataUrl) throws Exception {
    byte[] png = Base64.getDecoder().decode(dataUrl.substring(dataUrl.indexOf(',') + 1));
    return ImageIO.read(new ByteArrayInputStream(png));
  }
}
