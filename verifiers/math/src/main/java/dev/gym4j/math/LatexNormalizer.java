package dev.gym4j.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites an extracted LaTeX answer into the subset {@link MathParser} reads: boxes opened, spacing and
 * sizing commands dropped, fraction and root shorthands written out, units, degrees and thousands
 * separators removed. Each rule exists because answers are written that way, not to be a TeX engine.
 */
final class LatexNormalizer {
  private static final Pattern BOX = Pattern.compile("\\\\(?:boxed|fbox)\\s*\\{");
  private static final Pattern SPACING = Pattern.compile(
      "\\\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg|displaystyle|textstyle)(?![a-zA-Z])"
          + "|(?<!\\\\)\\\\[,;:! ]|\\\\q?quad(?![a-zA-Z])|~|\\\\hspace\\*?\\{[^}]*\\}");
  private static final Pattern FRAC_ALIAS = Pattern.compile("\\\\[dtc]frac(?![a-zA-Z])");
  private static final Pattern FRAC_SHORT = Pattern.compile("\\\\frac\\s*([0-9a-zA-Z])\\s*([0-9a-zA-Z])");
  private static final Pattern FRAC_SHORT_NUM = Pattern.compile("\\\\frac\\s*([0-9a-zA-Z])\\s*(?=\\{)");
  private static final Pattern FRAC_SHORT_DEN = Pattern.compile("(\\\\frac\\s*\\{[^{}]*\\})\\s*([0-9a-zA-Z])");
  private static final Pattern SQRT_SHORT = Pattern.compile("\\\\sqrt\\s*([0-9]+|[a-zA-Z](?![a-zA-Z]))");
  private static final Pattern DEGREES = Pattern.compile(
      "\\^\\s*\\{?\\s*\\\\circ\\s*\\}?|\\\\circ|°|\\\\degree(?![a-zA-Z])|\\^\\s*\\{\\s*\\\\text\\{\\s*o\\s*\\}\\s*\\}");
  private static final Pattern TEXT_COMMAND = Pattern.compile(
      "\\\\(?:text|textbf|textit|textrm|mathrm|mathbf|mathit|mbox|operatorname)\\s*\\{([^{}]*)\\}"
          + "(\\^\\{?\\d\\}?)?");
  private static final Pattern GROUPED_COMMA = Pattern.compile("(\\d)\\{,\\}(\\d)");
  private static final Pattern THOUSANDS = Pattern.compile("(?<![\\d.])(\\d{1,3})((?:,\\d{3})+)(?![\\d])");
  private static final Pattern TRAILING = Pattern.compile("[\\s.,;:]+$|\\\\\\\\\\s*$");
  /** A unit word (with its power) ending an answer that follows a number or a group. */
  private static final Pattern TRAILING_UNIT = Pattern.compile(
      "(?<=[\\d}\\s])(?i)\\s*(?:units?|square|sq|cubic|cm|mm|km|m|meters?|metres?|centimeters?|kilometers?|inch(?:es)?|feet|foot|ft|"
          + "miles?|yards?|kg|g|grams?|kilograms?|pounds?|lbs?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|days?|"
          + "weeks?|months?|years?|dollars?|cents?|degrees?|liters?|litres?|ml|l|mph|km/h|people|persons?|ways|"
          + "students|apples|coins|marbles|times|points|pieces)\\b(?:\\^?\\{?\\d\\}?)?\\s*$");

  private LatexNormalizer() {}

