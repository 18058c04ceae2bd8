package dev.gym4j.agents;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Base64;
import java.util.Iterator;
import java.util.Set;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

import dev.gym4j.json.Json;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.ImageToolCalls;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ten image tools of NeMo Gym's image_tools suite ({@code execute_image_tool},
 * resources_servers/image_tools/base.py), in Java2D: zoom, crop, rotate, flip, diff, side by side, overlay,
 * count objects, find colour, colour at a point. Coordinates are thousandths of the image (a box with a
 * number above 1000 is in pixels).
 *
 * <p>Every number comes from the model, so every size is checked before anything is allocated: a source image
 * above {@link #MAX_SOURCE_PIXELS} is not decoded, a zoom factor must be in (0, {@link #MAX_FACTOR}], and an
 * output is refused when it would pass {@link #MAX_OUTPUT_PIXELS}; the caller turns a {@link ToolError} into the
 * tool error the model sees. Stateless and thread-safe.
 */
final class ImageToolbox {
  static final Set<String> NAMES = Set.of("image_zoom_in_tool", "image_crop_tool", "image_rotate_tool",
      "image_flip_tool", "image_diff_tool", "image_side_by_side_tool", "image_overlay_tool", "count_objects_tool",
      "find_color_tool", "color_at_tool");
  static final long MAX_SOURCE_PIXELS = 4096L * 4096;
  static final long MAX_OUTPUT_PIXELS = 40_000_000L;
  static final double MAX_FACTOR = 100.0;
  private static final int MAX_SIDE = 4096;

  private final long cropMinPixels;
  private final long cropMaxPixels;

  ImageToolbox(long cropMinPixels, long cropMaxPixels) {
    this.cropMinPixels = cropMinPixels;
    this.cropMaxPixels = cropMaxPixels;
  }

  /** A tool call that cannot run; its message is what the model is told (after "{@code <tool> failed: }"). */
  static final class ToolError extends RuntimeException {
    ToolError(String message) {
      super(message, null, false, false);
    }
  }

  /** The images of a rollout by index: a source image's URL, decoded when used, or an output of an earlier call. */
  interface Images {
    int size();

    BufferedImage image(int index);
  }

  /** What a call produced: the image the model sees next and the JSON result it is told. */
  record Output(BufferedImage image, ObjectNode result) {}

  Output run(String tool, JsonNode args, Images images) {
    ObjectNode result = Json.object();
    BufferedImage out = switch (tool) {
      case "image_zoom_in_tool" -> zoom(args, images, result);
      case "image_crop_tool" -> crop(args, images, result);
      case "image_rotate_tool" -> rotate(args, images, result);
      case "image_flip_tool" -> flip(args, images, result);
      case "image_diff_tool" -> ImagePixels.diff(args, images, result, this);
      case "image_side_by_side_tool" -> ImagePixels.sideBySide(args, images, result, this);
      case "image_overlay_tool" -> ImagePixels.overlay(args, images, result, this);
      case "count_objects_tool", "find_color_tool" -> ImagePixels.blobs(tool, args, images, result, this);
      case "color_at_tool" -> ImagePixels.colorAt(args, images, result, this);
      default -> throw new ToolError("Unknown tool name: " + tool);
    };
    out = thumbnail(out);
    // the size of the saved image, where the tool first wrote one or else last, as NeMo Gym writes it
    ArrayNode size = Json.array().add(out.getWidth()).add(out.getHeight());
    result.set("size", size);
    return new Output(out, result);
  }

  /** {@code str(arguments.get("label", ""))}. */
  static String label(JsonNode args) {
    return args.has("label") ? dev.gym4j.json.PythonValues.str(args.get("label")) : "";
  }

  /** The image at an index argument, as NeMo Gym's {@code _image_at}: an integer in range. */
  int index(JsonNode value, String parameter, Images images) {
    java.math.BigInteger idx = integer(value);
    if (idx == null) {
      throw new ToolError(parameter + " must be an integer");
    }
    if (idx.signum() < 0 || idx.compareTo(java.math.BigInteger.valueOf(images.size())) >= 0) {
      throw new ToolError(parameter + " " + idx + " is out of range for " + images.size() + " image(s)");
    }
    return idx.intValue();
  }

  /** Python's {@code int(value)} on a JSON value; null where it raises. */
  static java.math.BigInteger integer(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? java.math.BigInteger.ONE : java.math.BigInteger.ZERO;
    }
    if (value.isNumber()) {
      return value.decimalValue().toBigInteger();
    }
    if (value.isString()) {
      String t = PythonText.strip(value.stringValue()).replace("_", "");
      return t.matches("[+-]?\\d{1,400}") ? new java.math.BigInteger(t.startsWith("+") ? t.substring(1) : t) : null;
    }
    return null;
  }

  /** Python's {@code float(value)}; null where it raises. */
  static Double number(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? 1.0 : 0.0;
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    return value.isString() ? PythonText.parseFloat(value.stringValue()).orElse(null) : null;
  }

  private BufferedImage zoom(JsonNode args, Images images, ObjectNode result) {
    double[] bbox = ImageToolCalls.bbox(args.path("bbox_2d"));
    if (bbox == null) {
      throw new ToolError("bbox_2d must be a list of four numbers");
    }
    int idx = index(args.has("img_idx") ? args.get("img_idx") : Json.toTree(0), "img_idx", images);
    BufferedImage image = images.image(idx);
    double[] px = toPixels(bbox, image.getWidth(), image.getHeight());
    int[] box = atLeast32(px, image.getWidth(), image.getHeight());
    if (box[2] <= box[0] || box[3] <= box[1]) {
      throw new ToolError("Invalid crop after clipping: " + java.util.Arrays.toString(box));
    }
    Double factor = args.has("factor") ? number(args.get("factor")) : Double.valueOf(3.0);
    if (factor == null) {
      throw new ToolError("factor must be a number");
    }
    if (!Double.isFinite(factor) || factor <= 0) {
      throw new ToolError("factor must be a positive finite number");
    }
    if (factor > MAX_FACTOR) {
      throw new ToolError("factor must be at most " + (int) MAX_FACTOR);
    }
    int[] size = smartResize(Math.max(1, Math.round((box[3] - box[1]) * factor)),
        Math.max(1, Math.round((box[2] - box[0]) * factor)));
    BufferedImage out = resize(image.getSubimage(box[0], box[1], box[2] - box[0], box[3] - box[1]), size[1],
        size[0], RenderingHints.VALUE_INTERPOLATION_BICUBIC);
    result.set("box", floats(bbox));
    result.put("factor", factor);
    result.put("label", label(args));
    result.put("img_idx", idx);
    return out;
  }

  private BufferedImage crop(JsonNode args, Images images, ObjectNode result) {
    int idx = index(args.has("img_idx") ? args.get("img_idx") : Json.toTree(0), "img_idx", images);
    BufferedImage image = images.image(idx);
    double[] bbox = ImageToolCalls.bbox(args.path("bbox_2d"));
    if (bbox == null) {
      throw new ToolError("bbox_2d must be a list of four numbers");
    }
    double[] px = toPixels(bbox, image.getWidth(), image.getHeight());
    int[] box = {(int) Math.max(0, Math.floor(px[0])), (int) Math.max(0, Math.floor(px[1])),
        (int) Math.min(image.getWidth(), Math.ceil(px[2])), (int) Math.min(image.getHeight(), Math.ceil(px[3]))};
    if (box[2] <= box[0] || box[3] <= box[1]) {
      throw new ToolError("Invalid crop after clipping: " + java.util.Arrays.toString(box));
    }
    BufferedImage out = copy(image.getSubimage(box[0], box[1], box[2] - box[0], box[3] - box[1]));
    result.set("box", floats(bbox));
    result.putNull("size");
    result.put("label", label(args));
    result.put("img_idx", idx);
    return out;
  }

  private BufferedImage rotate(JsonNode args, Images images, ObjectNode result) {
    int idx = index(args.has("img_idx") ? args.get("img_idx") : Json.toTree(0), "img_idx", images);
    BufferedImage image = images.image(idx);
    Double degrees = number(args.get("degrees"));
    if (degrees == null) {
      throw new ToolError("degrees must be a number");
    }
    if (!Double.isFinite(degrees)) {
      throw new ToolError("degrees must be finite");
    }
    double radians = Math.toRadians(degrees);
    double cos = Math.abs(Math.cos(radians));
    double sin = Math.abs(Math.sin(radians));
    int w = image.getWidth();
    int h = image.getHeight();
    int nw = (int) Math.ceil(w * cos + h * sin - 1e-9);
    int nh = (int) Math.ceil(w * sin + h * cos - 1e-9);
    checkOutput(nw, nh);
    BufferedImage out = blank(nw, nh);
    Graphics2D g = out.createGraphics();
    try {
      // counter-clockwise, as PIL's Image.rotate; the canvas grows to hold the whole image (expand=True)
      AffineTransform t = new AffineTransform();
      t.translate(nw / 2.0, nh / 2.0);
      t.rotate(-radians);
      t.translate(-w / 2.0, -h / 2.0);
      g.drawImage(image, t, null);
    } finally {
      g.dispose();
    }
    result.put("degrees", degrees);
    result.putNull("size");
    result.put("label", label(args));
    result.put("img_idx", idx);
    return out;
  }

  private BufferedImage flip(JsonNode args, Images images, ObjectNode result) {
    int idx = index(args.has("img_idx") ? args.get("img_idx") : Json.toTree(0), "img_idx", images);
    BufferedImage image = images.image(idx);
    String axis = args.has("axis") ? dev.gym4j.json.PythonValues.str(args.get("axis")) : "";
    boolean horizontal = axis.equals("horizontal");
    if (!horizontal && !axis.equals("vertical")) {
      throw new ToolError("axis must be \"horizontal\" or \"vertical\"");
    }
    int w = image.getWidth();
    int h = image.getHeight();
    BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        out.setRGB(horizontal ? w - 1 - x : x, horizontal ? y : h - 1 - y, image.getRGB(x, y));
      }
    }
    result.put("axis", axis);
    result.putNull("size");
    result.put("label", label(args));
    result.put("img_idx", idx);
    return out;
  }

  /** A box in pixels: as given when any number is above 1000 in size, else thousandths of the image. */
  static double[] toPixels(double[] bbox, int w, int h) {
    double largest = 0;
    for (double v : bbox) {
      largest = Math.max(largest, Math.abs(v));
    }
    if (largest > 1000.0) {
      return bbox.clone();
    }
    return new double[] {bbox[0] / 1000.0 * w, bbox[1] / 1000.0 * h, bbox[2] / 1000.0 * w, bbox[3] / 1000.0 * h};
  }

  /** NeMo Gym's {@code _maybe_resize_bbox}: clipped, and grown about its centre to 32 pixels when smaller. */
  private static int[] atLeast32(double[] px, int w, int h) {
    long left = Math.max(0, (long) Math.floor(px[0]));
    long top = Math.max(0, (long) Math.floor(px[1]));
    long right = Math.min(w, (long) Math.ceil(px[2]));
    long bottom = Math.min(h, (long) Math.ceil(px[3]));
    long height = bottom - top;
    long width = right - left;
    if (height < 32 || width < 32) {
      double cx = (left + right) / 2.0;
      double cy = (top + bottom) / 2.0;
      double ratio = 32.0 / Math.max(1, Math.min(height, width));
      double halfH = Math.ceil(height * ratio * 0.5);
      double halfW = Math.ceil(width * ratio * 0.5);
      left = Math.max(0, (long) Math.floor(cx - halfW));
      right = Math.min(w, (long) Math.ceil(cx + halfW));
      top = Math.max(0, (long) Math.floor(cy - halfH));
      bottom = Math.min(h, (long) Math.ceil(cy + halfH));
    }
    return new int[] {(int) left, (int) top, (int) right, (int) bottom};
  }

  /**
   * NeMo Gym's {@code _smart_resize}: each side rounded to a multiple of 32, the area brought into
   * [crop_min_pixels, crop_max_pixels] keeping the aspect ratio. Returns {height, width}.
   */
  int[] smartResize(long height, long width) {
    final int f = 32;
    long hBar = Math.max(f, Math.round(height / (double) f) * f);
    long wBar = Math.max(f, Math.round(width / (double) f) * f);
    double area = (double) height * width;
    if ((double) hBar * wBar > cropMaxPixels) {
      double beta = Math.sqrt(area / cropMaxPixels);
      hBar = (long) Math.floor(height / beta / f) * f;
      wBar = (long) Math.floor(width / beta / f) * f;
    } else if ((double) hBar * wBar < cropMinPixels) {
      double beta = Math.sqrt(cropMinPixels / area);
      hBar = (long) Math.ceil(height * beta / f) * f;
      wBar = (long) Math.ceil(width * beta / f) * f;
    }
    if (hBar < 1 || wBar < 1) {
      throw new ToolError("the zoomed region is too thin to resize: " + width + "x" + height);
    }
    checkOutput(wBar, hBar);
    return new int[] {(int) hBar, (int) wBar};
  }

  /** Refuses an output image larger than {@link #MAX_OUTPUT_PIXELS} before it is allocated. */
  static void checkOutput(long width, long height) {
    if (width < 1 || height < 1 || width > Integer.MAX_VALUE || height > Integer.MAX_VALUE
        || (double) width * height > MAX_OUTPUT_PIXELS) {
      throw new ToolError("the result would be " + width + "x" + height + " pixels, more than "
          + MAX_OUTPUT_PIXELS + " pixels");
    }
  }

  static BufferedImage blank(int w, int h) {
    BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, w, h);
    } finally {
      g.dispose();
    }
    return out;
  }

  static BufferedImage copy(BufferedImage image) {
    BufferedImage out = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        out.setRGB(x, y, image.getRGB(x, y) & 0xFFFFFF);
      }
    }
    return out;
  }

  static BufferedImage resize(BufferedImage image, int w, int h, Object interpolation) {
    checkOutput(w, h);
    BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, interpolation);
      g.drawImage(image, 0, 0, w, h, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  /** NeMo Gym's {@code _save_image_output} shrinks an output whose longer side passes 4096, keeping its shape. */
  private static BufferedImage thumbnail(BufferedImage image) {
    int w = image.getWidth();
    int h = image.getHeight();
    if (Math.max(w, h) <= MAX_SIDE) {
      return image;
    }
    double scale = (double) MAX_SIDE / Math.max(w, h);
    return resize(image, Math.max(1, (int) Math.round(w * scale)), Math.max(1, (int) Math.round(h * scale)),
        RenderingHints.VALUE_INTERPOLATION_BICUBIC);
  }

  private static ArrayNode floats(double[] values) {
    ArrayNode array = Json.array();
    for (double v : values) {
      array.add(v);
    }
    return array;
  }

  /** Python's {@code round(x, digits)} on a float: the exact binary value, ties to even. */
  static double round(double x, int digits) {
    return new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN).doubleValue();
  }

  /**
   * Decodes a {@code data:} image URL into RGB (alpha dropped, as PIL's {@code convert("RGB")}); the size is read
   * from the header first, and an image above {@link #MAX_SOURCE_PIXELS} is refused undecoded. Other URLs are
   * refused: a dataset row does not choose a host or a file for gym4j to read.
   */
  static BufferedImage decode(String url) {
    if (!url.startsWith("data:")) {
      throw new ToolError("only data: image URLs are read, not " + abbreviate(url));
    }
    int comma = url.indexOf(',');
    if (comma < 0) {
      throw new ToolError("the image's data URL has no data");
    }
    byte[] bytes;
    try {
      bytes = Base64.getMimeDecoder().decode(url.substring(comma + 1));
    } catch (IllegalArgumentException e) {
      throw new ToolError("the image's data URL is not base64");
    }
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        throw new ToolError("cannot identify image file");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in, true, true);
        long pixels = (long) reader.getWidth(0) * reader.getHeight(0);
        if (pixels > MAX_SOURCE_PIXELS) {
          throw new ToolError("the image has " + pixels + " pixels, more than " + MAX_SOURCE_PIXELS);
        }
        return copy(reader.read(0));
      } finally {
        reader.dispose();
      }
    } catch (IOException e) {
      throw new ToolError("cannot read the image: " + e.getMessage());
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "…";
  }

}
