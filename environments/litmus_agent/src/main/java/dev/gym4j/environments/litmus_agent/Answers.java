package dev.gym4j.environments.litmus_agent;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.gym4j.json.FieldError;
import dev.gym4j.text.BoundedText;
import dev.gym4j.text.PythonText;

/**
 * Finding the answer in a response and reading it by answer type, as NeMo Gym's litmus_agent does: the last match
 * of the row's {@code output_regex}, else of its {@code answer_format} ({@code fmt_00} … {@code fmt_30}), else of
 * a box ({@code use_box_format}) or of double parentheses; then a float (the whole capture, else its last
 * number), a boolean (1.0/0.0 from words or numbers) or the text itself.
 */
final class Answers {
  static final String FLOAT = "float";
  static final String BOOL = "bool";
  static final String STRING = "string";
  /** Time a dataset's regex may take over one response; a pathological one fails the rollout, never scores it. */
  private static final Duration BUDGET = Duration.ofSeconds(5);
  // Python's "." stops only at \n (UNIX_LINES); its \d, \s and \w are Unicode
  private static final int PYTHON = Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS;
  private static final Set<String> TRUE = Set.of("1", "1.0", "true", "yes", "present", "t", "y");
  private static final Set<String> FALSE = Set.of("0", "0.0", "false", "no", "absent", "f", "n");
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?", PYTHON);
  /** NeMo Gym's answer formats, by name: where each puts the answer. */
  static final Map<String, Pattern> FORMATS = formats();

  private Answers() {}

  private static Map<String, Pattern> formats() {
    String[][] dotAll = {{"fmt_00", "\\(\\((.*?)\\)\\)"}, {"fmt_01", "\\(Answer:\\s*(.+?)\\)"},
        {"fmt_02", "Final answer:\\s*\\((.+?)\\)"}, {"fmt_03", "Answer is\\s*\\[(.+?)\\]"},
        {"fmt_04", "\\[Answer:\\s*(.+?)\\]"}, {"fmt_05", "\\[\\[(.+?)\\]\\]"},
        {"fmt_06", "Correct Answer:\\s*\\[(.+?)\\]"}, {"fmt_07", "\\\\boxed\\{(.+?)\\}"},
        {"fmt_08", "\\\\boxed\\{(.+?)\\}"}, {"fmt_09", "\\{\\{(.+?)\\}\\}"}, {"fmt_10", "Answer Value:\\s*\\{(.+?)\\}"},
        {"fmt_11", "<<(.+?)>>"}, {"fmt_12", "<<(.+?)>>"}, {"fmt_13", "<(.+?)>"}, {"fmt_14", "<Answer:\\s*(.+?)>"},
        {"fmt_15", "<final_answer>\\s*(.+?)\\s*</final_answer>"}, {"fmt_16", "Final Answer:\\s*\\|\\|(.+?)\\|\\|"},
        {"fmt_17", "The answer is:\\s*\\|(.+?)\\|"}, {"fmt_18", "\\*\\*Answer:\\s*(.+?)\\*\\*"},
        {"fmt_19", "\\*\\*Final answer is:\\s*(.+?)\\*\\*"}, {"fmt_20", "Answer:\\s*\\*(.+?)\\*"},
        {"fmt_21", "## Answer:\\s*(.+?)\\s*##"}};
    String[][] lines = {{"fmt_22", "ANSWER IS\\s*(.+)"}, {"fmt_23", "Response:\\s*(.+)"},
        {"fmt_24", "Final Answer\\s*->\\s*(.+)"}, {"fmt_25", "Final value is:\\s*(.+)"},
        {"fmt_26", "Correct Answer >>\\s*(.+)"}, {"fmt_27", "Answer Value:\\s*(.+)"},
        {"fmt_28", "Final Answer\\s*=\\s*(.+)"}, {"fmt_29", "Correct answer is\\s*(.+)"},
        {"fmt_30", "Final Answer:\\s*(.+)"}};
    java.util.TreeMap<String, Pattern> formats = new java.util.TreeMap<>();
    for (String[] format : dotAll) {
      formats.put(format[0], Pattern.compile(format[1], PYTHON | Pattern.DOTALL));
    }
    for (String[] format : lines) {
      formats.put(format[0], Pattern.compile(format[1], PYTHON));
    }
    return java.util.Collections.unmodifiableMap(formats);
  }

