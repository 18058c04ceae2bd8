package dev.gym4j.environments.circle_click;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Clicking the circle of one colour in an image (NeMo Gym's circle_click). The {@code click} tool echoes its
 * {@code x} and {@code y}, whatever they are. The first {@code click} call of the response is the answer: its
 * arguments read as Python's {@code int()} reads them (an integer, a float cut toward zero, a boolean, or a
 * string of digits), and the reward is 1 when the point lies in (or on) the first circle of
 * {@code target_color}. A call whose {@code x} or {@code y} cannot be read (a list, as the recordings show)
 * clicks nowhere. The task rows come from {@link Scenes}.
 */
@Implementation("circle_click")
public final class CircleClick extends ResourcesServer {
  /** The fields NeMo Gym's verify response adds. */
  public static final List<String> FIELDS = List.of("clicked_x", "clicked_y", "hit");

  @Override
  protected Map<String, FreeTool> freeTools() {
    return Map.of("click", (arguments, session) -> {
      for (String field : List.of("x", "y")) {
        if (!arguments.has(field)) {
          throw new FieldError(List.of(field), "Field required", "missing");
        }
      }
      ObjectNode echo = Json.object();
      echo.set("x", arguments.get("x"));
      echo.set("y", arguments.get("y"));
      return echo;
    });
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    BigInteger x = null;
    BigInteger y = null;
    for (Item item : request.response().output()) {
      if (item instanceof FunctionCall call && "click".equals(call.name())) {
        JsonNode arguments = parse(call.arguments());
        // as NeMo Gym: x is kept when it reads, even if y then does not
        x = pythonInt(arguments.path("x")).orElse(null);
        y = x == null ? null : pythonInt(arguments.path("y")).orElse(null);
        break;
      }
    }
    boolean hit = x != null && y != null && hitsFirstTarget(request, x, y);
    return Verification.of(hit ? 1.0 : 0.0).with("clicked_x", x).with("clicked_y", y).with("hit", hit);
  }

  private static boolean hitsFirstTarget(VerifyRequest request, BigInteger x, BigInteger y) {
    String target = request.field("target_color").asString("");
    JsonNode circles = request.field("circles");
    for (int i = 0; i < circles.size(); i++) {
      JsonNode circle = circles.get(i);
      if (circle.path("color").isMissingNode()) {
        throw new FieldError(List.of("circles", i, "color"), "Field required: the circle's colour", "missing");
      }
      if (circle.get("color").isString() && circle.get("color").stringValue().equals(target)) {
        return inside(x, y, circle, i);
      }
    }
    return false;
  }

  /** {@code sqrt(dx² + dy²) <= radius}, with the sum exact and then made a float, as Python does. */
  static boolean inside(BigInteger x, BigInteger y, JsonNode circle, int index) {
    for (String field : List.of("x", "y", "radius")) {
      if (!circle.path(field).isNumber()) {
        throw new FieldError(List.of("circles", index, field), "must be a number", "float_type");
      }
    }
    BigDecimal dx = new BigDecimal(x).subtract(circle.get("x").decimalValue());
    BigDecimal dy = new BigDecimal(y).subtract(circle.get("y").decimalValue());
    double squared = dx.multiply(dx).add(dy.multiply(dy)).doubleValue();
    // CPython fails with OverflowError past the largest float (a 500 in NeMo Gym): such a point is far outside
    return Double.isFinite(squared) && Math.sqrt(squared) <= circle.get("radius").asDouble();
  }

  private static JsonNode parse(String arguments) {
    try {
      return arguments == null ? Json.object() : Json.parse(arguments);
    } catch (RuntimeException notJson) {
      return Json.object();
    }
  }

  /**
   * Python's {@code int(value)} for a JSON value: integers as they are, finite floats cut toward zero, booleans
   * as 0 and 1, strings of (Unicode) digits with an optional sign, surrounding whitespace and single underscores
   * between digits; anything else (missing, null, a list, an object, a fraction in a string) is no number.
   */
  static Optional<BigInteger> pythonInt(JsonNode value) {
    if (value.isIntegralNumber()) {
      return Optional.of(value.bigIntegerValue());
    }
    if (value.isNumber()) {
      double d = value.asDouble();
      return Double.isFinite(d) ? Optional.of(new BigDecimal(d).toBigInteger()) : Optional.empty();
    }
    if (value.isBoolean()) {
      return Optional.of(value.booleanValue() ? BigInteger.ONE : BigInteger.ZERO);
    }
    if (value.isString()) {
      return parseIntText(value.stringValue());
    }
    return Optional.empty();
  }

  static Optional<BigInteger> parseIntText(String text) {
    String s = dev.gym4j.text.PythonText.strip(text);
    int i = 0;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      negative = s.charAt(0) == '-';
      i = 1;
    }
    StringBuilder digits = new StringBuilder();
    boolean lastUnderscore = true;
    for (int k = i; k < s.length(); ) {
      int c = s.codePointAt(k);
      k += Character.charCount(c);
      if (c == '_' && !lastUnderscore) {
        lastUnderscore = true;
      } else if (Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
        digits.append(Character.digit(c, 10));
        lastUnderscore = false;
      } else {
        return Optional.empty();
      }
    }
    // 4300: CPython's limit on the digits of an int read from text
    if (digits.isEmpty() || lastUnderscore || digits.length() > 4300) {
      return Optional.empty();
    }
    BigInteger number = new BigInteger(digits.toString());
    return Optional.of(negative ? number.negate() : number);
  }
}
