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
  /**
   * What latex2sympy drops: {@code \\left} and {@code \\right} before a delimiter it knows, and the spaces its
   * grammar skips. Sizing commands ({@code \\bigl(}), {@code \\left.}, {@code ~} stay and make the formula
   * unreadable, as there.
   */
  private static final Pattern SPACING = Pattern.compile(
      "\\\\m?left(?=\\\\\\{|\\{|\\\\\\||\\||\\[|\\(|\\\\(?:rbracl|lgroup|lbrace|lbrack|vert|lvert|lceil|lfloor|langle"
          + "|llcorner|ulcorner))"
          + "|\\\\m?right(?=\\\\\\}|\\}|\\\\\\||\\||\\]|\\)|\\\\(?:rbrack|rgroup|rbrace|vert|rvert|rceil|rfloor|rangle"
          + "|lrcorner|urcorner))"
          + "|(?<!\\\\)\\\\[,;:! ]|\\\\q?quad|\\\\(?:neg)?(?:thin|med|thick)space(?![a-zA-Z])");
  private static final Pattern FRAC_ALIAS = Pattern.compile("\\\\[dtc]frac(?![a-zA-Z])");
  private static final Pattern FRAC_SHORT = Pattern.compile("\\\\frac\\s*([0-9a-zA-Z])\\s*([0-9a-zA-Z])");
  private static final Pattern FRAC_SHORT_NUM = Pattern.compile("\\\\frac\\s*([0-9a-zA-Z])\\s*(?=\\{)");
  private static final Pattern FRAC_SHORT_DEN = Pattern.compile("(\\\\frac\\s*\\{[^{}]*\\})\\s*([0-9a-zA-Z])");
  /** {@code \\sqrt3}, {@code \\sqrt x}: a root of one character, as TeX and latex2sympy read it (\\sqrt13 is √1·3). */
  private static final Pattern SQRT_SHORT = Pattern.compile("\\\\sqrt\\s*([^\\s{\\[\\\\])");
  /** {@code \\frac123} is 1/23, as latex2sympy's malformed-operator fix reads it. */
  private static final Pattern FRAC_DIGITS = Pattern.compile("\\\\frac\\s?(\\d)\\s?(\\d+)");
  /** {@code \\log_25} is the base-2 logarithm of 5, as latex2sympy's malformed-operator fix reads it. */
  private static final Pattern LOG_SHORT = Pattern.compile("\\\\log_\\s?(\\d)\\s?(\\d+)");
  /** A trailing line break; a trailing period or comma stays, and fails to parse, as in latex2sympy. */
  private static final Pattern TRAILING = Pattern.compile("\\s+$|\\\\\\\\\\s*$");
  /**
   * latex2sympy's unit words (math_normalization.py, {@code units}; its regular expression, with {@code .} as
   * any character): one of them, in the singular or with {@code s}/{@code es}, ending an answer after a
   * digit, a closing brace or a space is dropped ({@code 5 cm}, {@code 10\\text{ apples}} after the text goes).
   */
  private static final Pattern UNIT_AT_END = Pattern.compile("(?:"
      + "integerpoint|feet|sue|digit|pound|meal|edge|student|children ticket|multiple|east|degree|mph|kmph|ft|"
          + "m square| m east|sq m|deg|mile|q .|monkey|prime|ratio|profit of rs|rd|o|gm|p . m|lb|tile|per|dm|"
          + "lt|gain|ab|way|west|a .|b .|c .|d .|e .|f .|g .|h .|t|h|no change|men|soldier|pie|bc|excess|st|"
          + "inches|noon|cent|by|gal|kmh|c|acre|rise|a . m|th|π r 2|sq|mark|l|toy|coin|sq . m|gallon|° f|"
          + "profit|minw|yr|women|am|pm|hr|cu cm|square|v â € ™|are|rupee|rounds|cubic|cc|mtr|s|ohm|number|"
          + "kmph|day|hour|minute|min|second|man|woman|sec|cube|mt|sq inch|mp|∏ cm ³|hectare|more|sec|unit|"
          + "cu . m|cm 2|rs .|rs|kg|g|month|km|m|cm|mm|apple|liter|loss|yard|pure|year|increase|decrease|d|"
          + "less|Surface|litre|pi sq m|s .|metre|meter|inch"
          + ")(?:s|es)?\\s*");
  /** How far from the end a unit can start: longer than the longest unit word with its plural and spaces. */
  private static final int UNIT_WINDOW = 40;

  /** What a whole answer written as a number with thousands separators looks like ({@code 16,386.20}). */
  private static final Pattern COMMA_NUMBER = Pattern.compile("\\s*(-?)(\\d{1,3}(?:,\\d{3})+)(\\.\\d+)?\\s*");
  private static final Pattern REMOVED = Pattern.compile(
      "\\\\mathrm\\{th\\}|\\\\!\\s*|\\\\text\\s*\\{\\s*\\}|\\\\\\$|\\$|(?<!\\\\)[\"']|\\\\displaystyle");
  private static final Pattern TEXT_ALIAS =
      Pattern.compile("\\\\(?:math(?:rm|it|bf)|text(?:normal|bf|it|rm))(?![a-zA-Z])");
  private static final Pattern BRACED_COMMA = Pattern.compile("\\s*\\{\\s*,\\s*\\}");
  private static final Pattern LONG_SPACE = Pattern.compile("\\s{65,}+");
  private static final Pattern AND_OR = Pattern.compile(
      ",?\\s*\\\\text\\{\\s*(?:and|or)\\s*\\}|(?<![a-zA-Z]),?\\s*(?:and|or)(?![a-zA-Z])");
  private static final Pattern PERCENT_WORD = Pattern.compile(
      "\\\\text\\{(?:percentage|percent|pct)\\}|\\s*(?:percentage|percent|pct)");
  private static final Pattern DOUBLED_BACKSLASH = Pattern.compile("\\\\\\\\(?=[a-zA-Z])");
  /** What may stand between two boxes read together. */
  private static final Pattern SEPARATOR = Pattern.compile("and|or|,|;");
  /** A trailing {@code \text{…}} (a unit, with its power), dropped when something is left before it. */
  private static final Pattern TEXT_TAIL = Pattern.compile("}(?:\\^\\d|\\{\\^\\d\\})?$");

  private LatexNormalizer() {}

  /**
   * Normalizes one answer. With {@code allBoxes}, every boxed answer in it counts (joined into one comma
   * list, later a set); otherwise only the last box, and boxes just before it (as math-verify's "last"
   * mode: closer than 10 characters, or closer than 70 with "and", "or", a comma or a semicolon between).
   */
  static String normalize(String latex, boolean allBoxes) {
    String text = boxed(latex, allBoxes).strip();
    text = unwrapMathDelimiters(text);
    // the patterns below that start with \s* try every position of a run of spaces: a run is cut to 64,
    // which changes no real answer and keeps their work linear in the answer's length
    text = LONG_SPACE.matcher(text).replaceAll(" ".repeat(64));
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
    text = FRAC_DIGITS.matcher(text).replaceAll("\\\\frac{$1}{$2}");
    text = FRAC_SHORT.matcher(text).replaceAll("\\\\frac{$1}{$2}");
    text = FRAC_SHORT_NUM.matcher(text).replaceAll("\\\\frac{$1}");
    text = FRAC_SHORT_DEN.matcher(text).replaceAll("$1{$2}");
    text = SQRT_SHORT.matcher(text).replaceAll("\\\\sqrt{$1}");
    text = LOG_SHORT.matcher(text).replaceAll("\\\\log_{$1}{$2}");
    text = text.replace("\\%", "%").replace("\\dots", "").replace("\\ldots", "");
    text = removeTrailingText(text.strip());
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
   * latex2sympy's unit removal: a trailing {@code \\text{…}} or {@code \\mbox{…}} (with a power) goes from the
   * first such command on, when something is left; then, twice, a trailing unit word goes when something is
   * left.
   */
  private static String removeTrailingText(String text) {
    if (TEXT_TAIL.matcher(text).find()) {
      int first = firstTextCommand(text);
      if (first >= 0) {
        String rest = text.substring(0, first).strip();
        if (!rest.isEmpty()) {
          return rest;
        }
      }
    }
    return text;
  }

  private static int firstTextCommand(String text) {
    int text1 = text.indexOf("\\text{");
    int mbox = text.indexOf("\\mbox{");
    return text1 < 0 ? mbox : mbox < 0 ? text1 : Math.min(text1, mbox);
  }

  /**
   * Drops a unit word ending the answer as latex2sympy's {@code units_regex} does: the match starts at the
   * leftmost digit, closing brace or space before the spaces that precede the unit, and keeps that character.
   * Only the last {@link #UNIT_WINDOW} characters are searched, so the work is bounded whatever the length.
   */
  private static String removeTrailingUnits(String text) {
    for (int round = 0; round < 2; round++) {
      String shorter = withoutUnit(text);
      if (!shorter.isEmpty() && !shorter.equals(text)) {
        text = shorter;
      }
    }
    return text;
  }

  private static String withoutUnit(String text) {
    int best = -1;
    for (int k = Math.max(0, text.length() - UNIT_WINDOW); k < text.length(); k++) {
      if (!UNIT_AT_END.matcher(text).region(k, text.length()).matches()) {
        continue;
      }
      int run = k;
      while (run > 0 && Character.isWhitespace(text.charAt(run - 1)) && k - run < UNIT_WINDOW) {
        run--;
      }
      int anchor;
      if (run > 0 && (Character.isDigit(text.charAt(run - 1)) || text.charAt(run - 1) == '}')) {
        anchor = run - 1;
      } else if (run < k) {
        anchor = run;
      } else {
        continue;
      }
      if (best < 0 || anchor < best) {
        best = anchor;
      }
    }
    return best < 0 ? text : text.substring(0, best + 1);
  }
}
