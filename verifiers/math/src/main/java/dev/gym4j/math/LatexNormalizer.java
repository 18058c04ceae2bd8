package dev.gym4j.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites an extracted LaTeX answer into the subset {@link MathParser} reads: boxes opened, spacing and
 * sizing commands dropped, fraction and root shorthands written out, units and degrees removed, "and"
 * and "or" read as commas, a whole answer with thousands separators read as one number, mostly as
 * latex2sympy's normalize_latex does. Each rule exists because answers are written that way, not to be a
 * TeX engine.
 */
final class LatexNormalizer {
  private static final Pattern SPACING = Pattern.compile(
      "\\\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg|displaystyle|textstyle)(?![a-zA-Z])"
          + "|(?<!\\\\)\\\\[,;:! ]|\\\\q?quad|~|\\\\hspace\\*?\\{[^}]*\\}");
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
  /** A trailing line break; a trailing period or comma stays, and fails to parse, as in latex2sympy. */
  private static final Pattern TRAILING = Pattern.compile("\\s+$|\\\\\\\\\\s*$");
  /** A unit word (with its power) ending an answer that follows a number or a group. */
  private static final Pattern TRAILING_UNIT = Pattern.compile(
      "(?<=[\\d}\\s])(?i)\\s*(?:units?|square|sq|cubic|cm|mm|km|m|meters?|metres?|centimeters?|kilometers?|inch(?:es)?|feet|foot|ft|"
          + "miles?|yards?|kg|g|grams?|kilograms?|pounds?|lbs?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|days?|"
          + "weeks?|months?|years?|dollars?|cents?|degrees?|liters?|litres?|ml|l|mph|km/h|people|persons?|ways|"
          + "students|apples|coins|marbles|times|points|pieces)\\b(?:\\^?\\{?\\d\\}?)?\\s*$");

  /** What a whole answer written as a number with thousands separators looks like ({@code 16,386.20}). */
  private static final Pattern COMMA_NUMBER = Pattern.compile("\\s*(-?)(\\d{1,3}(?:,\\d{3})+)(\\.\\d+)?\\s*");
  private static final Pattern REMOVED = Pattern.compile(
      "\\\\mathrm\\{th\\}|\\\\!\\s*|\\\\text\\s*\\{\\s*\\}|\\\\\\$|\\$|(?<!\\\\)[\"']|\\\\displaystyle");
  private static final Pattern TEXT_ALIAS =
      Pattern.compile("\\\\(?:math(?:rm|it|bf)|text(?:normal|bf|it|rm))(?![a-zA-Z])");
  private static final Pattern BRACED_COMMA = Pattern.compile("\\s*\\{\\s*,\\s*\\}");
  private static final Pattern AND_OR = Pattern.compile(
      ",?\\s*\\\\text\\{\\s*(?:and|or)\\s*\\}|(?<![a-zA-Z]),?\\s*(?:and|or)(?![a-zA-Z])");
  private static final Pattern PERCENT_WORD = Pattern.compile(
      "\\\\text\\{(?:percentage|percent|pct)\\}|\\s*(?:percentage|percent|pct)");
  private static final Pattern DOUBLED_BACKSLASH = Pattern.compile("\\\\\\\\(?=[a-zA-Z])");
  /** What may stand between two boxes read together. */
  private static final Pattern SEPARATOR = Pattern.compile("and|or|,|;");
  /** A trailing {@code \text{…}} (a unit, with its power), dropped when something is left before it. */
  private static final Pattern TRAILING_TEXT =
      Pattern.compile("\\\\(?:text|mbox)\\{[^{}]*\\}(?:\\^\\d|\\{\\^\\d\\})?\\s*$");

  private LatexNormalizer() {}