  /**
   * Normalizes one answer. With {@code allBoxes}, several boxed answers in it become one comma list (later
   * a set); otherwise only the last box counts.
   */
  static String normalize(String latex, boolean allBoxes) {
    String text = latex.strip();
    List<String> boxes = boxContents(text);
    if (!boxes.isEmpty()) {
      text = allBoxes ? String.join(",", boxes) : boxes.getLast();
      if (text.contains("\\boxed") || text.contains("\\fbox")) {
        return normalize(text, allBoxes);
      }
    }
    text = unwrapMathDelimiters(text.strip());
    text = SPACING.matcher(text).replaceAll(" ");
    text = FRAC_ALIAS.matcher(text).replaceAll("\\\\frac");
    text = FRAC_SHORT.matcher(text).replaceAll("\\\\frac{$1}{$2}");
    text = FRAC_SHORT_NUM.matcher(text).replaceAll("\\\\frac{$1}");
    text = FRAC_SHORT_DEN.matcher(text).replaceAll("$1{$2}");
    text = SQRT_SHORT.matcher(text).replaceAll("\\\\sqrt{$1}");
    text = DEGREES.matcher(text).replaceAll("");
    text = text.replace("\\%", "%").replace("\\$", "").replace("\\dots", "").replace("\\ldots", "");
    text = replaceTextCommands(text);
    text = GROUPED_COMMA.matcher(text).replaceAll("$1$2");
    text = removeThousandsSeparators(text);
    text = removeTrailingUnits(text);
    text = TRAILING.matcher(text).replaceAll("");
    return text.strip();
  }

  /** The contents of every {@code \boxed{…}} / {@code \fbox{…}} whose braces close, in order. */
  static List<String> boxContents(String text) {
    List<String> boxes = new ArrayList<>();
    Matcher box = BOX.matcher(text);
    int from = 0;
    while (from < text.length() && box.find(from)) {
      int close = closingBrace(text, box.end());
      if (close < 0) {
        break;
      }
      boxes.add(text.substring(box.end(), close));
      from = close + 1;
    }
    return boxes;
  }

  /** The index of the brace closing the group opened just before {@code start}, or -1. */
  static int closingBrace(String text, int start) {
    int depth = 1;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 1 < text.length()) {
        i++;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  private static String unwrapMathDelimiters(String text) {
    for (String[] pair : new String[][] {{"\\(", "\\)"}, {"\\[", "\\]"}, {"$$", "$$"}, {"$", "$"}}) {
      if (text.length() >= pair[0].length() + pair[1].length() && text.startsWith(pair[0])
          && text.endsWith(pair[1])) {
        return text.substring(pair[0].length(), text.length() - pair[1].length()).strip();
      }
    }
    return text;
  }

  /**
   * {@code \text{…}} and its kin: a whole answer that is one word or choice stays a word (marked for the
   * parser); unit words inside a formula go; anything else keeps its content.
   */
  private static String replaceTextCommands(String text) {
    Matcher whole = TEXT_COMMAND.matcher(text);
    if (whole.matches() && whole.group(1).strip().matches("\\(?[A-Za-z]+\\)?")) {
      return "\\text{" + whole.group(1).replaceAll("[()\\s]", "").toLowerCase(Locale.ROOT) + "}";
    }
    StringBuilder out = new StringBuilder();
    Matcher matcher = TEXT_COMMAND.matcher(text);
    while (matcher.find()) {
      String content = matcher.group(1).strip();
      String replacement;
      if (content.equalsIgnoreCase("and") || content.equalsIgnoreCase("or")) {
        replacement = ",";
      } else if (content.matches("[A-Za-z][A-Za-z .\\-/]+")) {
        // a unit, with its power if it has one (cm^2)
        replacement = " ";
      } else {
        replacement = content + (matcher.group(2) == null ? "" : matcher.group(2));
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  private static String removeThousandsSeparators(String text) {
    Matcher matcher = THOUSANDS.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      matcher.appendReplacement(out, matcher.group(1) + matcher.group(2).replace(",", ""));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /** {@code 10 cm}, {@code 5 apples}: a unit word after a number is not part of the answer. */
  private static String removeTrailingUnits(String text) {
    Matcher unit = TRAILING_UNIT.matcher(text);
    if (unit.find() && unit.start() > 0 && text.substring(0, unit.start()).strip().matches(".*[\\d}]")) {
      return text.substring(0, unit.start());
    }
    return text;
  }
}
