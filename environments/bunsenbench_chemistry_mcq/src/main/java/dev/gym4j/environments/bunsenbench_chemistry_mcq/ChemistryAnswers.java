package dev.gym4j.environments.bunsenbench_chemistry_mcq;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * Reading the chosen letter of a BunsenBench chemistry answer, with the rules of NeMo Gym's
 * resources_servers/bunsenbench_chemistry_mcq/app.py: candidates from {@code <choice>}-style tags,
 * {@code \boxed{}}, {@code Answer:} lines and "the answer is …" phrases, tried from the last one back; each
 * read as a letter ({@code B}, {@code (B)}, {@code option B}) or as an option's text compared after
 * chemistry normalisation (entities, NFKC, sub- and superscripts); then the last and first lines.
 *
 * @param options the options, in order, as letter and text
 * @param allowed the letters an answer may be
 */
record ChemistryAnswers(List<Map.Entry<String, String>> options, Set<String> allowed) {
  private static final int PY = Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS;
  private static final int I = Pattern.CASE_INSENSITIVE;
  private static final Pattern ANSWER_LINE = py("^\\s*(?:(?:[-*•]|\\d+[.)])\\s*)?(?:\\*\\*)?answer(?:\\*\\*)?\\s*:\\s*(.+?)\\s*$",
      I | Pattern.MULTILINE);
  private static final Pattern INLINE_ANSWER = py("(?:\\*\\*)?answer(?:\\*\\*)?\\s*:\\s*(.+?)(?=$|[\\r\\n])",
      I | Pattern.DOTALL);
  private static final Pattern ANSWER_PHRASE = py("(?:the\\s+(?:correct\\s+)?answer\\s+is|my\\s+answer\\s+is|i\\s+(?:choose|select))"
      + "\\s+(.+?)(?:\\n|$)", I | Pattern.DOTALL);
  private static final Pattern XML_ANSWER = py("<\\s*(answer|choice|response|final_answer|final-answer)\\b[^>]*>\\s*(.*?)\\s*"
      + "<\\s*/\\s*\\1\\s*>", I | Pattern.DOTALL);
  private static final Pattern CHOICES_BLOCK = py("<\\s*choices\\b[^>]*>.*?<\\s*/\\s*choices\\s*>", I | Pattern.DOTALL);
  private static final Pattern CHOICE_TAG = py("<\\s*choice\\b[^>]*>\\s*(.*?)\\s*<\\s*/\\s*choice\\s*>", I | Pattern.DOTALL);
  private static final Pattern BOXED_START = py("\\\\boxed\\s*\\{", 0);
  private static final Pattern BOXED = py("\\\\boxed\\{\\s*(.*?)\\s*\\}", Pattern.DOTALL);
  private static final Pattern TEXT_WRAPPER = py("\\\\(?:text|mathrm|operatorname)\\{\\s*(.*?)\\s*\\}", Pattern.DOTALL);
  private static final Pattern OPTION_LETTER = py("(?:option|choice)\\s+([A-Z])\\s*[\\)\\].:]?", I);
  private static final Pattern LEADING_LETTER = py("^([A-Z])[\\)\\].:](?:\\s|$)", I);
  private static final Pattern LONE_LETTER = py("[^A-Za-z]*([A-Za-z])[^A-Za-z]*", 0);
  private static final String WRAPPER_CHARS = " \t\r\n`*_\"'";
  private static final Map<Integer, String> TRANSLATION = Map.ofEntries(
      Map.entry((int) '₀', "0"), Map.entry((int) '₁', "1"), Map.entry((int) '₂', "2"), Map.entry((int) '₃', "3"),
      Map.entry((int) '₄', "4"), Map.entry((int) '₅', "5"), Map.entry((int) '₆', "6"), Map.entry((int) '₇', "7"),
      Map.entry((int) '₈', "8"), Map.entry((int) '₉', "9"), Map.entry((int) '⁰', "0"), Map.entry((int) '¹', "1"),
      Map.entry((int) '²', "2"), Map.entry((int) '³', "3"), Map.entry((int) '⁴', "4"), Map.entry((int) '⁵', "5"),
      Map.entry((int) '⁶', "6"), Map.entry((int) '⁷', "7"), Map.entry((int) '⁸', "8"), Map.entry((int) '⁹', "9"),
      Map.entry((int) '⁺', "+"), Map.entry((int) '⁻', "-"), Map.entry((int) '₊', "+"), Map.entry((int) '₋', "-"),
      Map.entry((int) '＋', "+"), Map.entry((int) '−', "-"), Map.entry((int) '–', "-"), Map.entry((int) '—', "-"),
      Map.entry((int) '‒', "-"), Map.entry((int) '‑', "-"), Map.entry((int) '×', "x"), Map.entry((int) '✕', "x"),
      Map.entry((int) '·', "."), Map.entry((int) '∙', "."), Map.entry((int) '⋅', "."), Map.entry((int) '•', "."),
      Map.entry((int) 'µ', "u"), Map.entry((int) 'μ', "u"), Map.entry((int) '⁄', "/"), Map.entry((int) '∕', "/"));

