package dev.gym4j.environments.asr_with_pc;

import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Python {@code re} character classes for str patterns, spelled for {@link Pattern}: Python's {@code \w},
 * {@code \s}, {@code \d} and {@code \b} are Unicode-aware and differ from Java's defaults (Python's {@code \w}
 * is a letter, a number or {@code _}; its {@code \s} is {@code str.isspace()}).
 */
final class PythonRegex {
  /** Python's {@code \w} (a character for which {@code str.isalnum()} holds, or {@code _}). */
  static final String W = "[\\p{L}\\p{N}_]";
  /** Python's {@code \W}. */
  static final String NOT_W = "[^\\p{L}\\p{N}_]";
  /** Python's {@code \s} ({@code str.isspace()}). */
  static final String S = "[\\x09-\\x0d\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  /** Python's {@code \d} (a Unicode decimal digit). */
  static final String D = "\\p{Nd}";
  /** Python's {@code \b}. */
  static final String B = "(?:(?<=" + W + ")(?!" + W + ")|(?<!" + W + ")(?=" + W + "))";

  private PythonRegex() {}

  /**
   * Compiles a Python pattern written with {@code \w \s \d \b} (no other escapes of those letters); {@code $}
   * and {@code .} see only {@code \n} as a line end, as in Python.
   */
  static Pattern compile(String python) {
    StringBuilder java = new StringBuilder();
    boolean inClass = false;
    for (int i = 0; i < python.length(); i++) {
      char c = python.charAt(i);
      if (c == '\\' && i + 1 < python.length()) {
        char next = python.charAt(++i);
        String escape = switch (next) {
          case 'w' -> W;
          case 's' -> S;
          case 'd' -> D;
          case 'b' -> B;
          default -> "\\" + next;
        };
        // inside [...] a class is spliced in without its brackets (\b is not used there)
        java.append(inClass && escape.startsWith("[") ? escape.substring(1, escape.length() - 1) : escape);
      } else {
        inClass = c == '[' || inClass && c != ']';
        java.append(c);
      }
    }
    return Pattern.compile(java.toString(), Pattern.UNIX_LINES);
  }

  /** Python's {@code re.sub} with a replacement function: what it returns is taken literally. */
  static String sub(Pattern pattern, String text, Function<MatchResult, String> replacement) {
    Matcher matcher = pattern.matcher(text);
    return matcher.replaceAll(match -> Matcher.quoteReplacement(replacement.apply(match)));
  }

  /** Python's {@code re.sub} with a template of literal text and {@code \1}-style group references. */
  static String sub(Pattern pattern, String text, String template) {
    return sub(pattern, text, match -> expand(template, match));
  }

  private static String expand(String template, MatchResult match) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '\\' && i + 1 < template.length() && Character.isDigit(template.charAt(i + 1))) {
        String group = match.group(template.charAt(++i) - '0');
        out.append(group == null ? "" : group);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
