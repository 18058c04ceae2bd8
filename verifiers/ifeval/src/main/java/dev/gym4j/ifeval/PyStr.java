package dev.gym4j.ifeval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * Python's {@code str} methods where Java's differ, as the checks use them: {@link PythonText}'s
 * whitespace rules, and what counts as upper or lower case. The checks are ported from Python, and these
 * details decide verdicts at the edges.
 */
final class PyStr {
  /** Regex flags that make \w, \b, \s and \d Unicode-aware, as they are for Python str patterns. */
  static final int UNICODE = Pattern.UNICODE_CHARACTER_CLASS;

  private PyStr() {}

  static String strip(String text) {
    return PythonText.strip(text);
  }

  /** {@code str.strip(chars)}. */
  static String strip(String text, String chars) {
    int start = 0;
    int end = text.length();
    while (start < end && chars.indexOf(text.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && chars.indexOf(text.charAt(end - 1)) >= 0) {
      end--;
    }
    return text.substring(start, end);
  }

  static String lstrip(String text, String chars) {
    int start = 0;
    while (start < text.length() && chars.indexOf(text.charAt(start)) >= 0) {
      start++;
    }
    return text.substring(start);
  }

  static String rstrip(String text, String chars) {
    int end = text.length();
    while (end > 0 && chars.indexOf(text.charAt(end - 1)) >= 0) {
      end--;
    }
    return text.substring(0, end);
  }

  static List<String> split(String text) {
    return PythonText.split(text);
  }

  /** {@code str.split(separator)}: every piece, empty ones included. */
  static List<String> split(String text, String separator) {
    List<String> parts = new ArrayList<>();
    int from = 0;
    int at;
    while ((at = text.indexOf(separator, from)) >= 0) {
      parts.add(text.substring(from, at));
      from = at + separator.length();
    }
    parts.add(text.substring(from));
    return parts;
  }

  /** {@code str.isupper()}: some cased character, and none in lower or title case. */
  static boolean isUpper(String text) {
    boolean cased = false;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (Character.isLowerCase(c) || Character.isTitleCase(c)) {
        return false;
      }
      cased |= Character.isUpperCase(c);
      i += Character.charCount(c);
    }
    return cased;
  }

  /** {@code str.islower()}: some cased character, and none in upper or title case. */
  static boolean isLower(String text) {
    boolean cased = false;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (Character.isUpperCase(c) || Character.isTitleCase(c)) {
        return false;
      }
      cased |= Character.isLowerCase(c);
      i += Character.charCount(c);
    }
    return cased;
  }

  static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }
}
