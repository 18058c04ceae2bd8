package dev.gym4j.environments.spartqa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * Reading a SpartQA choose-object answer and resolving it to one of the four labels, with the rules of
 * NeMo Gym's resources_servers/spartqa/app.py: the last {@code Final answer: …} (or {@code Selected
 * answer}, {@code Answer}, {@code the answer is …}) after reasoning blocks are cut, cleaned of list marks,
 * emphasis and quotes; then a label equal to it (articles and punctuation ignored), an alias of "both" or
 * "none", or the one label it contains. Every pattern runs in linear time on any text.
 */
final class Answers {
  static final String BOTH = "both of them";
  static final String NONE = "none of them";
  private static final Set<String> BOTH_ALIASES = Set.of("both", "both of them", "both objects", "both of the objects",
      "both of these");
  private static final Set<String> NONE_ALIASES = Set.of("none", "none of them", "none of the objects", "neither",
      "neither of them", "neither object", "no object", "dk", "do not know", "dont know");
  private static final String PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
  // Python's \s: Unicode white space plus the separators \x1c-\x1f
  private static final String S = "[\\s\\x1c-\\x1f]";
  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.MULTILINE | Pattern.UNIX_LINES
      | Pattern.UNICODE_CHARACTER_CLASS;
  /*
   * NeMo Gym's line-anchored patterns start "(?:^|\n)\s*(?:[*_`#>\-\s]*)": the same keyword occurrences
   * are found from the last newline of that run (no newline in the possessive run), so a long run of
   * blank lines is scanned once instead of once per newline. The capture is the same.
   */
  private static final String LINE_START = "(?:^|\\n)[*_`#>\\-\\s\\x1c-\\x1f&&[^\\n]]*+";
  private static final String SEPARATOR = "(?:" + S + "+is)?[*_`\\s\\x1c-\\x1f]*+[:\\-]" + S + "*(.+)";
  private static final List<Pattern> PATTERNS = List.of(
      Pattern.compile(LINE_START + "final" + S + "+answer" + SEPARATOR, FLAGS),
      Pattern.compile(LINE_START + "selected" + S + "+answer" + SEPARATOR, FLAGS),
      Pattern.compile(LINE_START + "answer" + SEPARATOR, FLAGS),
      Pattern.compile("\\b(?:the" + S + "+)?(?:final" + S + "+)?answer" + S + "+(?:is|would" + S + "+be|should" + S
          + "+be)" + S + "*[:\\-]?" + S + "*(.+)", FLAGS),
      Pattern.compile("\\bselected" + S + "+(?:option|answer)" + S + "+(?:is|would" + S + "+be)" + S + "*[:\\-]?" + S
          + "*(.+)", FLAGS));
  private static final Pattern THINK_TAG = Pattern.compile("</?think>", Pattern.CASE_INSENSITIVE);
  private static final Pattern ARTICLE = Pattern.compile("^(?:a|an|the)" + S + "+", Pattern.UNICODE_CHARACTER_CLASS);
  private static final List<String> PREAMBLES = List.of("thinking process", "analysis", "the user wants", "we need");

  private Answers() {}

  /** Lower case, ASCII punctuation removed, whitespace collapsed. */
  static String normalize(String text) {
    StringBuilder kept = new StringBuilder();
    PythonText.strip(text).toLowerCase(java.util.Locale.ROOT).codePoints()
        .filter(c -> c > 127 || PUNCTUATION.indexOf(c) < 0).forEach(kept::appendCodePoint);
    return String.join(" ", PythonText.split(kept.toString()));
  }

  static String labelKey(String text) {
    return PythonText.strip(ARTICLE.matcher(normalize(text)).replaceFirst(""));
  }