  /**
   * Normalizes one answer. With {@code allBoxes}, every boxed answer in it counts (joined into one comma
   * list, later a set); otherwise only the last box, and boxes just before it (as math-verify's "last"
   * mode: closer than 10 characters, or closer than 70 with "and", "or", a comma or a semicolon between).
   */
  static String normalize(String latex, boolean allBoxes) {
    String text = boxed(latex, allBoxes).strip();
    text = unwrapMathDelimiters(text);
    text = REMOVED.matcher(text).replaceAll("");
    text = TEXT_ALIAS.matcher(text).replaceAll("\\\\text");
    text = BRACED_COMMA.matcher(text).replaceAll(",");
    text = AND_OR.matcher(text).replaceAll(",");
    text = PERCENT_WORD.matcher(text).replaceAll("\\\\%");
    text = text.replace('\n', ' ').replace('\t', ' ');
    if (!text.contains("matrix")) {
      text = DOUBLED_BACKSLASH.matcher(text).replaceAll("\\\\");
    }
    text = SPACING.matcher(text).replaceAll(" ");
    text = FRAC_ALIAS.matcher(text).replaceAll("\\\\frac");
    text = FRAC_SHORT.matcher(text).replaceAll("\\\\frac{$1}{$2}");
    text = FRAC_SHORT_NUM.matcher(text).replaceAll("\\\\frac{$1}");
    text = FRAC_SHORT_DEN.matcher(text).replaceAll("$1{$2}");
    text = SQRT_SHORT.matcher(text).replaceAll("\\\\sqrt{$1}");
    text = DEGREES.matcher(text).replaceAll("");
    text = text.replace("\\%", "%").replace("\\dots", "").replace("\\ldots", "");
    String withoutUnit = TRAILING_TEXT.matcher(text).replaceAll("").strip();
    if (!withoutUnit.isEmpty() && !withoutUnit.equals(text.strip())) {
      text = withoutUnit;
    }
    text = replaceTextCommands(text.strip());
    text = removeTrailingUnits(text);
    text = TRAILING.matcher(text).replaceAll("");
    return commaNumber(text.strip());
  }

  /**
   * {@code 1,234} or {@code 16,386.20} as a whole answer is one number, not a set (a leading 0, as in
   * {@code 0,111}, makes the comma a decimal point); inside a larger answer commas separate items.
   */
  private static String commaNumber(String text) {
    Matcher number = COMMA_NUMBER.matcher(text);
    if (!number.matches()) {
      return text;
    }
    String digits = number.group(2);
    String fraction = number.group(3) == null ? "" : number.group(3);
    if (digits.startsWith("0")) {
      return number.group(1) + digits.replaceFirst(",", ".").replace(",", "") + fraction;
    }
    return number.group(1) + digits.replace(",", "") + fraction;
  }

  /**
   * The boxed part of an answer, found from the right: the contents of the last {@code \boxed{…}} or
   * {@code \fbox{…}} (with {@code all}, of every box, joined by commas), or the text itself when it has none.
   * A box that never closes yields the rest of the text when it is the last one.
   */
  static String boxed(String text, boolean all) {
    List<String> found = new ArrayList<>();
    int limit = text.length();
    int from = text.length();
    int laterStart = -1;
    while (true) {
      int box = text.lastIndexOf("\\boxed", from - 1);
      int fbox = text.lastIndexOf("\\fbox", from - 1);
      if (box < 0 && fbox < 0) {
        break;
      }
      int start = Math.max(box, fbox);
      int open = start + (box > fbox ? 6 : 5);
      while (open < limit && Character.isWhitespace(text.charAt(open))) {
        open++;
      }
      if (open >= limit) {
        break;
      }
      if (text.charAt(open) != '{') {
        if (found.isEmpty()) {
          found.add(text.substring(open, limit));
        }
        break;
      }
      int close = matchingBrace(text, open, limit);
      if (close < 0) {
        if (found.isEmpty()) {
          found.add(text.substring(open, limit));
        }
        break;
      }
      String content = text.substring(open + 1, close).strip();
      if (!all && laterStart >= 0 && !joinsLater(text, content, found.getLast(), close, laterStart)) {
        break;
      }
      found.add(content);
      laterStart = start;
      limit = start;
      from = start;
    }
    if (found.isEmpty()) {
      return text;
    }
    return String.join(",", found.reversed());
  }

  private static boolean joinsLater(String text, String content, String later, int close, int laterStart) {
    String between = close + 1 <= laterStart ? text.substring(close + 1, laterStart) : "";
    if (between.length() < 10) {
      return true;
    }
    return !content.equals(later) && between.length() < 70 && SEPARATOR.matcher(between).find();
  }

  /** The brace closing the one at {@code open}, before {@code limit}; -1 if none. Every brace counts. */
  private static int matchingBrace(String text, int open, int limit) {
    int depth = 1;
    for (int i = open + 1; i < limit; i++) {
      char c = text.charAt(i);
      if (c == '{') {
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
    if (whole.matches() && whole.group(1).strip().matches("[A-Za-z][A-Za-z ,.'\\-]*")) {
      // a sentence for an answer stays words, compared as such
      return "\\text{" + whole.group(1).strip().toLowerCase(Locale.ROOT) + "}";
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

  /** {@code 10 cm}, {@code 5 apples}: a unit word after a number is not part of the answer. */
  private static String removeTrailingUnits(String text) {
    Matcher unit = TRAILING_UNIT.matcher(text);
    if (unit.find() && unit.start() > 0 && text.substring(0, unit.start()).strip().matches(".*[\\d}]")) {
      return text.substring(0, unit.start());
    }
    return text;
  }
}
