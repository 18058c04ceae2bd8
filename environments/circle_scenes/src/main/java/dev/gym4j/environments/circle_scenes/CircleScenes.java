package dev.gym4j.environments.circle_scenes;

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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

import javax.imageio.ImageIO;

import dev.gym4j.json.Json;
import dev.gym4j.text.PythonRandom;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What NeMo Gym's circle_click and circle_count generators (resources_servers/circle_click/generate_data.py,
 * resources_servers/circle_count/generate_data.py) share: the palette, the placement of circles drawn from
 * CPython's {@code random.Random}, and the image. Each environment draws its own radius, count and colours
 * first, in its generator's order. The image is drawn with Java2D (filled discs, no antialiasing, on white,
 * as PNG), so its pixels are close to but not byte-for-byte PIL's.
 */
public final class CircleScenes {
  /** NeMo Gym's palette (Solarized accents), by name, in its order. */
  public static final Map<String, Color> COLORS;

  static {
    Map<String, Color> colors = new LinkedHashMap<>();
    colors.put("red", new Color(220, 50, 47));
    colors.put("blue", new Color(38, 139, 210));
    colors.put("green", new Color(133, 153, 0));
    colors.put("yellow", new Color(181, 137, 0));
    colors.put("purple", new Color(108, 113, 196));
    colors.put("orange", new Color(203, 75, 22));
    colors.put("cyan", new Color(42, 161, 152));
    colors.put("pink", new Color(211, 54, 130));
    COLORS = Collections.unmodifiableMap(colors);
  }

  /** One circle of a scene. */
  public record Circle(int x, int y, int radius, String color) {}

  /** A scene: its square image's side, its circles, and the target colour (to click or to count). */
  public record Scene(int size, List<Circle> circles, String targetColor) {}

  private CircleScenes() {}

  /**
   * The scene whose circles of {@code radius} take the colours {@code names} in order, placed by
   * {@link #place} with the draws that follow on {@code rng}; circles that found no place are left out.
   */
  public static Scene scene(int size, int radius, List<String> names, String target, PythonRandom rng) {
    List<int[]> positions = place(names.size(), size, radius, rng);
    List<Circle> circles = new ArrayList<>();
    for (int i = 0; i < positions.size(); i++) {
      circles.add(new Circle(positions.get(i)[0], positions.get(i)[1], radius, names.get(i)));
    }
    return new Scene(size, circles, target);
  }

  /** Up to {@code n} centres at least {@code 2r + 15} apart; a circle that finds no place in 500 tries is left out. */
  public static List<int[]> place(int n, int size, int radius, PythonRandom rng) {
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

  /** The row's {@code circles} and {@code target_color}, as NeMo Gym's rows carry them for verify. */
  public static void putAnswer(ObjectNode row, Scene scene) {
    ArrayNode circles = row.putArray("circles");
    for (Circle c : scene.circles()) {
      circles.addObject().put("x", c.x()).put("y", c.y()).put("radius", c.radius()).put("color", c.color());
    }
    row.put("target_color", scene.targetColor());
  }

  /**
   * A generator's command line, {@code N OUT.jsonl [SEED_OFFSET]}: writes the rows of seeds
   * {@code SEED_OFFSET..SEED_OFFSET+N-1}.
   */
  public static void writeRows(String[] args, LongFunction<ObjectNode> row) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: Scenes N OUT.jsonl [SEED_OFFSET]");
      System.exit(2);
    }
    int n = Integer.parseInt(args[0]);
    long offset = args.length > 2 ? Long.parseLong(args[2]) : 0;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add(Json.write(row.apply(offset + i)));
    }
    Files.write(Path.of(args[1]), lines);
    System.out.println("wrote " + n + " rows to " + args[1]);
  }
}
