package dev.gym4j.environments.arc_agi;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.text.PythonText;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The answer grid of an ARC-AGI response, as NeMo Gym's resources_servers/arc_agi/app.py finds it: the
 * {@code \boxed{[[…]]}} groups, or when there are none every {@code [[…]]}, in order; the first that parses,
 * white space removed, as a non-empty list of lists of integers with a non-empty first row.
 *
 * <p>NeMo Gym uses two backtracking regexes, {@code \[\s*\[[\d\s,\[\]]+\]\s*\]} and the same inside
 * {@code \boxed{…}}. Every such match lies in a maximal run of digits, white space, commas and brackets, and
 * greedy matching ends it at the last {@code ] … ]} of the run, so the same matches are found here in one
 * pass over each run.
 */
final class Grids {
  private Grids() {}

  static JsonNode parse(String text) {
    List<String> found = boxed(text);
    if (found.isEmpty()) {
      found = bracketed(text);
    }
    for (String match : found) {
      JsonNode grid = grid(match);
      if (grid != null) {
        return grid;
      }
    }
    return null;
  }

  /** The groups of {@code \\boxed\{(\[\s*\[[\d\s,\[\]]+\]\s*\])\}}. */
  static List<String> boxed(String text) {
    List<String> groups = new ArrayList<>();
    int at = 0;
    while ((at = text.indexOf("\\boxed{", at)) >= 0) {
      int open = at + "\\boxed{".length();
      int end = runEnd(text, open);
      if (end < text.length() && text.charAt(end) == '}' && last(text, open, end) == end - 1) {
        groups.add(text.substring(open, end));
      }
      at = open;
    }
    return groups;
  }

  /** The matches of {@code \[\s*\[[\d\s,\[\]]+\]\s*\]}, left to right, not overlapping. */
  static List<String> bracketed(String text) {
    List<String> matches = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      if (!inRun(text.charAt(i))) {
        i++;
        continue;
      }
      int end = runEnd(text, i);
      // only the first start in a run can match: a later one would need a closing pair further right
      for (int start = i; start < end; start++) {
        if (secondBracket(text, start) >= 0) {
          int close = last(text, start, end);
          if (close >= 0) {
            matches.add(text.substring(start, close + 1));
          }
          break;
        }
      }
      i = end;
    }
    return matches;
  }

  /** Where {@code \[\s*\[} starting at {@code start} has its second bracket, or -1. */
  private static int secondBracket(String text, int start) {
    if (start >= text.length() || text.charAt(start) != '[') {
      return -1;
    }
    int j = start + 1;
    while (j < text.length() && PythonText.isSpace(text.charAt(j))) {
      j++;
    }
    return j < text.length() && text.charAt(j) == '[' ? j : -1;
  }

  /**
   * The index of the closing bracket of the longest {@code \[\s*\[X+\]\s*\]} that starts at {@code start}
   * and stays before {@code end}, or -1.
   */
  private static int last(String text, int start, int end) {
    int second = secondBracket(text, start);
    if (second < 0) {
      return -1;
    }
    for (int close = end - 1; close >= second + 3; close--) {
      if (text.charAt(close) != ']') {
        continue;
      }
      int inner = close - 1;
      while (inner > second && PythonText.isSpace(text.charAt(inner))) {
        inner--;
      }
      if (inner >= second + 2 && text.charAt(inner) == ']') {
        return close;
      }
    }
    return -1;
  }

  private static int runEnd(String text, int from) {
    int end = from;
    while (end < text.length() && inRun(text.charAt(end))) {
      end++;
    }
    return end;
  }

  /** Python's {@code [\d\s,\[\]]}. */
  private static boolean inRun(char c) {
    return Character.isDigit(c) || PythonText.isSpace(c) || c == ',' || c == '[' || c == ']';
  }

  private static JsonNode grid(String match) {
    StringBuilder cleaned = new StringBuilder();
    match.chars().filter(c -> !PythonText.isSpace(c)).forEach(c -> cleaned.append((char) c));
    JsonNode grid;
    try {
      grid = Json.parse(cleaned.toString());
    } catch (JacksonException e) {
      return null;
    }
    if (!grid.isArray() || grid.isEmpty()) {
      return null;
    }
    for (JsonNode row : grid) {
      if (!row.isArray()) {
        return null;
      }
      for (JsonNode cell : row) {
        if (!cell.isIntegralNumber()) {
          return null;
        }
      }
    }
    return grid.get(0).isEmpty() ? null : grid;
  }
}
