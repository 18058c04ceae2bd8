package dev.gym4j.environments.structeval;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.FieldError;
import dev.gym4j.text.PythonText;

/**
 * StructEval's dot paths ({@code eval_utils.py}, as NeMo Gym's structeval has them): {@code a.b},
 * backticks around keys holding dots, {@code [n]} indices, {@code *} over a list's items, {@code @attr} also
 * found as {@code attr}, and {@code csv::Header} for a CSV header.
 */
final class Paths {
  private Paths() {}

  static List<String> tokens(String path) {
    if (path.startsWith("csv::")) {
      return List.of(path);
    }
    List<String> tokens = new ArrayList<>();
    StringBuilder buffer = new StringBuilder();
    boolean quoted = false;
    int i = 0;
    while (i < path.length()) {
      char c = path.charAt(i);
      if (c == '`') {
        quoted = !quoted;
        i++;
      } else if (c == '.' && !quoted) {
        flush(buffer, tokens);
        i++;
      } else if (c == '[' && !quoted) {
        flush(buffer, tokens);
        int close = path.indexOf(']', i);
        if (close < 0) {
          throw new FieldError(List.of("raw_output_metric"), "has a path with an unclosed '[': " + path, "value_error");
        }
        tokens.add(path.substring(i, close + 1));
        i = close + 1;
      } else {
        buffer.append(c);
        i++;
      }
    }
    flush(buffer, tokens);
    return tokens;
  }

  private static void flush(StringBuilder buffer, List<String> tokens) {
    if (!buffer.isEmpty()) {
      tokens.add(buffer.toString());
      buffer.setLength(0);
    }
  }

  static boolean exists(Object data, String path) {
    return walk(data, tokens(path), 0);
  }

  private static boolean walk(Object node, List<String> tokens, int at) {
    if (at == tokens.size()) {
      return true;
    }
    String token = tokens.get(at);
    if (node instanceof Map<?, ?> map && map.containsKey("csv_headers") && token.startsWith("csv::")) {
      return map.get("csv_headers") instanceof List<?> headers && headers.contains(token.substring(5))
          && at + 1 == tokens.size();
    }
    if (token.equals("*")) {
      return node instanceof List<?> list && list.stream().anyMatch(item -> walk(item, tokens, at + 1));
    }
    if (token.startsWith("[") && token.endsWith("]")) {
      Integer index = pythonInt(token.substring(1, token.length() - 1));
      return index != null && node instanceof List<?> list && index >= 0 && index < list.size()
          && walk(list.get(index), tokens, at + 1);
    }
    if (node instanceof Map<?, ?> map) {
      if (map.containsKey(token)) {
        return walk(map.get(token), tokens, at + 1);
      }
      if (token.startsWith("@") && map.containsKey(token.substring(1))) {
        return walk(map.get(token.substring(1)), tokens, at + 1);
      }
    }
    return false;
  }

  /** Python's {@code int(text)}: surrounding space, a sign and underscores between digits allowed. */
  private static Integer pythonInt(String text) {
    String s = PythonText.strip(text);
    if (!s.matches("[+-]?\\d+(_\\d+)*")) {
      return null;
    }
    try {
      return Integer.valueOf(s.replace("_", "").replace("+", ""));
    } catch (NumberFormatException e) {
      return s.startsWith("-") ? -1 : Integer.MAX_VALUE;
    }
  }
}
