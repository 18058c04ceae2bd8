package dev.gym4j.agents;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.gym4j.agents.ImageToolbox.Images;
import dev.gym4j.agents.ImageToolbox.ToolError;
import dev.gym4j.json.Json;
import dev.gym4j.json.PythonValues;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The image tools that read pixels ({@link ImageToolbox} has the geometric ones): diff, side by side, overlay,
 * count objects, find colour and colour at a point, as NeMo Gym's {@code execute_image_tool} computes them
 * (resources_servers/image_tools/base.py): blobs are 4-connected components in scan order, at most 40.
 */
final class ImagePixels {
  private static final int MAX_BLOBS = 40;

  private ImagePixels() {}

  static BufferedImage diff(JsonNode args, Images images, ObjectNode result, ImageToolbox box) {
    int ia = box.index(args.get("img_idx_a"), "img_idx_a", images);
    BufferedImage a = images.image(ia);
    int ib = box.index(args.get("img_idx_b"), "img_idx_b", images);
    BufferedImage b = sameSize(images.image(ib), a);
    int w = a.getWidth();
    int h = a.getHeight();
    BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    long sum = 0;
    long changed = 0;
    int minX = w;
    int minY = h;
    int maxX = -1;
    int maxY = -1;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int pa = a.getRGB(x, y);
        int pb = b.getRGB(x, y);
        int gray = 0;
        for (int shift = 0; shift <= 16; shift += 8) {
          int d = Math.abs((pa >> shift & 0xFF) - (pb >> shift & 0xFF));
          sum += d;
          gray = Math.max(gray, d);
        }
        if (gray > 30) {
          changed++;
          minX = Math.min(minX, x);
          minY = Math.min(minY, y);
          maxX = Math.max(maxX, x);
          maxY = Math.max(maxY, y);
        }
        // the heat map is red by how much changed, blended over image a at 0.6 as PIL's Image.blend
        int heat = Math.min(255, gray * 3);
        out.setRGB(x, y, blend(pa & 0xFFFFFF, heat << 16, 0.6));
      }
    }
    long pixels = (long) w * h;
    result.put("mean_abs_diff", ImageToolbox.round(sum / (3.0 * pixels), 2));
    result.put("changed_pixel_fraction", ImageToolbox.round(changed / (double) pixels, 4));
    result.put("label", ImageToolbox.label(args));
    result.put("img_idx_a", ia);
    result.put("img_idx_b", ib);
    if (changed > 0) {
      result.set("changed_bbox", normalizedBox(minX, minY, maxX + 1, maxY + 1, w, h));
    }
    return out;
  }

  static BufferedImage sideBySide(JsonNode args, Images images, ObjectNode result, ImageToolbox box) {
    JsonNode raw = args.get("img_indices");
    if (raw == null || !raw.isArray() || raw.size() < 2 || raw.size() > 6) {
      throw new ToolError("img_indices must contain between two and six image indices");
    }
    List<BufferedImage> loaded = new ArrayList<>();
    ArrayNode indices = Json.array();
    for (JsonNode value : raw) {
      int idx = box.index(value, "img_indices", images);
      loaded.add(images.image(idx));
      indices.add(idx);
    }
    int height = loaded.stream().mapToInt(BufferedImage::getHeight).max().orElseThrow();
    long[] widths = new long[loaded.size()];
    long total = 8L * (loaded.size() - 1);
    for (int i = 0; i < loaded.size(); i++) {
      BufferedImage image = loaded.get(i);
      widths[i] = Math.max(1, Math.round((double) image.getWidth() * height / image.getHeight()));
      total += widths[i];
    }
    // a thin image scaled to the tallest one's height can be enormous: refuse before allocating it
    ImageToolbox.checkOutput(total, height);
    JsonNode labels = args.get("labels");
    if (labels != null && !labels.isNull() && PythonValues.truthy(labels) && !labels.isArray()) {
      throw new ToolError("labels must be an array when provided");
    }
    BufferedImage out = ImageToolbox.blank((int) total, height);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
      int x = 0;
      for (int i = 0; i < loaded.size(); i++) {
        g.drawImage(loaded.get(i), x, 0, (int) widths[i], height, null);
        if (labels != null && labels.isArray() && i < labels.size()) {
          g.setColor(Color.RED);
          g.drawString(PythonValues.str(labels.get(i)), x + 4, 4 + g.getFontMetrics().getAscent());
        }
        x += (int) widths[i] + 8;
      }
    } finally {
      g.dispose();
    }
    result.set("img_indices", indices);
    result.putNull("size");
    result.put("label", ImageToolbox.label(args));
    return out;
  }

  static BufferedImage overlay(JsonNode args, Images images, ObjectNode result, ImageToolbox box) {
    int ia = box.index(args.get("img_idx_a"), "img_idx_a", images);
    BufferedImage a = images.image(ia);
    int ib = box.index(args.get("img_idx_b"), "img_idx_b", images);
    BufferedImage bSource = images.image(ib);
    Double alpha = args.has("alpha") ? ImageToolbox.number(args.get("alpha")) : Double.valueOf(0.5);
    if (alpha == null) {
      throw new ToolError("alpha must be a number");
    }
    if (!(alpha >= 0.0 && alpha <= 1.0)) {
      throw new ToolError("alpha must be in the 0-1 range");
    }
    BufferedImage b = sameSize(bSource, a);
    BufferedImage out = new BufferedImage(a.getWidth(), a.getHeight(), BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < a.getHeight(); y++) {
      for (int x = 0; x < a.getWidth(); x++) {
        out.setRGB(x, y, blend(a.getRGB(x, y) & 0xFFFFFF, b.getRGB(x, y) & 0xFFFFFF, alpha));
      }
    }
    result.put("alpha", alpha);
    result.put("label", ImageToolbox.label(args));
    result.put("img_idx_a", ia);
    result.put("img_idx_b", ib);
    return out;
  }

  static BufferedImage blobs(String tool, JsonNode args, Images images, ObjectNode result, ImageToolbox box) {
    int idx = box.index(args.has("img_idx") ? args.get("img_idx") : Json.toTree(0), "img_idx", images);
    BufferedImage image = images.image(idx);
    java.math.BigInteger tolerance = args.has("tolerance") ? ImageToolbox.integer(args.get("tolerance"))
        : java.math.BigInteger.valueOf(40);
    if (tolerance == null) {
      throw new ToolError("tolerance must be an integer");
    }
    if (tolerance.signum() < 0 || tolerance.compareTo(java.math.BigInteger.valueOf(255)) > 0) {
      throw new ToolError("tolerance must be in the 0-255 range");
    }
    int tol = tolerance.intValue();
    int[] color = rgb(args.get("color"), tool.equals("find_color_tool"));
    int w = image.getWidth();
    int h = image.getHeight();
    boolean[] mask = new boolean[w * h];
    int[] background = color == null ? borderMedian(image) : null;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int p = image.getRGB(x, y);
        int r = p >> 16 & 0xFF;
        int g = p >> 8 & 0xFF;
        int b = p & 0xFF;
        mask[y * w + x] = color != null
            ? Math.abs(r - color[0]) <= tol && Math.abs(g - color[1]) <= tol && Math.abs(b - color[2]) <= tol
            : Math.abs(r - background[0]) > tol || Math.abs(g - background[1]) > tol || Math.abs(b - background[2]) > tol;
      }
    }
    java.math.BigInteger minSize = args.has("min_size") ? ImageToolbox.integer(args.get("min_size"))
        : java.math.BigInteger.valueOf(30);
    if (minSize == null) {
      throw new ToolError("min_size must be an integer");
    }
    if (minSize.signum() < 1) {
      throw new ToolError("min_size must be positive");
    }
    long min = tool.equals("count_objects_tool") ? minSize.min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue()
        : 20;
    List<long[]> blobs = components(mask, w, h, min);
    ArrayNode normalized = Json.array();
    for (long[] blob : blobs) {
      ObjectNode item = normalized.addObject();
      item.set("bbox", normalizedBox((int) blob[0], (int) blob[1], (int) blob[2], (int) blob[3], w, h));
      ArrayNode center = normalizedPoint(blob[4] / (double) blob[6], blob[5] / (double) blob[6], w, h);
      item.set("center", center);
      item.set("centroid", center.deepCopy());
      item.put("pixels", blob[6]);
    }
    BufferedImage out = ImageToolbox.copy(image);
    if (tool.equals("count_objects_tool")) {
      Graphics2D g = out.createGraphics();
      try {
        g.setColor(Color.RED);
        g.setStroke(new BasicStroke(2));
        for (int i = 0; i < blobs.size(); i++) {
          long[] blob = blobs.get(i);
          g.drawRect((int) blob[0], (int) blob[1], (int) (blob[2] - blob[0]), (int) (blob[3] - blob[1]));
          g.drawString(Integer.toString(i + 1), (int) blob[0] + 2, (int) blob[1] + 2 + g.getFontMetrics().getAscent());
        }
      } finally {
        g.dispose();
      }
      result.put("count", normalized.size());
      result.set("blobs", normalized);
    } else {
      long matched = 0;
      for (int i = 0; i < mask.length; i++) {
        if (mask[i]) {
          matched++;
          out.setRGB(i % w, i / w, 0xFF00FF);
        }
      }
      result.put("match_fraction", ImageToolbox.round(matched / (double) mask.length, 4));
      result.put("count", normalized.size());
      result.set("blobs", normalized);
    }
    result.put("label", ImageToolbox.label(args));
    result.put("img_idx", idx);
    return out;
  }

  static BufferedImage colorAt(JsonNode args, Images images, ObjectNode result, ImageToolbox box) {
    int idx = box.index(args.has("img_idx") ? args.get("img_idx") : Json.toTree(0), "img_idx", images);
    BufferedImage image = images.image(idx);
    JsonNode point = args.get("point_2d");
    if (point == null || !point.isArray() || point.size() != 2) {
      throw new ToolError("point_2d must be an [x, y] list");
    }
    Double nx = ImageToolbox.number(point.get(0));
    Double ny = ImageToolbox.number(point.get(1));
    if (nx == null || ny == null) {
      throw new ToolError("point_2d must contain two numbers");
    }
    if (!(nx >= 0 && nx <= 1000 && ny >= 0 && ny <= 1000)) {
      throw new ToolError("point_2d coordinates must be in the 0-1000 range");
    }
    int w = image.getWidth();
    int h = image.getHeight();
    int x = (int) Math.min(w - 1, Math.max(0, Math.rint(nx / 1000 * w)));
    int y = (int) Math.min(h - 1, Math.max(0, Math.rint(ny / 1000 * h)));
    int p = image.getRGB(x, y);
    int left = Math.max(0, x - 12);
    int top = Math.max(0, y - 12);
    BufferedImage patch = image.getSubimage(left, top, Math.min(w, x + 13) - left, Math.min(h, y + 13) - top);
    BufferedImage out = ImageToolbox.resize(patch, 150, 150, RenderingHints.VALUE_INTERPOLATION_NEAREST_NEIGHBOR);
    result.set("point_2d", Json.array().add((long) Math.rint(nx)).add((long) Math.rint(ny)));
    result.set("rgb", Json.array().add(p >> 16 & 0xFF).add(p >> 8 & 0xFF).add(p & 0xFF));
    result.put("label", ImageToolbox.label(args));
    result.put("img_idx", idx);
    return out;
  }

  /** NeMo Gym's {@code _rgb}: three integers in 0–255, or null when absent and not required. */
  private static int[] rgb(JsonNode value, boolean required) {
    if ((value == null || value.isNull()) && !required) {
      return null;
    }
    if (value == null || !value.isArray() || value.size() != 3) {
      throw new ToolError("color must be an [R, G, B] list");
    }
    int[] color = new int[3];
    for (int i = 0; i < 3; i++) {
      java.math.BigInteger c = ImageToolbox.integer(value.get(i));
      if (c == null) {
        throw new ToolError("color must contain three integers");
      }
      if (c.signum() < 0 || c.compareTo(java.math.BigInteger.valueOf(255)) > 0) {
        throw new ToolError("color channels must be in the 0-255 range");
      }
      color[i] = c.intValue();
    }
    return color;
  }

  /** The median of the border pixels per channel (corners counted twice, as NumPy's concatenation does), truncated. */
  private static int[] borderMedian(BufferedImage image) {
    int w = image.getWidth();
    int h = image.getHeight();
    int n = 2 * w + 2 * h;
    int[][] channels = new int[3][n];
    int k = 0;
    for (int x = 0; x < w; x++, k++) {
      put(channels, k, image.getRGB(x, 0));
    }
    for (int x = 0; x < w; x++, k++) {
      put(channels, k, image.getRGB(x, h - 1));
    }
    for (int y = 0; y < h; y++, k++) {
      put(channels, k, image.getRGB(0, y));
    }
    for (int y = 0; y < h; y++, k++) {
      put(channels, k, image.getRGB(w - 1, y));
    }
    int[] median = new int[3];
    for (int c = 0; c < 3; c++) {
      Arrays.sort(channels[c]);
      median[c] = n % 2 == 1 ? channels[c][n / 2] : (channels[c][n / 2 - 1] + channels[c][n / 2]) / 2;
    }
    return median;
  }

  private static void put(int[][] channels, int k, int p) {
    channels[0][k] = p >> 16 & 0xFF;
    channels[1][k] = p >> 8 & 0xFF;
    channels[2][k] = p & 0xFF;
  }

  /**
   * 4-connected components of the mask, numbered in scan order as scipy's {@code ndimage.label} numbers them,
   * those of at least {@code minSize} pixels, the first 40: {x1, y1, x2 + 1, y2 + 1, Σx, Σy, pixels}.
   */
  private static List<long[]> components(boolean[] mask, int w, int h, long minSize) {
    int[] label = new int[mask.length];
    int[] stack = new int[mask.length];
    List<long[]> blobs = new ArrayList<>();
    int next = 0;
    for (int start = 0; start < mask.length && blobs.size() < MAX_BLOBS; start++) {
      if (!mask[start] || label[start] != 0) {
        continue;
      }
      next++;
      long[] blob = {w, h, -1, -1, 0, 0, 0};
      int top = 0;
      stack[top++] = start;
      label[start] = next;
      while (top > 0) {
        int i = stack[--top];
        int x = i % w;
        int y = i / w;
        blob[0] = Math.min(blob[0], x);
        blob[1] = Math.min(blob[1], y);
        blob[2] = Math.max(blob[2], x + 1);
        blob[3] = Math.max(blob[3], y + 1);
        blob[4] += x;
        blob[5] += y;
        blob[6]++;
        if (x > 0 && mask[i - 1] && label[i - 1] == 0) {
          label[i - 1] = next;
          stack[top++] = i - 1;
        }
        if (x < w - 1 && mask[i + 1] && label[i + 1] == 0) {
          label[i + 1] = next;
          stack[top++] = i + 1;
        }
        if (y > 0 && mask[i - w] && label[i - w] == 0) {
          label[i - w] = next;
          stack[top++] = i - w;
        }
        if (y < h - 1 && mask[i + w] && label[i + w] == 0) {
          label[i + w] = next;
          stack[top++] = i + w;
        }
      }
      if (blob[6] >= minSize) {
        blobs.add(blob);
      }
    }
    return blobs;
  }

  private static ArrayNode normalizedBox(int x1, int y1, int x2, int y2, int w, int h) {
    return Json.array().add(thousandths(x1, w)).add(thousandths(y1, h)).add(thousandths(x2, w))
        .add(thousandths(y2, h));
  }

  private static ArrayNode normalizedPoint(double x, double y, int w, int h) {
    return Json.array().add(thousandths(x, w)).add(thousandths(y, h));
  }

  private static long thousandths(double v, int size) {
    return (long) Math.max(0, Math.min(1000, Math.rint(v / size * 1000)));
  }

  private static BufferedImage sameSize(BufferedImage image, BufferedImage like) {
    if (image.getWidth() == like.getWidth() && image.getHeight() == like.getHeight()) {
      return image;
    }
    return ImageToolbox.resize(image, like.getWidth(), like.getHeight(), RenderingHints.VALUE_INTERPOLATION_BICUBIC);
  }

  /** PIL's {@code Image.blend}: {@code a * (1 - alpha) + b * alpha} per channel. */
  private static int blend(int a, int b, double alpha) {
    int out = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
      double v = (a >> shift & 0xFF) * (1 - alpha) + (b >> shift & 0xFF) * alpha;
      out |= (int) Math.max(0, Math.min(255, Math.round(v))) << shift;
    }
    return out;
  }
}
