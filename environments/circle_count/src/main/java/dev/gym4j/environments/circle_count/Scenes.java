package dev.gym4j.environments.circle_count;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.environments.circle_scenes.CircleScenes;
import dev.gym4j.environments.circle_scenes.CircleScenes.Scene;
import dev.gym4j.json.Json;
import dev.gym4j.text.PythonRandom;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Task rows for circle_count, made as NeMo Gym's generator makes them (resources_servers/circle_count/
 * generate_data.py): the same seed gives the same scene (image size, radius, circles, colours, target colour),
 * because the draws are CPython's {@code random.Random} in the same order. Placement and drawing are
 * {@link CircleScenes}, shared with circle_click.
 *
 * <p>{@code java -cp <gym4j lib>/* dev.gym4j.environments.circle_count.Scenes N OUT.jsonl [SEED_OFFSET]} writes
 * N rows with seeds {@code SEED_OFFSET..SEED_OFFSET+N-1} and NeMo Gym's default ranges.
 */
public final class Scenes {
  /** The system prompt of NeMo Gym's rows (dataset text, see NOTICE). */
  static final String SYSTEM_PROMPT = "You are a visual assistant. Count the number of circles of the specified "
      + "color in the image. Output your final answer in \\boxed{} format, e.g. \\boxed{3}.";

  private Scenes() {}

  /** The scene of {@code seed} with NeMo Gym's defaults: size 1000, radius 30–60, 5–20 circles, 2–4 colours. */
  public static Scene scene(long seed) {
    PythonRandom rng = new PythonRandom(seed);
    int size = (int) rng.randint(1000, 1000);
    int radius = (int) rng.randint(30, 60);
    int count = (int) rng.randint(5, 20);
    int colors = (int) rng.randint(2, 4);
    List<String> palette = rng.sample(List.copyOf(CircleScenes.COLORS.keySet()),
        Math.min(colors, CircleScenes.COLORS.size()));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      names.add(rng.choice(palette));
    }
    String target = rng.choice(palette);
    return CircleScenes.scene(size, radius, names, target, rng);
  }

  /** The task row of {@code seed}, in NeMo Gym's shape: the image, then the question, as Responses API input. */
  public static ObjectNode row(long seed) {
    Scene scene = scene(seed);
    ObjectNode row = Json.object();
    ArrayNode input = row.putObject("responses_create_params").putArray("input");
    input.addObject().put("role", "system").put("content", SYSTEM_PROMPT);
    ArrayNode content = input.addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "input_image").put("image_url", CircleScenes.dataUrl(CircleScenes.draw(scene)))
        .put("detail", "auto");
    content.addObject().put("type", "input_text")
        .put("text", "How many " + scene.targetColor() + " circles are in the image?");
    CircleScenes.putAnswer(row, scene);
    return row;
  }

  public static void main(String[] args) throws IOException {
    CircleScenes.writeRows(args, Scenes::row);
  }
}
