package dev.gym4j.environments.swerl_llm_judge;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * SWE-RL multiple-choice judging (NeMo Gym's swerl_llm_judge): the policy itself judges (no external
 * judge) and puts its choice in {@code <solution>…</solution>}. {@code lenient} (default): the first
 * standalone letter of the last solution block; {@code strict}: the first block holding only a letter, maybe
 * bracketed. The letter must be an option key; reward 1 iff it is one of the expected letters.
 */
@Implementation("swerl_llm_judge")
public final class SwerlLlmJudge extends ResourcesServer {
  static final List<String> FIELDS = List.of("extracted_answer");
  private static final Pattern STRICT = Pattern.compile(
      "<solution>[\\s\\x1c-\\x1f]*\\[?([A-Za-z])\\]?[\\s\\x1c-\\x1f]*</solution>", Pattern.UNICODE_CHARACTER_CLASS);

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String mode = request.field("grading_mode").asString("lenient");
    if (!mode.equals("lenient") && !mode.equals("strict")) {
      throw new FieldError(List.of("grading_mode"), "Input should be 'lenient' or 'strict'", "literal_error");
    }
    Set<String> allowed = allowedLetters(request.field("options"));
    String text = assistantText(request);
    String predicted = mode.equals("lenient") ? lenient(text, allowed) : strict(text, allowed);
    List<String> golds = expectedLetters(request.field("expected_answer")).stream()
        .filter(g -> allowed.isEmpty() || allowed.contains(g)).toList();
    return Verification.of(predicted != null && golds.contains(predicted) ? 1.0 : 0.0)
        .with("expected_answer", golds.size() == 1 ? Json.toTree(golds.getFirst()) : Json.toTree(golds))
        .with("extracted_answer", predicted == null ? NullNode.getInstance() : predicted);
  }

  /** The first key of each option entry, when it is one letter. */
  static Set<String> allowedLetters(JsonNode options) {
    Set<String> letters = new HashSet<>();
    for (JsonNode entry : options) {
      if (!entry.isObject()) {
        throw new FieldError(List.of("options"), "Input should be a list of dictionaries", "dict_type");
      }
      entry.propertyNames().stream().findFirst().filter(SwerlLlmJudge::isLetter)
          .ifPresent(key -> letters.add(key.toUpperCase(Locale.ROOT)));
    }
    return letters;
  }

  /** Expected answers that are one letter once stripped and upper-cased, without repeats. */
  static List<String> expectedLetters(JsonNode expected) {
    List<String> raw = new ArrayList<>();
    if (expected.isString()) {
      raw.add(expected.stringValue());
    } else if (expected.isArray()) {
      expected.forEach(item -> {
        if (item.isString()) {
          raw.add(item.stringValue());
        }
      });
    }
    Set<String> letters = new LinkedHashSet<>();
    for (String answer : raw) {
      String letter = PythonText.strip(answer).toUpperCase(Locale.ROOT);
      if (isLetter(letter)) {
        letters.add(letter);
      }
    }
    return List.copyOf(letters);
  }

  private static boolean isLetter(String text) {
    return text.codePointCount(0, text.length()) == 1 && Character.isLetter(text.codePointAt(0));
  }

  /** The first standalone letter in the last solution block (blocks found left to right, case ignored). */
  static String lenient(String text, Set<String> allowed) {
    String content = null;
    int from = 0;
    while (true) {
      int open = indexIgnoringCase(text, "<solution>", from);
      int close = open < 0 ? -1 : indexIgnoringCase(text, "</solution>", open + "<solution>".length());
      if (close < 0) {
        break;
      }
      content = PythonText.strip(text.substring(open + "<solution>".length(), close));
      from = close + "</solution>".length();
    }
    if (content == null || content.isEmpty()) {
      return null;
    }
    int[] points = content.codePoints().toArray();
    for (int i = 0; i < points.length; i++) {
      if (Character.isLetter(points[i]) && (i == 0 || !Character.isLetter(points[i - 1]))
          && (i == points.length - 1 || !Character.isLetter(points[i + 1]))) {
        String letter = Character.toString(points[i]).toUpperCase(Locale.ROOT);
        return allowed.contains(letter) ? letter : null;
      }
    }
    return null;
  }

  static String strict(String text, Set<String> allowed) {
    Matcher matcher = STRICT.matcher(text);
    if (!matcher.find()) {
      return null;
    }
    String letter = matcher.group(1).toUpperCase(Locale.ROOT);
    return allowed.contains(letter) ? letter : null;
  }

  private static int indexIgnoringCase(String text, String part, int from) {
    for (int i = from; i + part.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, part, 0, part.length())) {
        return i;
      }
    }
    return -1;
  }

  private static String assistantText(VerifyRequest request) {
    List<String> texts = new ArrayList<>();
    for (var item : request.response().output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.stringValue());
        }
        for (JsonNode part : content) {
          if (part.path("text").isString()) {
            texts.add(part.path("text").stringValue());
          }
        }
      }
    }
    return PythonText.strip(String.join("\n", texts));
  }
}
