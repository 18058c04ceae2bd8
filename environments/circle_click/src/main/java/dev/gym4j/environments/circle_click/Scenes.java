package dev.gym4j.environments.circle_click;

import java.io.IOException;
import java.util.List;

import dev.gym4j.environments.circle_scenes.CircleScenes;
import dev.gym4j.environments.circle_scenes.CircleScenes.Circle;
import dev.gym4j.environments.circle_scenes.CircleScenes.Scene;
import dev.gym4j.json.Json;
import dev.gym4j.text.PythonRandom;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Task rows for circle_click, made as NeMo Gym's generator makes them (resources_servers/circle_click/
 * generate_data.py): the same seed gives the same scene (image size, radius, circles, colours, target colour),
 * because the draws are CPython's {@code random.Random} in the same order. Placement and drawing are
 * {@link CircleScenes}, shared with circle_count.
 *
 * <p>{@code java -cp <gym4j lib>/* dev.gym4j.environments.circle_click.Scenes N OUT.jsonl [SEED_OFFSET]} writes
 * N rows with seeds {@code SEED_OFFSET..SEED_OFFSET+N-1} and NeMo Gym's default ranges.
 */
public final class Scenes {
  /** The system prompt of NeMo Gym's rows (dataset text, see NOTICE). */
  static final String SYSTEM_PROMPT = "You are a visual assistant. The image has pixel coordinates starting at "
      + "(0, 0) in the top-left corner. Use the click tool to click on the center of the specified colored circle. "
      + "You must pass a single integer for x and a single integer for y. "
      + "Do NOT use lists, arrays, or bounding box coordinates.";

  /** The {@code click} tool as NeMo Gym's rows offer it (dataset text, see NOTICE). */
  static final String CLICK_TOOL = """
      {"type": "function", "name": "click", "description": "Click at pixel coordinates (x, y) in the image. \
      Both x and y must be single integers, not lists.", "parameters": {"type": "object", "properties": {
      "x": {"type": "integer", "description": "X pixel coordinate (single integer, not a list)"},
      "y": {"type": "integer", "description": "Y pixel coordinate (single integer, not a list)"}},
      "required": ["x", "y"], "additionalProperties": false}, "strict": true}""";

  private Scenes() {}

  /** The scene of {@code seed} with NeMo Gym's defaults: size 1000, radius 60–150, 3–5 circles of distinct colours. */
  public static Scene scene(long seed) {
    PythonRandom rng = new PythonRandom(seed);
    int size = (int) rng.randint(1000, 1000);
    int radius = (int) rng.randint(60, 150);
    int count = (int) rng.randint(3, 5);
    List<String> names = rng.sample(List.copyOf(CircleScenes.COLORS.keySet()), count);
    String target = rng.choice(names);
    return CircleScenes.scene(size, radius, names, target, rng);
  }

  /** The task row of {@code seed}, in NeMo Gym's shape: the image, then the instruction, and the click tool. */
  public static ObjectNode row(long seed) {
    Scene scene = scene(seed);
    ObjectNode row = Json.object();
    ObjectNode params = row.putObject("responses_create_params");
    ArrayNode input = params.putArray("input");
    input.addObject().put("role", "system").put("content", SYSTEM_PROMPT);
    ArrayNode content = input.addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "input_image").put("image_url", CircleScenes.dataUrl(CircleScenes.draw(scene)))
        .put("detail", "auto");
    String target = scene.targetColor();
    List<String> others = scene.circles().stream().map(Circle::color).filter(c -> !c.equals(target))
        .map(c -> "a " + c + " circle").toList();
    content.addObject().put("type", "input_text").put("text", "This is a " + scene.size() + "x" + scene.size()
        + " pixel image. It shows " + String.join(", ", others) + ", and a " + target + " circle. Click on the "
        + target + " circle.");
    params.putArray("tools").add(Json.parse(CLICK_TOOL));
    CircleScenes.putAnswer(row, scene);
    return row;
  }

  public static void main(String[] args) throws IOException {
    CircleScenes.writeRows(args, Scenes::row);
  }
}
