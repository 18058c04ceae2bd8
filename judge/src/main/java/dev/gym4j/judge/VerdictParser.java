package dev.gym4j.judge;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a verdict from a judge's text, or finds none (the call is then {@code judge_unparseable}). The text
 * is model output: parsers look at a bounded tail of it and run in linear time. Implementations are
 * stateless and thread-safe.
 */
@FunctionalInterface
public interface VerdictParser<T> {
  /** Parsers read at most this many characters, the last ones (where verdicts are written). */
  int MAX_CHARS = 200_000;

  Optional<T> parse(String text);

  /**
   * The label that occurs first in the text, e.g. {@code [[A=B]]} before {@code [[A!=B]]}: NeMo Gym's
   * equivalence judges decide by the earliest label ({@code resources_servers/equivalence_llm_judge/app.py}).
   */
  static VerdictParser<String> labels(String... labels) {
    List<String> all = List.of(labels);
    return text -> {
      String tail = tail(text);
      String first = null;
      int at = Integer.MAX_VALUE;
      for (String label : all) {
        int i = tail.indexOf(label);
        if (i >= 0 && i < at) {
          at = i;
          first = label;
        }
      }
      return Optional.ofNullable(first);
    };
  }

  /** The last JSON object in the text (bare or in a code fence) that parses. */
  static VerdictParser<ObjectNode> jsonObject() {
    return text -> {
      String tail = tail(text);
      int tries = 0;
      for (int end = tail.lastIndexOf('}'); end >= 0 && tries < 32; end = tail.lastIndexOf('}', end - 1), tries++) {
        int start = matchingOpen(tail, end);
        if (start >= 0) {
          try {
            JsonNode node = Json.parse(tail.substring(start, end + 1));
            if (node instanceof ObjectNode object) {
              return Optional.of(object);
            }
          } catch (RuntimeException notJson) {
            // keep looking further left
          }
        }
      }
      return Optional.empty();
    };
  }

  /** The number in the last match of {@code pattern}'s first group, when it lies in [min, max]. */
  static VerdictParser<Double> number(Pattern pattern, double min, double max) {
    return text -> {
      Matcher m = pattern.matcher(tail(text));
      String last = null;
      while (m.find()) {
        last = m.group(1);
      }
      if (last == null) {
        return Optional.empty();
      }
      try {
        double value = Double.parseDouble(last.strip());
        return value >= min && value <= max ? Optional.of(value) : Optional.empty();
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    };
  }

  /** The first group of the first match of {@code pattern}, e.g. a grade letter. */
  static VerdictParser<String> firstMatch(Pattern pattern) {
    return text -> {
      Matcher m = pattern.matcher(tail(text));
      return m.find() ? Optional.ofNullable(m.groupCount() > 0 ? m.group(1) : m.group()) : Optional.empty();
    };
  }

  /**
   * A grade letter as NeMo Gym's omniscience and abstention servers read one: the whole stripped text, or its
   * last line, when that is exactly one of the letters; else the first of the letters, in the given order,
   * that occurs anywhere in the text (NeMo Gym then falls back to a fixed grade; here there is none).
   */
  static VerdictParser<String> letterGrade(String letters) {
    return text -> {
      String cleaned = dev.gym4j.text.PythonText.strip(tail(text));
      if (cleaned.length() == 1 && letters.contains(cleaned)) {
        return Optional.of(cleaned);
      }
      String lastLine = dev.gym4j.text.PythonText.strip(cleaned.substring(cleaned.lastIndexOf('\n') + 1));
      if (lastLine.length() == 1 && letters.contains(lastLine)) {
        return Optional.of(lastLine);
      }
      for (char letter : letters.toCharArray()) {
        if (cleaned.indexOf(letter) >= 0) {
          return Optional.of(String.valueOf(letter));
        }
      }
      return Optional.empty();
    };
  }

  /** One of the given letters standing alone (not inside a word), the first such in the text. */
  static VerdictParser<String> letter(String letters) {
    if (!letters.matches("[A-Za-z]+")) {
      throw new IllegalArgumentException("verdict letters must be ASCII letters, got: " + letters);
    }
    return firstMatch(Pattern.compile("(?<![A-Za-z0-9])([" + letters + "])(?![A-Za-z0-9])"));
  }

  private static String tail(String text) {
    return text.length() <= MAX_CHARS ? text : text.substring(text.length() - MAX_CHARS);
  }

  /** The '{' that the '}' at {@code end} closes, counting braces outside JSON strings; -1 if none. */
  private static int matchingOpen(String text, int end) {
    int depth = 0;
    boolean inString = false;
    // scanning backwards, a quote is escaped when an odd number of backslashes precede it
    for (int i = end; i >= 0; i--) {
      char c = text.charAt(i);
      if (c == '"' && !escaped(text, i)) {
        inString = !inString;
      } else if (!inString && c == '}') {
        depth++;
      } else if (!inString && c == '{' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static boolean escaped(String text, int quote) {
    int backslashes = 0;
    for (int i = quote - 1; i >= 0 && text.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }
}