  static String extract(String response) {
    String text = PythonText.strip(cut(cut(response, "<think>", "</think>"), "<|channel>thought", "<channel|>"));
    String extracted = null;
    for (Pattern pattern : PATTERNS) {
      Matcher matcher = pattern.matcher(text);
      while (matcher.find()) {
        String captured = PythonText.strip(matcher.group(1));
        if (!captured.isEmpty() && !normalize(captured).equals("candidate answer")) {
          extracted = captured;
        }
      }
      if (extracted != null) {
        break;
      }
    }
    if (extracted != null) {
      text = extracted;
    }
    List<String> lines = new ArrayList<>();
    for (String line : PythonText.splitLines(text)) {
      if (!PythonText.strip(line).isEmpty()) {
        String cleaned = clean(line);
        String key = normalize(cleaned);
        if (!cleaned.isEmpty() && !key.equals("final answer") && !key.equals("answer")) {
          lines.add(cleaned);
        }
      }
    }
    if (lines.isEmpty()) {
      return "";
    }
    if (extracted == null && lines.size() > 1) {
      String first = normalize(lines.getFirst());
      if (PREAMBLES.stream().anyMatch(first::startsWith)) {
        return lines.getLast();
      }
    }
    return lines.getFirst();
  }

  /**
   * Every block from {@code open} to the nearest {@code close} removed, case ignored: what Python's lazy
   * {@code open.*?close} substitution leaves, found in one pass (once a block has no close, none after it has).
   */
  static String cut(String text, String open, String close) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    while (true) {
      int start = indexOfIgnoringCase(text, open, from);
      int end = start < 0 ? -1 : indexOfIgnoringCase(text, close, start + open.length());
      if (end < 0) {
        return out.append(text, from, text.length()).toString();
      }
      out.append(text, from, start);
      from = end + close.length();
    }
  }

  private static int indexOfIgnoringCase(String text, String part, int from) {
    for (int i = from; i + part.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, part, 0, part.length())) {
        return i;
      }
    }
    return -1;
  }

  private static String clean(String line) {
    String text = PythonText.strip(line);
    int start = 0;
    while (start < text.length() && ("-*•".indexOf(text.charAt(start)) >= 0 || PythonText.isSpace(text.charAt(start)))) {
      start++;
    }
    text = text.substring(start);
    int from = 0;
    while (from < text.length() && text.charAt(from) == '*') {
      from++;
    }
    int to = text.length();
    while (to > from && text.charAt(to - 1) == '*') {
      to--;
    }
    text = PythonText.strip(text.substring(from, to));
    text = PythonText.strip(THINK_TAG.matcher(text).replaceAll(""));
    return stripChars(PythonText.strip(text), "\"'` ");
  }

  private static String stripChars(String text, String chars) {
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

  /** The two story objects, then "both of them" and "none of them", each once by its key. */
  static List<String> candidateLabels(List<String> options) {
    Map<String, String> labels = new LinkedHashMap<>();
    List<String> all = new ArrayList<>(options);
    all.add(BOTH);
    all.add(NONE);
    for (String label : all) {
      String key = labelKey(label);
      if (!key.isEmpty()) {
        labels.putIfAbsent(key, PythonText.strip(label));
      }
    }
    return List.copyOf(labels.values());
  }

  /** The one label the prediction names, or null when it names none or several. */
  static String match(String prediction, List<String> labels) {
    String key = labelKey(prediction);
    if (key.isEmpty()) {
      return null;
    }
    Map<String, String> byKey = new LinkedHashMap<>();
    labels.forEach(label -> byKey.put(labelKey(label), label));
    if (byKey.containsKey(key)) {
      return byKey.get(key);
    }
    if (BOTH_ALIASES.contains(key) && byKey.containsValue(BOTH)) {
      return byKey.get(labelKey(BOTH));
    }
    if (NONE_ALIASES.contains(key) && byKey.containsValue(NONE)) {
      return byKey.get(labelKey(NONE));
    }
    List<String> hits = byKey.keySet().stream().filter(k -> !k.isEmpty() && key.contains(k)).toList();
    // a label inside a longer hit ("a triangle in block B") yields to the more specific one
    List<String> specific = hits.stream()
        .filter(hit -> hits.stream().noneMatch(other -> !other.equals(hit) && other.contains(hit))).toList();
    return specific.size() == 1 ? byKey.get(specific.getFirst()) : null;
  }
}
