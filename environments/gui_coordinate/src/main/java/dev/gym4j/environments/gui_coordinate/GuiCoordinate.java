package dev.gym4j.environments.gui_coordinate;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * Pointing at a place in an image (NeMo Gym's gui_coordinate). The answer is the first
 * {@code <point>(x, y)</point>} (optionally in brackets) in the assistant text, in thousandths of the image's
 * width and height; {@code expected_answer} is {@code "x,y"} in fractions. The reward falls smoothly with the
 * distance d: {@code (1 - d / max_dist)²} below {@code max_dist} (default 0.15), else 0. No tools.
 */
@Implementation("gui_coordinate")
public final class GuiCoordinate extends ResourcesServer {
  /** The fields NeMo Gym's verify response computes (it also writes {@code expected_answer} back, as given). */
  public static final List<String> FIELDS = List.of("extracted_x", "extracted_y", "distance");
  private static final Pattern POINT = Pattern.compile(
      "<point>\\s*\\[?\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)\\s*\\]?\\s*</point>", Pattern.UNICODE_CHARACTER_CLASS);
  private static final double DEFAULT_MAX_DIST = 0.15;

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isString()) {
      throw new FieldError(List.of("expected_answer"), "Field required: the expected \"x,y\" point", "missing");
    }
    JsonNode maxDistField = request.field("max_dist");
    if (!maxDistField.isMissingNode() && !maxDistField.isNumber()) {
      throw new FieldError(List.of("max_dist"), "must be a number", "float_type");
    }
    double maxDist = maxDistField.isNumber() ? maxDistField.asDouble() : DEFAULT_MAX_DIST;
    Optional<double[]> truth = parseTruth(expected.stringValue());
    Optional<double[]> point = parsePoint(assistantText(request));
    Verification verification = Verification.of(0.0);
    Double x = null;
    Double y = null;
    Double distance = null;
    if (truth.isPresent() && point.isPresent()) {
      x = point.get()[0];
      y = point.get()[1];
      double dx = x - truth.get()[0];
      double dy = y - truth.get()[1];
      distance = Math.sqrt(dx * dx + dy * dy);
      if (Double.isNaN(distance)) {
        // float("nan") reads in Python, and NeMo Gym then writes a NaN reward
        throw new FieldError(List.of("expected_answer"), "must be two numbers, not NaN", "value_error");
      }
      if (!(distance >= maxDist)) {
        double closeness = 1.0 - distance / maxDist;
        verification = Verification.of(closeness * closeness);
      }
    }
    return verification.with("expected_answer", expected).with("extracted_x", x).with("extracted_y", y)
        .with("distance", distance);
  }

  /** The texts of every assistant message's parts (or its string content), joined by newlines and stripped. */
  static String assistantText(VerifyRequest request) {
    return PythonText.strip(String.join("\n", request.response().assistantContentTexts()));
  }

  /** {@code "x,y"} as two floats (Python's {@code float()}), or empty. */
  static Optional<double[]> parseTruth(String expected) {
    String[] parts = expected.split(",", -1);
    if (parts.length != 2) {
      return Optional.empty();
    }
    Optional<Double> x = PythonText.parseFloat(parts[0]);
    Optional<Double> y = PythonText.parseFloat(parts[1]);
    return x.isPresent() && y.isPresent() ? Optional.of(new double[] {x.get(), y.get()}) : Optional.empty();
  }

  /**
   * The first point, in fractions; empty without one, and for a number CPython could not read or make a float
   * (over 4300 digits, or past the largest float: a 500 in NeMo Gym).
   */
  static Optional<double[]> parsePoint(String text) {
    Matcher matcher = POINT.matcher(text);
    if (!matcher.find()) {
      return Optional.empty();
    }
    double[] point = new double[2];
    for (int i = 0; i < 2; i++) {
      String digits = matcher.group(i + 1);
      if (digits.length() > 4300) {
        return Optional.empty();
      }
      StringBuilder ascii = new StringBuilder();
      digits.codePoints().forEach(c -> ascii.append(Character.digit(c, 10)));
      double value = new BigInteger(ascii.toString()).doubleValue();
      if (Double.isInfinite(value)) {
        return Optional.empty();
      }
      point[i] = value / 1000.0;
    }
    return Optional.of(point);
  }
}
