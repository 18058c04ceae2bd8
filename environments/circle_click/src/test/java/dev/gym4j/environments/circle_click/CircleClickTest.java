package dev.gym4j.environments.circle_click;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.imageio.ImageIO;

import dev.gym4j.environments.circle_scenes.CircleScenes;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/circle_click/app.py and generate_data.py (main, 2026-08-22) and its
 * recorded rollouts (data/example_rollouts.jsonl, Qwen3-VL-2B-Instruct; three of them click with lists).
 */
class CircleClickTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "circle_click";
  }

  @Override
  protected List<String> verifyFields() {
    return CircleClick.FIELDS;
  }

  /**
   * generator_scenes.jsonl holds what NeMo Gym's generate_data.py gives for seeds 0-4 (run with PIL stubbed out,
   * which the scenes do not use). NeMo Gym's example.jsonl was not made by that code with its defaults: no seed
   * below 300,000 gives its first scene, so the rows are checked for their prompt and tool only.
   */
  @Test
  void theSeedsGiveTheScenesOfNemoGymsGenerator() throws Exception {
    List<JsonNode> expected;
    try (var in = getClass().getResourceAsStream("/generator_scenes.jsonl")) {
      expected = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().map(Json::parse)
          .toList();
    }
    assertThat(expected).hasSize(5);
    for (JsonNode scene : expected) {
      ObjectNode ours = Scenes.row(scene.get("seed").asLong());
      assertThat(ours.get("circles")).as("seed %s", scene.get("seed")).isEqualTo(scene.get("circles"));
      assertThat(ours.get("target_color")).isEqualTo(scene.get("target_color"));
      assertThat(ours.at("/responses_create_params/input/1/content/1/text")).isEqualTo(scene.get("text"));
    }
    ObjectNode ours = Scenes.row(0);
    JsonNode theirs = Json.readLines(fixture("example.jsonl")).getFirst();
    assertThat(ours.at("/responses_create_params/input/0")).isEqualTo(theirs.at("/responses_create_params/input/0"));
    assertThat(ours.at("/responses_create_params/tools")).isEqualTo(theirs.at("/responses_create_params/tools"));
  }

  @Test
  void eachDiscIsDrawnInItsColourOnWhite() throws Exception {
    for (int seed = 0; seed < 5; seed++) {
      ObjectNode row = Scenes.row(seed);
      BufferedImage image = decode(image(row).get("image_url").asString());
      assertThat(image.getWidth()).isEqualTo(1000);
      for (int y = 0; y < image.getHeight(); y += 3) {
        for (int x = 0; x < image.getWidth(); x += 3) {
          int expected = 0xFFFFFF;
          boolean edge = false;
          for (JsonNode c : row.get("circles")) {
            double d = Math.hypot(x - c.get("x").asInt(), y - c.get("y").asInt());
            edge |= Math.abs(d - c.get("radius").asInt()) <= 1.5;
            if (d < c.get("radius").asInt()) {
              expected = CircleScenes.COLORS.get(c.get("color").asString()).getRGB() & 0xFFFFFF;
            }
          }
          if (!edge) {
            assertThat(image.getRGB(x, y) & 0xFFFFFF).as("seed %d pixel (%d, %d)", seed, x, y).isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void coordinatesReadAsPythonsIntReadsThem() {
    assertThat(CircleClick.pythonInt(Json.parse("12"))).contains(BigInteger.valueOf(12));
    assertThat(CircleClick.pythonInt(Json.parse("-3.9"))).contains(BigInteger.valueOf(-3));
    assertThat(CircleClick.pythonInt(Json.parse("true"))).contains(BigInteger.ONE);
    assertThat(CircleClick.pythonInt(Json.parse("\" +1_000 \""))).contains(BigInteger.valueOf(1000));
    assertThat(CircleClick.pythonInt(Json.parse("\"٣\""))).contains(BigInteger.valueOf(3));
    for (String no : List.of("\"12.5\"", "\"1__0\"", "\"_1\"", "\"\"", "null", "[1]", "{\"x\": 1}")) {
      assertThat(CircleClick.pythonInt(Json.parse(no))).as(no).isEqualTo(Optional.empty());
    }
  }

  @Test
  void onlyTheFirstClickAndTheFirstTargetCircleCount() {
    String circles = "\"circles\": [{\"x\": 100, \"y\": 100, \"radius\": 50, \"color\": \"red\"}, "
        + "{\"x\": 500, \"y\": 500, \"radius\": 50, \"color\": \"red\"}], \"target_color\": \"red\"";
    assertThat(verify(circles, click("{\"x\": 150, \"y\": 100}")).get("hit").asBoolean()).as("on the edge").isTrue();
    JsonNode second = verify(circles, click("{\"x\": 500, \"y\": 500}"));
    assertThat(second.get("hit").asBoolean()).as("the second red circle is never looked at").isFalse();
    assertThat(second.get("clicked_x").asInt()).isEqualTo(500);
    JsonNode half = verify(circles, click("{\"x\": \"100\", \"y\": [100]}") + ", " + click("{\"x\": 100, \"y\": 100}"));
    assertThat(half.get("clicked_x").asInt()).as("x is kept when y fails, as in Python").isEqualTo(100);
    assertThat(half.get("clicked_y").isNull()).isTrue();
    assertThat(half.get("reward").asDouble()).isZero();
  }

  @Test
  void theClickToolEchoesAnyValueAndWantsBoth() {
    var reply = harness().post("/seed_session", Json.parse("{}"), Map.of());
    assertThat(reply.status()).isEqualTo(200);
    var cookies = reply.cookies();
    var echo = harness().post("/click", Json.parse("{\"x\": [1, 2], \"y\": \"7\"}"), cookies);
    assertThat(echo.json()).isEqualTo(Json.parse("{\"x\": [1, 2], \"y\": \"7\"}"));
    var missing = harness().post("/click", Json.parse("{\"x\": 1}"), cookies);
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.text()).contains("\"y\"");
  }

  private JsonNode verify(String fields, String output) {
    return harness().verify(Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, " + fields
        + ", \"response\": {\"output\": [" + output + "]}}"));
  }

  private static String click(String arguments) {
    return "{\"type\": \"function_call\", \"name\": \"click\", \"call_id\": \"c\", \"arguments\": "
        + Json.write(arguments) + "}";
  }

  private static ObjectNode image(ObjectNode row) {
    return (ObjectNode) row.get("responses_create_params").get("input").get(1).get("content").get(0);
  }

  private static BufferedImage decode(String dataUrl) throws Exception {
    byte[] png = Base64.getDecoder().decode(dataUrl.substring(dataUrl.indexOf(',') + 1));
    return ImageIO.read(new ByteArrayInputStream(png));
  }
}
