package dev.gym4j.environments.ragtruth;

import dev.gym4j.json.Json;
import dev.gym4j.text.PythonText;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;

/**
 * The model's {@code {"hallucination list": [...]}} object, read as NeMo Gym's ragtruth reads it: reasoning
 * blocks of the think tag removed (paired blocks, then everything up to a stray closing tag, then stray
 * opening tags), a code fence taken off (the whole text, else the first fenced block), then JSON.
 */
final class Verdicts {
  private Verdicts() {}

  /** The parsed object, or null when the text is not a JSON object. */
  static JsonNode parse(String raw, String tag) {
    String cleaned = stripFence(stripThink(raw, tag));
    if (cleaned.isEmpty()) {
      return null;
    }
    try {
      // like json.loads, text after the value is an error
      JsonNode parsed = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(cleaned);
      return parsed != null && parsed.isObject() ? parsed : null;
    } catch (JacksonException e) {
      return null;
    }
  }

  static String stripThink(String text, String tag) {
    if (text.isEmpty()) {
      return "";
    }
    String open = "<" + tag + ">";
    String close = "</" + tag + ">";
    String cleaned = cutPairs(text, open, close);
    int lastClose = lastIndexIgnoringCase(cleaned, close);
    if (lastClose >= 0) {
      int end = lastClose + close.length();
      while (end < cleaned.length() && PythonText.isSpace(cleaned.charAt(end))) {
        end++;
      }
      cleaned = cleaned.substring(end);
    }
    StringBuilder out = new StringBuilder();
    int from = 0;
    int at;
    while ((at = indexIgnoringCase(cleaned, open, from)) >= 0) {
      out.append(cleaned, from, at);
      from = at + open.length();
      while (from < cleaned.length() && PythonText.isSpace(cleaned.charAt(from))) {
        from++;
      }
    }
    return PythonText.strip(out.append(cleaned, from, cleaned.length()).toString());
  }

  /** Python's lazy {@code <tag>.*?</tag>} substitution (DOTALL, case ignored) in one pass. */
  private static String cutPairs(String text, String open, String close) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    while (true) {
      int start = indexIgnoringCase(text, open, from);
      int end = start < 0 ? -1 : indexIgnoringCase(text, close, start + open.length());
      if (end < 0) {
        return out.append(text, from, text.length()).toString();
      }
      out.append(text, from, start);
      from = end + close.length();
    }
  }

  private static int indexIgnoringCase(String text, String part, int from) {
    for (int i = from; i + part.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, part, 0, part.length())) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexIgnoringCase(String text, String part) {
    for (int i = text.length() - part.length(); i >= 0; i--) {
      if (text.regionMatches(true, i, part, 0, part.length())) {
        return i;
      }
    }
    return -1;
  }

  /**
   * NeMo Gym's two fence patterns: a text that is one fenced block gives its inside; else the first
   * {@code ```…```} block gives its inside when that is not blank; else the text, stripped.
   */
  static String stripFence(String text) {
    if (text.isEmpty() || !text.contains("```")) {
      return text;
    }
    String s = PythonText.strip(text);
    if (s.startsWith("```") && s.endsWith("```") && s.length() >= 6) {
      int open = s.regionMatches(true, 3, "json", 0, 4) && s.length() >= 10 ? 7 : 3;
      return PythonText.strip(s.substring(open, s.length() - 3));
    }
    int fence = s.indexOf("```");
    int open = fence + 3 + (s.regionMatches(true, fence + 3, "json", 0, 4) ? 4 : 0);
    while (open < s.length() && PythonText.isSpace(s.charAt(open))) {
      open++;
    }
    int close = s.indexOf("```", open);
    if (close >= 0) {
      String inner = PythonText.strip(s.substring(open, close));
      if (!inner.isEmpty()) {
        return inner;
      }
    }
    return s;
  }
}
