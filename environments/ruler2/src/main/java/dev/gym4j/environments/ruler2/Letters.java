package dev.gym4j.environments.ruler2;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * The answer letter of a multichoice RULER v2 row (NeMo Skills' relaxed {@code extract_letter}, as NeMo
 * Gym's ruler2 ports it): the last "The final answer is …" line, else the last {@code \boxed{…}}; Arabic,
 * Bengali and full-width A–D made Latin; one character is the letter, a longer text gives its last
 * standalone capital; failing all that, the last "Answer: X".
 */
final class Letters {
  private static final Pattern FINAL_ANSWER = Pattern.compile("The final answer is (.+)$",
      Pattern.MULTILINE | Pattern.UNIX_LINES);
  private static final Pattern ANSWER_COLON = Pattern.compile(("[*_]{0,2}Answer[*_]{0,2}\\s*:[\\s*_]{0,2}\\s*([A-Z])"
      + "(?![a-zA-Z0-9])").replace("\\s", "[\\s\\x1c-\\x1f]"), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE
      | Pattern.UNICODE_CHARACTER_CLASS);

  private Letters() {}

  static String extract(String text) {
    String extracted = null;
    Matcher matcher = FINAL_ANSWER.matcher(text);
    while (matcher.find()) {
      extracted = matcher.group(1);
    }
    if (extracted == null) {
      extracted = lastBoxed(text);
    }
    String letter = null;
    if (extracted != null) {
      extracted = latin(extracted);
      int length = extracted.codePointCount(0, extracted.length());
      if (length == 1) {
        letter = extracted.toUpperCase(Locale.ROOT);
      } else if (length > 1) {
        letter = lastStandaloneCapital(extracted);
      }
    }
    if (letter == null) {
      Matcher answer = ANSWER_COLON.matcher(text);
      while (answer.find()) {
        letter = answer.group(1).toUpperCase(Locale.ROOT);
      }
    }
    return letter;
  }

  /** The content of the last {@code \boxed{…}}, braces balanced from the last {@code \boxed}. */
  static String lastBoxed(String text) {
    int at = text.lastIndexOf("\\boxed");
    if (at < 0) {
      return null;
    }
    int depth = 0;
    for (int i = at; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        String found = text.substring(at, i + 1);
        return found.startsWith("\\boxed{") ? found.substring("\\boxed{".length(), found.length() - 1) : null;
      }
    }
    return null;
  }

  private static String latin(String text) {
    return PythonText.strip(text.replace("أ", " A").replace("ب", " B").replace("ج", " C").replace("د", " D")
        .replace("অ", " A").replace("ব", " B").replace("ড", " C").replace("ঢ", " D")
        .replace("Ａ", " A").replace("Ｂ", " B").replace("Ｃ", " C").replace("Ｄ", " D"));
  }

  /** Python's {@code \b[A-Z]\b(?!.*\b[A-Z]\b)}: the last capital A–Z with no word character either side. */
  static String lastStandaloneCapital(String text) {
    for (int i = text.length() - 1; i >= 0; i--) {
      char c = text.charAt(i);
      if (c >= 'A' && c <= 'Z' && (i == 0 || !isWord(text.codePointBefore(i)))
          && (i + 1 == text.length() || !isWord(text.codePointAt(i + 1)))) {
        return String.valueOf(c);
      }
    }
    return null;
  }

  private static boolean isWord(int c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
