package dev.gym4j.environments.circle_count;

import java.math.BigInteger;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * Counting circles of one colour in an image (NeMo Gym's circle_count): the first {@code \boxed{digits}} of the
 * response's output text is the count, and the reward is 1 when it equals the number of {@code circles} whose
 * {@code color} is {@code target_color}. No tools. The task rows come from {@link Scenes}.
 */
@Implementation("circle_count")
public final class CircleCount extends ResourcesServer {
  /** The fields NeMo Gym's verify response adds. */
  public static final List<String> FIELDS = List.of("predicted_count", "expected_count", "correct");
  // Python's \d is any Unicode decimal digit, as Java's with UNICODE_CHARACTER_CLASS
  private static final Pattern BOXED = Pattern.compile("\\\\boxed\\{(\\d+)\\}", Pattern.UNICODE_CHARACTER_CLASS);
  /** CPython refuses to read an int of more digits (sys.get_int_max_str_digits). */
  static final int MAX_DIGITS = 4300;

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String target = request.field("target_color").asString("");
    long expected = 0;
    JsonNode circles = request.field("circles");
    if (!circles.isMissingNode() && !circles.isArray()) {
      throw new FieldError(List.of("circles"), "must be a list of circles", "list_type");
    }
    for (int i = 0; i < circles.size(); i++) {
      JsonNode color = circles.get(i).path("color");
      if (color.isMissingNode()) {
        throw new FieldError(List.of("circles", i, "color"), "Field required: the circle's colour", "missing");
      }
      if (color.isString() && color.stringValue().equals(target)) {
        expected++;
      }
    }
    BigInteger predicted = boxedCount(request.response().outputText());
    boolean correct = predicted != null && predicted.equals(BigInteger.valueOf(expected));
    return Verification.of(correct ? 1.0 : 0.0).with("predicted_count", predicted)
        .with("expected_count", expected).with("correct", correct);
  }

  /** The number in the first {@code \boxed{digits}}, or null (also for one CPython would refuse as too long). */
  static BigInteger boxedCount(String text) {
    Matcher matcher = BOXED.matcher(text);
    if (!matcher.find() || matcher.group(1).length() > MAX_DIGITS) {
      return null;
    }
    StringBuilder ascii = new StringBuilder();
    matcher.group(1).codePoints().forEach(c -> ascii.append(Character.digit(c, 10)));
    return new BigInteger(ascii.toString());
  }
}