  /** A Python regex with Python's {@code \s} (which also takes the separators \x1c-\x1f) and line rules. */
  static Pattern py(String regex, int flags) {
    return Pattern.compile(regex.replace("\\s", "[\\s\\x1c-\\x1f]"), flags | PY);
  }

  /** The letter the text chooses, or null. */
  String extract(String text) {
    List<Candidate> candidates = candidates(text);
    // last first; at one position, the larger text first (Python sorts the (start, text) pairs)
    candidates.sort(Comparator.comparingInt(Candidate::start).thenComparing(Candidate::text, ChemistryAnswers::byCodePoint)
        .reversed());
    for (Candidate candidate : candidates) {
      String parsed = parse(candidate.text());
      if (parsed != null) {
        return parsed;
      }
    }
    List<String> lines = PythonText.splitLines(text).stream().map(PythonText::strip).filter(l -> !l.isEmpty()).toList();
    if (!lines.isEmpty()) {
      String parsed = parse(lines.getLast());
      return parsed != null ? parsed : parse(lines.getFirst());
    }
    return null;
  }

  private record Candidate(int start, String text) {}

  private static int byCodePoint(String a, String b) {
    return java.util.Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  private static List<Candidate> candidates(String text) {
    List<Candidate> candidates = new ArrayList<>();
    List<int[]> choiceBlocks = spans(CHOICES_BLOCK, text);
    Matcher xml = XML_ANSWER.matcher(text);
    while (xml.find()) {
      int start = xml.start();
      if (xml.group(1).equalsIgnoreCase("choice") && inside(choiceBlocks, start)) {
        continue;
      }
      candidates.add(new Candidate(start, xml.group(2)));
    }
    candidates.addAll(boxed(text));
    for (Pattern pattern : List.of(ANSWER_LINE, INLINE_ANSWER, ANSWER_PHRASE)) {
      Matcher matcher = pattern.matcher(text);
      while (matcher.find()) {
        candidates.add(new Candidate(matcher.start(), matcher.group(1)));
      }
    }
    return candidates;
  }

  private static List<int[]> spans(Pattern pattern, String text) {
    List<int[]> spans = new ArrayList<>();
    Matcher matcher = pattern.matcher(text);
    while (matcher.find()) {
      spans.add(new int[] {matcher.start(), matcher.end()});
    }
    return spans;
  }

  private static boolean inside(List<int[]> spans, int position) {
    return spans.stream().anyMatch(span -> span[0] <= position && position < span[1]);
  }

  /** A {@code <choice>} tag outside any {@code <choices>} block. */
  static boolean hasChoiceTag(String text) {
    List<int[]> blocks = spans(CHOICES_BLOCK, text);
    Matcher matcher = CHOICE_TAG.matcher(text);
    while (matcher.find()) {
      if (!inside(blocks, matcher.start())) {
        return true;
      }
    }
    return false;
  }

  /** Each {@code \boxed{…}} with balanced braces (a backslash escapes the next character); an unclosed one ends the list. */
  private static List<Candidate> boxed(String text) {
    List<Candidate> found = new ArrayList<>();
    Matcher start = BOXED_START.matcher(text);
    int from = 0;
    while (start.find(from)) {
      int brace = start.end() - 1;
      int depth = 1;
      int at = brace + 1;
      while (at < text.length() && depth > 0) {
        char c = text.charAt(at);
        if (c == '\\') {
          at += 2;
          continue;
        }
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        at++;
      }
      if (depth != 0) {
        break;
      }
      found.add(new Candidate(start.start(), text.substring(brace + 1, at - 1)));
      from = at;
    }
    return found;
  }

  /** A candidate as a letter, else as an option's text, then again without wrappers. */
  String parse(String raw) {
    String candidate = PythonText.strip(raw);
    if (candidate.isEmpty()) {
      return null;
    }
    String letter = letter(candidate);
    if (letter == null) {
      letter = optionText(candidate);
    }
    if (letter != null) {
      return letter;
    }
    candidate = stripWrappers(candidate);
    if (candidate.isEmpty()) {
      return null;
    }
    letter = letter(candidate);
    return letter != null ? letter : optionText(candidate);
  }

  private String letter(String candidate) {
    if (candidate.codePointCount(0, candidate.length()) == 1 && Character.isLetter(candidate.codePointAt(0))) {
      String letter = candidate.toUpperCase(Locale.ROOT);
      return allowed.contains(letter) ? letter : null;
    }
    for (Matcher matcher : List.of(OPTION_LETTER.matcher(candidate), LEADING_LETTER.matcher(candidate),
        LONE_LETTER.matcher(candidate))) {
      boolean found = matcher.pattern() == LEADING_LETTER ? matcher.lookingAt() : matcher.matches();
      if (found && allowed.contains(matcher.group(1).toUpperCase(Locale.ROOT))) {
        return matcher.group(1).toUpperCase(Locale.ROOT);
      }
    }
    return null;
  }

  private String optionText(String candidate) {
    String normalized = normalize(candidate);
    for (Map.Entry<String, String> option : options) {
      String letter = option.getKey().toUpperCase(Locale.ROOT);
      if (allowed.contains(letter) && normalize(option.getValue()).equals(normalized)) {
        return letter;
      }
    }
    return null;
  }

  static String stripWrappers(String raw) {
    String candidate = strip(raw, WRAPPER_CHARS);
    Matcher boxed = BOXED.matcher(candidate);
    if (boxed.matches()) {
      candidate = PythonText.strip(boxed.group(1));
    }
    Matcher wrapper;
    while ((wrapper = TEXT_WRAPPER.matcher(candidate)).matches()) {
      candidate = PythonText.strip(wrapper.group(1));
    }
    while (candidate.length() >= 2 && "([{\"'<".indexOf(candidate.charAt(0)) >= 0
        && ")]}\"'>".indexOf(candidate.charAt(candidate.length() - 1)) >= 0) {
      candidate = strip(candidate.substring(1, candidate.length() - 1), WRAPPER_CHARS);
    }
    return strip(candidate, WRAPPER_CHARS + ".;,");
  }

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

  /** Entities decoded, NFKC, sub- and superscripts and dashes made plain, format characters dropped, spaces collapsed. */
  static String normalize(String value) {
    String text = Normalizer.normalize(Entities.unescape(value), Normalizer.Form.NFKC);
    StringBuilder out = new StringBuilder();
    text.codePoints().forEach(c -> {
      String replacement = TRANSLATION.get(c);
      if (replacement != null) {
        out.append(replacement);
      } else if (Character.getType(c) != Character.FORMAT) {
        out.appendCodePoint(c);
      }
    });
    return String.join(" ", PythonText.split(out.toString()));
  }
}
