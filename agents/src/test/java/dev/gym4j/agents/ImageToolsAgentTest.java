package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

import javax.imageio.ImageIO;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * image_tools_agent over real servers and a scripted model, against NeMo Gym's
 * responses_api_agents/image_tools_agent/app.py and resources_servers/image_tools/base.py (main, 2026-08-22):
 * tool calls written in the text run on the row's image, their results and images go back to the model, and the
 * tool rewards and penalties are added to the environment's reward.
 */
class ImageToolsAgentTest {
  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    deployment = Deployment.start(TestConfigs.load(dir, """
        answers:
          resources_servers:
            test_answer: {domain: other}
        policy_model:
          responses_api_models:
            vllm_model: {base_url: %s, api_key: x, model: m, return_token_id_information: false,
                         uses_reasoning_parser: false}
        image_tools_simple_agent:
          responses_api_agents:
            image_tools_agent:
              model_server: {type: responses_api_models, name: policy_model}
              resource_servers_by_agent:
                mcqa_simple_agent: {type: resources_servers, name: answers}
              max_steps: 5
              crop_dir: %s
              max_tool_calls: 4
              tool_success_reward: 0.02
              tool_success_reward_cap: 0.05
        """.formatted(model.baseUrl(), dir.resolve("crops"))), Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  /** A 200x100 white picture with a red and a blue rectangle. */
  static String picture() {
    BufferedImage image = new BufferedImage(200, 100, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, 200, 100);
    g.setColor(Color.RED);
    g.fillRect(10, 10, 50, 30);
    g.setColor(Color.BLUE);
    g.fillRect(120, 50, 60, 40);
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", out);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return "data:image/png;base64," + Base64.getEncoder().encodeToString(out.toByteArray());
  }

  /** A PNG whose header claims 100000 x 100000 pixels (and holds none). */
  static String bomb() {
    ByteBuffer ihdr = ByteBuffer.allocate(17);
    ihdr.put("IHDR".getBytes()).putInt(100_000).putInt(100_000).put((byte) 8).put((byte) 2).put((byte) 0)
        .put((byte) 0).put((byte) 0);
    CRC32 crc = new CRC32();
    crc.update(ihdr.array());
    ByteBuffer png = ByteBuffer.allocate(8 + 4 + 17 + 4);
    png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}).putInt(13).put(ihdr.array())
        .putInt((int) crc.getValue());
    return "data:image/png;base64," + Base64.getEncoder().encodeToString(png.array());
  }

  private static ObjectNode row(String imageUrl) {
    ObjectNode row = (ObjectNode) Json.parse("""
        {"responses_create_params": {"input": [{"role": "user", "content": [
          {"type": "input_text", "text": "What colour is the top-left rectangle?"},
          {"type": "input_image", "image_url": "IMAGE"}]}]},
         "image_tools_base_agent_ref": {"type": "responses_api_agents", "name": "mcqa_simple_agent"},
         "expected_answer": "red"}""".replace("IMAGE", imageUrl));
    return row;
  }

  private static String call(String tool, String... parameters) {
    StringBuilder text = new StringBuilder("<tool_call>\n<function=" + tool + ">\n");
    for (int i = 0; i < parameters.length; i += 2) {
      text.append("<parameter=").append(parameters[i]).append(">\n").append(parameters[i + 1])
          .append("\n</parameter>\n");
    }
    return text.append("</function>\n</tool_call>").toString();
  }

  private JsonNode run(ObjectNode row) {
    HttpReply reply = deployment.client().post("image_tools_simple_agent", "/run", row, Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  @Test
  void aZoomRunsOnTheRowsImageAndItsRewardIsAddedToTheEnvironments() throws IOException {
    model.enqueue(Answer.text("Let me look.\n" + call("image_zoom_in_tool", "bbox_2d", "[0, 0, 500, 500]", "factor", "2",
        "label", "top left")), Answer.text("It is red."));
    JsonNode result = run(row(picture()));
    assertThat(result.get("base_reward").asDouble()).isEqualTo(1.0);
    assertThat(result.get("image_tools_aux_reward").asDouble()).isCloseTo(0.02, within(1e-12));
    assertThat(result.get("reward").asDouble()).isCloseTo(1.02, within(1e-12));
    assertThat(result.get("image_tools_call_count").asInt()).isEqualTo(1);
    assertThat(result.get("image_tools_error_count").asInt()).isZero();
    assertThat(result.get("verified_items").asInt()).as("verify sees the last assistant message only").isEqualTo(1);
    assertThat(result.get("seeded").asBoolean()).isTrue();
    Path crop = Path.of(result.get("image_tools_output_paths").get(0).asString());
    assertThat(crop).startsWith(dir.resolve("crops"));
    // a 100x50 pixel region zoomed 2x, then brought up to crop_min_pixels on the 32-pixel grid (NeMo Gym's
    // _smart_resize): 736x384
    BufferedImage saved = ImageIO.read(Files.newInputStream(crop));
    assertThat(new int[] {saved.getWidth(), saved.getHeight()}).containsExactly(736, 384);
    assertThat(result.get("image_tools_generation_image_paths").toString()).contains(crop.toString());
    String second = model.received().get(1).body().toString();
    assertThat(second).contains("{\\\"ok\\\": true, \\\"box\\\": [0.0, 0.0, 500.0, 500.0], \\\"factor\\\": 2.0, "
        + "\\\"label\\\": \\\"top left\\\", \\\"img_idx\\\": 0, \\\"size\\\": [736, 384], \\\"new_img_indices\\\": [1]}");
    assertThat(second).contains("data:image/jpeg;base64,");
    assertThat(model.received().get(0).body().toString()).contains("</tool_call>", "include_stop_str_in_output");
  }

  @Test
  void aRepeatedCallIsPenalisedAndTheNextCallMustBeAnAnswer() {
    String zoom = call("image_zoom_in_tool", "bbox_2d", "[0, 0, 500, 500]");
    model.enqueue(Answer.text(zoom), Answer.text(zoom), Answer.text(call("image_crop_tool", "bbox_2d", "[0, 0, 9, 9]")),
        Answer.text("never asked"));
    JsonNode result = run(row(picture()));
    // +0.02 for the zoom, -0.02 for its repeat, -0.05 for calling a tool when an answer was required
    assertThat(result.get("image_tools_aux_reward").asDouble()).isCloseTo(-0.05, within(1e-12));
    assertThat(result.get("base_reward").asDouble()).isZero();
    assertThat(result.get("image_tools_call_count").asInt()).isEqualTo(2);
    assertThat(result.get("image_tools_error_count").asInt()).isEqualTo(1);
    assertThat(model.received().get(2).body().toString()).contains("You already requested this exact tool call.");
    assertThat(model.calls()).isEqualTo(3);
  }

  @Test
  void absurdModelNumbersAreToolErrorsAndNothingIsAllocatedFromThem() {
    model.enqueue(Answer.text(call("image_zoom_in_tool", "bbox_2d", "[0, 0, 1000, 1000]", "factor", "1e300")));
    JsonNode result = run(row(picture()));
    assertThat(result.get("image_tools_aux_reward").asDouble()).isCloseTo(-0.05, within(1e-12));
    assertThat(result.get("image_tools_error_count").asInt()).isEqualTo(1);
    assertThat(result.get("image_tools_output_paths")).isEmpty();

    var toolbox = new ImageToolbox(262_144, 1_048_576);
    var images = images(ImageToolbox.decode(picture()));
    assertThat(error(toolbox, "image_crop_tool", "{\"bbox_2d\": [5000, 5000, 9000, 9000]}", images))
        .isEqualTo("Invalid crop after clipping: [5000, 5000, 200, 100]");
    assertThat(error(toolbox, "image_zoom_in_tool", "{\"bbox_2d\": [0, 0, 10, 10], \"factor\": -1}", images))
        .isEqualTo("factor must be a positive finite number");
    assertThat(error(toolbox, "image_crop_tool", "{\"bbox_2d\": [0, 0, 10, 10], \"img_idx\": 99999999999}", images))
        .isEqualTo("img_idx 99999999999 is out of range for 1 image(s)");
    // a 1-pixel-high strip next to a tall image would be scaled to an enormous width: refused before allocation
    var strip = images(ImageToolbox.decode(picture()), new BufferedImage(4000, 1, BufferedImage.TYPE_INT_RGB));
    assertThat(error(toolbox, "image_side_by_side_tool", "{\"img_indices\": [0, 1]}", strip))
        .startsWith("the result would be 400208x100 pixels");
    assertThat(error(toolbox, "image_crop_tool", "{\"bbox_2d\": [0, 0, 10, 10]}", () -> ImageToolbox.decode(bomb())))
        .isEqualTo("the image has 10000000000 pixels, more than 16777216");
    assertThat(error(toolbox, "image_crop_tool", "{\"bbox_2d\": [0, 0, 10, 10]}",
        () -> ImageToolbox.decode("http://169.254.169.254/latest/meta-data")))
        .isEqualTo("only data: image URLs are read, not http://169.254.169.254/latest/meta-data");
  }

  @Test
  void malformedMarkupAndUnknownToolsArePenalisedAndEndTheEpisode() {
    model.enqueue(Answer.text("<think>" + call("image_zoom_in_tool", "bbox_2d", "[0, 0, 500, 500]")));
    JsonNode result = run(row(picture()));
    assertThat(result.get("image_tools_aux_reward").asDouble()).isCloseTo(-0.05, within(1e-12));
    assertThat(model.calls()).isEqualTo(1);
    model.enqueue(Answer.text(call("rm_rf_tool", "path", "/")));
    assertThat(run(row(picture())).get("image_tools_error_count").asInt()).isEqualTo(1);
  }

  @Test
  void aRowWhoseBaseAgentIsNotMappedIsABadRequest() {
    ObjectNode row = row(picture());
    ((ObjectNode) row.get("image_tools_base_agent_ref")).put("name", "elsewhere");
    HttpReply reply = deployment.client().post("image_tools_simple_agent", "/run", row, Map.of());
    assertThat(reply.status()).isBetween(400, 422);
    assertThat(reply.text()).contains("image_tools_base_agent_ref", "elsewhere").doesNotContain("java.");
    assertThat(model.calls()).isZero();
  }

  @Test
  void theToolsMeasureWhatIsDrawn() {
    var toolbox = new ImageToolbox(262_144, 1_048_576);
    var images = images(ImageToolbox.decode(picture()));
    JsonNode count = toolbox.run("count_objects_tool", Json.parse("{\"min_size\": 100}"), images).result();
    assertThat(count.get("count").asInt()).isEqualTo(2);
    assertThat(count.get("blobs").get(0).get("bbox").toString()).isEqualTo("[50,100,300,400]");
    JsonNode red = toolbox.run("find_color_tool", Json.parse("{\"color\": [255, 0, 0], \"tolerance\": 10}"), images)
        .result();
    assertThat(red.get("match_fraction").asDouble()).isEqualTo(0.075);
    JsonNode at = toolbox.run("color_at_tool", Json.parse("{\"point_2d\": [750, 700]}"), images).result();
    assertThat(at.get("rgb").toString()).isEqualTo("[0,0,255]");
    var rotated = toolbox.run("image_rotate_tool", Json.parse("{\"degrees\": 90}"), images);
    assertThat(rotated.result().get("size").toString()).isEqualTo("[100,200]");
    assertThat(rotated.image().getRGB(20, 180) & 0xFFFFFF).as("the red rectangle turns to the lower left")
        .isEqualTo(0xFF0000);
    var flipped = toolbox.run("image_flip_tool", Json.parse("{\"axis\": \"horizontal\"}"), images);
    assertThat(flipped.image().getRGB(170, 20) & 0xFFFFFF).isEqualTo(0xFF0000);
    JsonNode diff = toolbox.run("image_diff_tool", Json.parse("{\"img_idx_a\": 0, \"img_idx_b\": 0}"), images)
        .result();
    assertThat(diff.get("mean_abs_diff").asDouble()).isZero();
    assertThat(diff.has("changed_bbox")).isFalse();
  }

  private static ImageToolbox.Images images(BufferedImage... list) {
    return new ImageToolbox.Images() {
      @Override
      public int size() {
        return list.length;
      }

      @Override
      public BufferedImage image(int index) {
        return list[index];
      }
    };
  }

  private static String error(ImageToolbox toolbox, String tool, String args, java.util.function.Supplier<BufferedImage> one) {
    return error(toolbox, tool, args, new ImageToolbox.Images() {
      @Override
      public int size() {
        return 1;
      }

      @Override
      public BufferedImage image(int index) {
        return one.get();
      }
    });
  }

  private static String error(ImageToolbox toolbox, String tool, String args, ImageToolbox.Images images) {
    try {
      toolbox.run(tool, Json.parse(args), images);
    } catch (ImageToolbox.ToolError e) {
      return e.getMessage();
    }
    throw new AssertionError(tool + " ran");
  }
}
