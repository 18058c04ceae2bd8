package dev.gym4j.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Python's string primitives where Java's differ and NeMo Gym's verifiers depend on the difference:
 * {@code str.strip()} and {@code str.split()} with Python's whitespace (no-break spaces included),
 * {@code str.splitlines()} and {@code float()} parsing (underscores, {@code inf}, {@code nan}, no
 * {@code f}/{@code d} suffixes).
 */
public final class PythonText {
  private static final Pattern FLOAT = Pattern.compile(
      "[+-]?(?:(?:\\d(?:_?\\d)*)?\\.?\\d(?:_?\\d)*(?:[eE][+-]?\\d(?:_?\\d)*)?|\\d(?:_?\\d)*\\.(?:[eE][+-]?\\d(?:_?\\d)*)?"
          + "|(?i:inf|infinity|nan))");
  private static final Pattern LINE_BREAKS = Pattern.compile("\r\n|[\n\r\u000B\u000C\u001C\u001D\u001E\u0085\u2028\u2029]");

  private PythonText() {}

  public static boolean isSpace(int c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == 0x85;
  }

  public static String strip(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isSpace(text.charAt(start))) {
      start++;
    }
    while (end > start && isSpace(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(start, end);
  }

  /** {@code str.split()}: runs of whitespace separate, and no empty words. */
  public static List<String> split(String text) {
    List<String> words = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      while (i < text.length() && isSpace(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < text.length() && !isSpace(text.charAt(i))) {
        i++;
      }
      if (i > start) {
        words.add(text.substring(start, i));
      }
    }
    return words;
  }

  public static List<String> splitLines(String text) {
    List<String> lines = new ArrayList<>(List.of(LINE_BREAKS.split(text, -1)));
    if (!lines.isEmpty() && lines.getLast().isEmpty()) {
      lines.removeLast();
    }
    return lines;
  }

  /** {@code float(text)}, or empty where Python raises ValueError. */
  public static Optional<Double> parseFloat(String text) {
    String t = strip(text);
    if (!FLOAT.matcher(t).matches()) {
      return Optional.empty();
    }
    String lower = t.toLowerCase(java.util.Locale.ROOT).replace("_", "");
    String unsigned = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
    double sign = lower.startsWith("-") ? -1 : 1;
    if (unsigned.equals("inf") || unsigned.equals("infinity")) {
      return Optional.of(sign * Double.POSITIVE_INFINITY);
    }
    if (unsigned.equals("nan")) {
      return Optional.of(Double.NaN);
    }
    return Optional.of(Double.parseDouble(lower));
  }
}