  /**
   * The row's pattern: its {@code output_regex} (Python syntax, DOTALL, exactly one group), else its
   * {@code answer_format}, else {@code fmt_07} with {@code use_box_format}, else {@code fmt_00}.
   */
  static Pattern pattern(String outputRegex, String answerFormat, boolean box) {
    if (outputRegex != null) {
      Pattern pattern;
      try {
        // Python spells named groups (?P<name>...) and their references (?P=name)
        pattern = Pattern.compile(outputRegex.replace("(?P<", "(?<").replaceAll("\\(\\?P=(\\w+)\\)", "\\\\k<$1>"),
            PYTHON | Pattern.DOTALL);
      } catch (PatternSyntaxException e) {
        throw new FieldError(List.of("output_regex"), "not a valid regular expression: " + e.getDescription(),
            "value_error");
      }
      if (pattern.matcher("").groupCount() != 1) {
        throw new FieldError(List.of("output_regex"), "must have exactly one capture group", "value_error");
      }
      return pattern;
    }
    String name = answerFormat != null ? answerFormat : box ? "fmt_07" : "fmt_00";
    Pattern format = FORMATS.get(name);
    if (format == null) {
      throw new FieldError(List.of("answer_format"), "must be one of fmt_00 … fmt_30", "literal_error");
    }
    return format;
  }

  /** The last match's group, stripped ({@code re.findall(...)[-1].strip()}); null without a match. */
  static String capture(String text, Pattern pattern) {
    Matcher matcher = pattern.matcher(BoundedText.of(text, BUDGET));
    String last = null;
    while (matcher.find()) {
      last = matcher.group(1) == null ? "" : matcher.group(1);
    }
    return last == null ? null : PythonText.strip(last);
  }

  /** The captured text read as {@code answerType}: a Double for float and bool, the text for string. */
  static Object read(String raw, String answerType) {
    return switch (answerType) {
      case STRING -> raw;
      case BOOL -> bool(raw);
      default -> number(raw);
    };
  }

  static Double bool(String raw) {
    String token = PythonText.strip(raw).toLowerCase(Locale.ROOT);
    if (TRUE.contains(token)) {
      return 1.0;
    }
    if (FALSE.contains(token)) {
      return 0.0;
    }
    Double number = number(token);
    return number == null ? null : number != 0.0 ? 1.0 : 0.0;
  }

  /** {@code float(raw)}, else the last number-like token in it, else null. */
  static Double number(String raw) {
    String inner = PythonText.strip(raw);
    Optional<Double> whole = PythonText.parseFloat(inner);
    if (whole.isPresent()) {
      return whole.get();
    }
    Matcher matcher = NUMBER.matcher(BoundedText.of(inner, BUDGET));
    String last = null;
    while (matcher.find()) {
      last = matcher.group();
    }
    return last == null ? null : PythonText.parseFloat(asciiDigits(last)).orElse(null);
  }

  /** Python's float() reads any Unicode decimal digit; PythonText's reads ASCII. */
  private static String asciiDigits(String number) {
    StringBuilder out = new StringBuilder();
    number.codePoints().forEach(c -> {
      if (Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
        out.append(Character.digit(c, 10));
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  /** {@code re.sub(r"\s+", " ", str(value).strip().lower())}. */
  static String normalize(String text) {
    return PythonText.strip(text).toLowerCase(Locale.ROOT).replaceAll("(?U)\\s+", " ");
  }
}
