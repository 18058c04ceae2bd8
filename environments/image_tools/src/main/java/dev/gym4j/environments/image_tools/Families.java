package dev.gym4j.environments.image_tools;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.gym4j.json.PythonEquality;
import dev.gym4j.json.PythonValues;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.ImageToolCalls;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The image tools by family and how a call of each family is compared with the demonstrated one, as NeMo
 * Gym's {@code tool_family}, {@code verify_target_match} and {@code compute_argument_score}
 * (resources_servers/image_tools/app.py): bbox by IoU, point by distance on the 0–1000 grid, color by
 * channel closeness, scalar (rotate, flip) by degrees modulo 360 or axis, pair and multi by their indices
 * (and overlay's alpha).
 */
final class Families {
  private Families() {}

  record Score(double value, String detail) {}

  static String of(String name) {
    return switch (name) {
      case "image_zoom_in_tool", "image_crop_tool" -> "bbox";
      case "color_at_tool" -> "point";
      case "find_color_tool", "count_objects_tool" -> "color";
      case "image_diff_tool", "image_overlay_tool" -> "pair";
      case "image_side_by_side_tool" -> "multi";
      case "image_rotate_tool", "image_flip_tool" -> "scalar";
      default -> "unknown";
    };
  }

  /** Level 1: the same image(s); a side without an index cannot disprove it. */
  static boolean sameTarget(String family, JsonNode r, JsonNode e) {
    switch (family) {
      case "bbox", "point", "color", "scalar" -> {
        BigInteger ri = Coerce.asInt(r.get("img_idx"));
        BigInteger ei = Coerce.asInt(e.get("img_idx"));
        return ri == null || ei == null || ri.equals(ei);
      }
      case "pair" -> {
        for (String key : List.of("img_idx_a", "img_idx_b")) {
          BigInteger rv = Coerce.asInt(r.get(key));
          BigInteger ev = Coerce.asInt(e.get(key));
          if (rv != null && ev != null && !rv.equals(ev)) {
            return false;
          }
        }
        return true;
      }
      case "multi" -> {
        List<BigInteger> ri = indexList(r.get("img_indices"));
        List<BigInteger> ei = indexList(e.get("img_indices"));
        if (ri == null || ei == null) {
          return true;
        }
        ri.sort(null);
        ei.sort(null);
        return ri.equals(ei);
      }
      default -> {
        return true;
      }
    }
  }

  /** Level 2: the main argument's score in [0, 1] and how it was measured. */
  static Score argumentScore(String family, JsonNode r, JsonNode e, double tolerance) {
    return switch (family) {
      case "bbox" -> bbox(r, e);
      case "point" -> point(r, e);
      case "color" -> color(r, e);
      case "scalar" -> scalar(r, e, tolerance);
      case "pair", "multi" -> {
        Double ea = Coerce.asFloat(e.get("alpha"));
        Double ra = Coerce.asFloat(r.get("alpha"));
        yield ea != null && ra != null ? new Score(Math.abs(ra - ea) <= tolerance ? 1.0 : 0.0, "alpha")
            : new Score(1.0, "index_only");
      }
      default -> new Score(1.0, "unknown_family");
    };
  }

  private static Score bbox(JsonNode r, JsonNode e) {
    double[] rb = ImageToolCalls.bbox(r.path("bbox_2d"));
    double[] eb = ImageToolCalls.bbox(e.path("bbox_2d"));
    if (eb == null) {
      return new Score(1.0, "expected_bbox_unparseable");
    }
    if (rb == null) {
      return new Score(0.0, "rollout_bbox_unparseable");
    }
    // NeMo Gym short-circuits an exact copy, so a degenerate demonstrated box (zero area) is still winnable.
    if (Arrays.equals(rb, eb) && !hasNaN(rb)) {
      return new Score(1.0, "exact_bbox");
    }
    return new Score(ImageToolCalls.iou(rb, eb), "iou");
  }

  private static boolean hasNaN(double[] values) {
    return Arrays.stream(values).anyMatch(Double::isNaN);
  }

  private static Score point(JsonNode r, JsonNode e) {
    double[] rp = numbers(r.path("point_2d"));
    double[] ep = numbers(e.path("point_2d"));
    if (ep == null) {
      return new Score(1.0, "expected_point_unparseable");
    }
    if (rp == null) {
      return new Score(0.0, "rollout_point_unparseable");
    }
    double distance = Math.sqrt(Math.pow(rp[0] - ep[0], 2) + Math.pow(rp[1] - ep[1], 2));
    return new Score(pyMax0(1.0 - distance / 1000.0), "point_distance");
  }

  private static Score color(JsonNode r, JsonNode e) {
    List<BigInteger> rc = color(r.get("color"));
    List<BigInteger> ec = color(e.get("color"));
    if (rc == null || ec == null) {
      JsonNode rv = r.get("color");
      JsonNode ev = e.get("color");
      boolean same = rv == null || ev == null ? rv == ev : PythonEquality.equal(rv, ev);
      return same ? new Score(1.0, "color_absent") : new Score(0.0, "color_mismatch");
    }
    BigInteger sum = BigInteger.ZERO;
    for (int i = 0; i < 3; i++) {
      sum = sum.add(rc.get(i).subtract(ec.get(i)).abs());
    }
    return new Score(pyMax0(1.0 - sum.doubleValue() / (3 * 255.0)), "color_distance");
  }

  private static Score scalar(JsonNode r, JsonNode e, double tolerance) {
    for (String key : List.of("degrees", "axis")) {
      if (!e.has(key)) {
        continue;
      }
      JsonNode ev = e.get(key);
      JsonNode rv = r.get(key);
      Double ef = Coerce.asFloat(ev);
      Double rf = Coerce.asFloat(rv);
      if (ef != null && rf != null) {
        if (key.equals("degrees")) {
          double delta = Math.abs(pyMod(rf - ef, 360.0));
          delta = pyMin(delta, 360.0 - delta);
          return new Score(delta <= tolerance ? 1.0 : 0.0, "degrees");
        }
        return new Score(Math.abs(rf - ef) <= tolerance ? 1.0 : 0.0, key);
      }
      String rs = rv == null ? "None" : PythonValues.str(rv);
      String es = PythonValues.str(ev);
      return new Score(lower(rs).equals(lower(es)) ? 1.0 : 0.0, key);
    }
    return new Score(1.0, "scalar_no_key");
  }

  private static String lower(String text) {
    return PythonText.strip(text).toLowerCase(Locale.ROOT);
  }

  /** Python's float {@code %}: the result takes the divisor's sign. */
  private static double pyMod(double x, double m) {
    double r = x % m;
    return r != 0 && (r < 0) != (m < 0) ? r + m : r;
  }

  /** Python's {@code min(a, b)}: b only when b < a, so a NaN first argument stays. */
  private static double pyMin(double a, double b) {
    return b < a ? b : a;
  }

  /** Python's {@code max(0.0, x)}: x only when x > 0.0, so NaN gives 0.0. */
  private static double pyMax0(double x) {
    return x > 0.0 ? x : 0.0;
  }

  /** NeMo Gym's {@code _coerce_point}: two numbers, from a list or a string holding one. */
  private static double[] numbers(JsonNode value) {
    JsonNode v = parsedIfString(value);
    if (v == null || !v.isArray() || v.size() != 2) {
      return null;
    }
    Double x = Coerce.asFloat(v.get(0));
    Double y = Coerce.asFloat(v.get(1));
    return x == null || y == null ? null : new double[] {x, y};
  }

  /** NeMo Gym's {@code _coerce_color}: three integers, from a list or a string holding one. */
  private static List<BigInteger> color(JsonNode value) {
    JsonNode v = parsedIfString(value);
    if (v == null || !v.isArray() || v.size() != 3) {
      return null;
    }
    return ints(v);
  }

  /** NeMo Gym's {@code _coerce_index_list}: a list of integers, one integer (or bool) as a list of one. */
  private static List<BigInteger> indexList(JsonNode value) {
    JsonNode v = parsedIfString(value);
    if (v == null) {
      return null;
    }
    if (v.isIntegralNumber() || v.isBoolean()) {
      return new ArrayList<>(List.of(Coerce.asInt(v)));
    }
    return v.isArray() ? ints(v) : null;
  }

  private static List<BigInteger> ints(JsonNode array) {
    List<BigInteger> out = new ArrayList<>();
    for (JsonNode item : array) {
      BigInteger i = Coerce.asInt(item);
      if (i == null) {
        return null;
      }
      out.add(i);
    }
    return out;
  }

  /** A string is read as JSON (null when it is not); anything else as it is; a missing value is null. */
  private static JsonNode parsedIfString(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return null;
    }
    if (!value.isString()) {
      return value;
    }
    try {
      return ImageToolCalls.loads(value.stringValue());
    } catch (JacksonException e) {
      return null;
    }
  }
}
