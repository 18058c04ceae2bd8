package dev.gym4j.environments.circle_click;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import dev.gym4j.json.Json;
import dev.gym4j.text.PythonRandom;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Task rows for circle_click, made as NeMo Gym's generator makes them (resources_servers/circle_click/
 * generate_data.py): the same seed gives the same scene (image size, radius, circles, colours, target colour),
 * because the draws are CPython's {@code random.Random} in the same order. The image is drawn here with Java2D
 * (filled discs, no antialiasing, on white, as PNG), so its pixels are close to but not byte-for-byte PIL's.
 *
 * <p>{@code java -cp <gym4j lib>/* dev.gym4j.environments.circle_click.Scenes N OUT.jsonl [SEED_OFFSET]} writes
 * N rows with seeds {@code SEED_OFFSET..SEED_OFFSET+N-1} and NeMo Gym's default ranges.
 */
public final class Scenes {
  /** NeMo Gym's palette (Solarized accents), by name, in its order. */
  static final Map<String, Color> COLORS = new LinkedHashMap<>();

  static {
    COLORS.put("red", new Color(220, 50, 47));
    COLORS.put("blue", new Color(38, 139, 210));
    COLORS.put("green", new Color(133, 153, 0));
    COLORS.put("yellow", new Color(181, 137, 0));
    COLORS.put("purple", new Color(108, 113, 196));
    COLORS.put("orange", new Color(203, 75, 22));
    COLORS.put("cyan", new Color(42, 161, 152));
    COLORS.put("pink", new Color(211, 54, 130));
  }

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

  /** One circle of a scene. */
  public record Circle(int x, int y, int radius, String color) {}

  /** A scene: its square image's side, its circles, and the colour to click. */
  public record Scene(int size, List<Circle> circles, String targetColor) {}

  private Scenes() {}

  /** The scene of {@code seed} with NeMo Gym's defaults: size 1000, radius 60–150, 3–5 circles of distinct colours. */
  public static Scene scene(long seed) {
    PythonRandom rng = new PythonRandom(seed);
    int size = (int) rng.randint(1000, 1000);
    int radius = (int) rng.randint(60, 150);
    int count = (int) rng.randint(3, 5);
    List<String> names = rng.sample(List.copyOf(COLORS.keySet()), count);
    String target = rng.choice(names);
    List<int[]> positions = place(count, size, radius, rng);
    List<Circle> circles = new ArrayList<>();
    for (int i = 0; i < positions.size(); i++) {
      circles.add(new Circle(positions.get(i)[0], positions.get(i)[1], radius, names.get(i)));
    }
    return new Scene(size, circles, target);
  }

  /** Up to {@code n} centres at least {@code 2r + 15} apart; a circle that finds no place in 500 tries is left out. */
  static List<int[]> place(int n, int size, int radius, PythonRandom rng) {
    int margin = radius + 10;
    List<int[]> placed = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int attempt = 0; attempt < 500; attempt++) {
        int x = (int) rng.randint(margin, size - margin);
        int y = (int) rng.randint(margin, size - margin);
        boolean apart = placed.stream().allMatch(c -> Math.sqrt((double) (x - c[0]) * (x - c[0])
            + (double) (y - c[1]) * (y - c[1])) > 2 * radius + 15);
        if (apart) {
          placed.add(new int[] {x, y});
          break;
        }
      }
    }
    return placed;
  }

  /** The scene drawn: each circle a filled disc covering the pixels of its bounding box's inscribed ellipse. */
  public static BufferedImage draw(Scene scene) {
    BufferedImage image = new BufferedImage(scene.size(), scene.size(), BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_OFF);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, scene.size(), scene.size());
      for (Circle c : scene.circles()) {
        g.setColor(COLORS.get(c.color()));
        // PIL's box [x-r, y-r, x+r, y+r] includes both ends: 2r+1 pixels across
        g.fillOval(c.x() - c.radius(), c.y() - c.radius(), 2 * c.radius() + 1, 2 * c.radius() + 1);
      }
    } finally {
      g.dispose();
    }
    return image;
  }

  /** A PNG data URL of an image. */
  public static String dataUrl(BufferedImage image) {
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "data:image/png;base64," + Base64.getEncoder().encodeToString(png.toByteArray());
  }

  /** The task row of {@code seed}, in NeMo Gym's shape: the image, then the instruction, and the click tool. */
  public static ObjectNode row(long seed) {
    Scene scene = scene(seed);
    ObjectNode row = Json.object();
    ObjectNode params = row.putObject("responses_create_params");
    ArrayNode input = params.putArray("input");
    input.addObject().put("role", "system").put("content", SYSTEM_PROMPT);
    ArrayNode content = input.addObject().put("role", "user").putArray("content");
    content.addObject().put("type", "input_image").put("image_url", dataUrl(draw(scene))).put("detail", "auto");
    String target = scene.targetColor();
    List<String> others = scene.circles().stream().map(Circle::color).filter(c -> !c.equals(target))
        .map(c -> "a " + c + " circle").toList();
    content.addObject().put("type", "input_text").put("text", "This is a " + scene.size() + "x" + scene.size()
        + " pixel image. It shows " + String.join(", ", others) + ", and a " + target + " circle. Click on the "
        + target + " circle.");
    params.putArray("tools").add(Json.parse(CLICK_TOOL));
    ArrayNode circles = row.putArray("circles");
    for (Circle c : scene.circles()) {
      circles.addObject().put("x", c.x()).put("y", c.y()).put("radius", c.radius()).put("color", c.color());
    }
    row.put("target_color", target);
    return row;
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: Scenes N OUT.jsonl [SEED_OFFSET]");
      System.exit(2);
    }
    int n = Integer.parseInt(args[0]);
    long offset = args.length > 2 ? Long.parseLong(args[2]) : 0;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add(Json.write(row(offset + i)));
    }
    Files.write(Path.of(args[1]), lines);
    System.out.println("wrote " + n + " rows to " + args[1]);
  }
}
