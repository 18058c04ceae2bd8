package dev.gym4j.environments.gpqa_diamond;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.environments.mcqa.Choices;
import dev.gym4j.environments.mcqa.Mcqa;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * GPQA Diamond: mcqa with its own reading of the answer (the row's {@code grading_mode} is ignored). A
 * dataset regex first; else the last {@code \boxed{…}} (one capital letter, or the last standalone capital
 * in it); else the last {@code Answer: X}. With options, the letter must be one of them.
 */
@Implementation("gpqa_diamond")
public final class GpqaDiamond extends Mcqa {
  private static final Pattern BOXED = Pattern.compile("\\\\boxed\\{([^}]*)\\}");
  private static final Pattern STANDALONE_CAPITAL = Pattern.compile("\\b[A-Z]\\b");
  private static final Pattern ANSWER = Pattern.compile("[*_]{0,2}Answer[*_]{0,2}\\s*:\\s*([A-Z])(?![a-zA-Z0-9])",
      Pattern.CASE_INSENSITIVE);

  @Override
  protected String extract(VerifyRequest request, String text, Choices choices) {
    JsonNode regex = request.field("template_metadata").path("output_regex");
    String letter = regex.isString() || regex.isArray() ? choices.customRegex(text, regex) : readLetter(text);
    if (letter != null && choices.hasOptions() && !choices.allowed(letter)) {
      return null;
    }
    return letter;
  }

  static String readLetter(String text) {
    String boxed = null;
    Matcher box = BOXED.matcher(text);
    while (box.find()) {
      boxed = box.group(1);
    }
    if (boxed != null) {
      String inner = boxed.strip();
      if (inner.length() == 1 && Character.isUpperCase(inner.charAt(0))) {
        return inner;
      }
      String last = null;
      Matcher capital = STANDALONE_CAPITAL.matcher(boxed);
      while (capital.find()) {
        last = capital.group();
      }
      if (last != null) {
        return last;
      }
    }
    String last = null;
    Matcher answer = ANSWER.matcher(text);
    while (answer.find()) {
      last = answer.group(1).toUpperCase(Locale.ROOT);
    }
    return last;
  }
}
