package dev.gym4j.ifeval;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Python {@code re} on str patterns, in Java: Unicode classes, and only \n ends a line. */
final class Regexes {
  private static final int PYTHON = PyStr.UNICODE | Pattern.UNIX_LINES;

  private Regexes() {}

  static Pattern compile(String regex) {
    return Pattern.compile(regex, PYTHON);
  }

  static Pattern compile(String regex, int flags) {
    return Pattern.compile(regex, PYTHON | flags);
  }

  /** A pattern taken from the kwargs as Python takes it (unescaped), matched ignoring case. */
  static Pattern ignoringCase(String regex) {
    return Pattern.compile(regex, PYTHON | Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  }

  /** {@code len(re.findall(...))}. */
  static int count(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    int count = 0;
    while (matcher.find()) {
      count++;
    }
    return count;
  }
}
