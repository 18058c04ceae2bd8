package dev.gym4j.math;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.math.Expr.Bin;
import dev.gym4j.math.Expr.Num;
import dev.gym4j.math.Expr.SetOf;

/**
 * Finds the final answer in model text the way math-verify does. Patterns have priorities: "final answer
 * is …" first, then {@code \boxed{}}, then "answer: …", then any formula or number as a last resort. Within
 * a priority the rightmost match is tried first, and the first one that parses wins.
 */
final class AnswerExtractor {
  /** One extracted answer: the parsed value (null when it did not parse) and the text it came from. */
  record Candidate(Expr value, String text) {}

  private record Rule(Pattern pattern, int priority, boolean latex) {}

  private static final String NUMBER = "(?<!\\d)(?:(?<integerA>-?[1-9]\\d{0,2}(?:[ ,]\\d{3})+)(?<decimalA>\\.\\d+)?"
      + "|(?<integerB>-?\\d+)(?<decimalB>[.,]\\d+)|(?<decimalC>\\.\\d+)|(?<integerC>-?\\d+))"
      + "(?<percent>\\s*(?:%|[Pp]ercent|\\s*[Pp]ercentage|\\s*[Pp]ct))?";
  private static final String EXPR_CHARS = "[\\d.\\s+\\-*×/^()÷]";
  private static final String EXPR = "(?<expr>-?\\(?-?\\d" + EXPR_CHARS + "*[+\\-*×/^()÷]" + EXPR_CHARS + "+\\)?)";
  private static final String PREFIX = "(?:^|\\s|=)(?:\\*\\*)?";
  private static final String SUFFIX = "(?:\\*\\*)?(?:\\.|,|:|\\s|\\)|\\$|$)";
  private static final String CURRENCY = "[$€£¥₹₽₪₩₫฿₡₢₣₤₥₦₧₨₭₮₯₰₱₲₳₴₵₶₷₸₺₻₼₾₿]";
  private static final String EXPR_ANCHORED = "(?:" + PREFIX + EXPR + SUFFIX + ")";
  private static final String NUMBER_ANCHORED = "(?:" + PREFIX + CURRENCY + "?" + NUMBER + ")";
  private static final String EXPR_OR_NUMBER = "(?:" + EXPR_ANCHORED + "|" + NUMBER_ANCHORED + ")";
  private static final Pattern EQUALS = Pattern.compile("(?<![\\\\<!>])=");

  private static final List<Rule> EXPRESSION_RULES = List.of(
      expr("(?i:final answer is):?\\s*" + EXPR_OR_NUMBER + "\\.?\\s?I hope", 0),
      expr("(?i:final answer.{0,100}?)\\s+is:?" + EXPR_OR_NUMBER, 50),
      expr("(?i:answer):(?:.{0,100}=\\s*|.{0,50}?)" + EXPR_OR_NUMBER + "(?!\\s*=)", 100),
      expr("(?i:answer)(?:.{0,100}=\\s*|.{0,50}?)" + EXPR_OR_NUMBER + "(?!\\s*=)", 200),
      expr(EXPR_ANCHORED, 300),
      expr(NUMBER_ANCHORED, 300));
  private static final List<Rule> LATEX_RULES = latexRules();
  /** The rules of each side, grouped by priority, highest (lowest number) first. */
  private static final List<List<Rule>> GOLD_GROUPS = byPriority(LATEX_RULES);
  private static final List<List<Rule>> PREDICTION_GROUPS = byPriority(
      java.util.stream.Stream.concat(EXPRESSION_RULES.stream(), LATEX_RULES.stream()).toList());

  private AnswerExtractor() {}

  /** What math-verify's gold side reads: LaTeX only. */
  static List<Candidate> extractLatex(String text, Budget budget) {
    return extract(text, GOLD_GROUPS, budget);
  }

  /** What math-verify's prediction side reads: plain expressions and LaTeX. */
  static List<Candidate> extractAny(String text, Budget budget) {
    return extract(text, PREDICTION_GROUPS, budget);
  }

  private static List<List<Rule>> byPriority(List<Rule> rules) {
    Map<Integer, List<Rule>> groups = new TreeMap<>();
    rules.forEach(rule -> groups.computeIfAbsent(rule.priority(), p -> new ArrayList<>()).add(rule));
    return List.copyOf(groups.values());
  }

  private static Rule expr(String regex, int priority) {
    return new Rule(Pattern.compile(regex), priority, false);
  }

  private static List<Rule> latexRules() {
    String envs = environment("first", false) + chained(false, "");
    String boxedEnvs = environment("first", true) + chained(true, "\\s*");
    List<Rule> rules = new ArrayList<>();
    for (Object[] rule : new Object[][] {
        {"(?i:final answer is):?\\s*" + envs + "\\.?\\s?I hope", 0},
        {"(?i:final answer.{0,100}?)\\s+is:?\\s*" + envs, 50},
        {"(?i:answer):.{0,50}?" + envs, 100},
        {"(?i:answer).{0,50}?" + envs, 200},
        {envs, 300},
        {boxedEnvs, 50},
        {"(?<firstlatexBoxed>\\\\boxed\\{.+\\})", 50}}) {
      rules.add(new Rule(Pattern.compile((String) rule[0], Pattern.DOTALL), (Integer) rule[1], true));
    }
    return rules;
  }

  /** Up to five more formulas joined by "and", "or" or commas. */
  private static String chained(boolean boxed, String lead) {
    StringBuilder chain = new StringBuilder();
    for (int i = 1; i <= 5; i++) {
      chain.append(lead).append("(?:\\s*(?:,?and|,?or|,)\\s*").append(environment("next" + i, boxed)).append(")?");
    }
    return chain.toString();
  }

  /** One math environment ($…$, $$…$$, \(…\), \[…\], [ … ], or a bare numeric \frac), with an optional %. */
  private static String environment(String prefix, boolean boxed) {
    String displayDollar = "(?:[^$]|\\$(?!\\$))";
    String displayBracket = "(?:[^\\\\]|\\\\(?!\\]))";
    String inlineDollar = "(?:\\\\[$]|[^\\n$])";
    String inlineParen = "(?:[^\\\\\\n]|\\\\(?!\\)))";
    String inlineBracket = "[^\\n\\]\\[]";
    String[] contents = {displayDollar, displayBracket, inlineDollar, inlineParen, inlineBracket};
    for (int i = 0; i < contents.length; i++) {
      String c = contents[i];
      contents[i] = boxed ? c + "*?\\\\boxed\\{" + c + "+?\\}" + c + "*?" : c + "+?";
    }
    List<String> patterns = new ArrayList<>(List.of(
        "(?<!\\\\)\\$\\$(?<" + prefix + "latexDisplayDollar>" + contents[0] + ")(?<!\\\\)\\$\\$",
        "(?<!\\\\)\\\\\\[(?<" + prefix + "latexDisplayBracket>" + contents[1] + ")(?<!\\\\)\\\\\\]",
        "(?<![\\\\\\d])\\$(?<" + prefix + "latexInlineDollar>" + contents[2] + ")(?<!\\\\)\\$",
        "(?<!\\\\)\\\\\\((?<" + prefix + "latexInlineParenthesis>" + contents[3] + ")(?<!\\\\)\\\\\\)",
        "\\s\\[(?<" + prefix + "latexInlineBracket>" + contents[4] + ")\\]\\s"));
    if (!boxed) {
      String simple = "-?\\d+(?:[.,]\\d+)?";
      patterns.add("(?<" + prefix + "latexFraction>-?\\\\frac\\{" + simple + "\\}\\{" + simple + "\\})");
    }
    return "(?:(?:" + String.join("|", patterns) + ")\\s*(?<" + prefix
        + "percent>(?:\\\\?%|[Pp]ercent|[Pp]ercentage|[Pp]ct))?)";
  }

  private record Found(MatchResult match, Rule rule) {}

  private static List<Candidate> extract(String text, List<List<Rule>> groups, Budget budget) {
    CharSequence watched = budget.watch(text);
    List<Candidate> fallbacks = new ArrayList<>();
    for (List<Rule> group : groups) {
      List<Found> found = new ArrayList<>();
      for (Rule rule : group) {
        Matcher matcher = rule.pattern().matcher(watched);
        try {
          while (matcher.find()) {
            found.add(new Found(matcher.toMatchResult(), rule));
          }
        } catch (StackOverflowError e) {
          // java.util.regex recurses once per repetition of a group: a formula tens of thousands of
          // characters long is too large to check, which does not depend on the machine's load
          throw new Budget.Exhausted();
        }
      }
      // rightmost end first; among equal ends, the leftmost start
      found.sort(Comparator.comparingInt((Found f) -> f.match().end()).reversed()
          .thenComparingInt(f -> f.match().start()));
      for (Found f : found) {
        budget.check();
        Candidate candidate = f.rule().latex() ? latex(f.match(), budget) : expression(f.match(), budget);
        if (!candidate.text().isEmpty()) {
          fallbacks.add(candidate);
        }
        if (candidate.value() != null) {
          // math-verify also keeps the first text found, so that answers equal as strings always match
          return List.of(candidate, new Candidate(null, fallbacks.getFirst().text()));
        }
      }
    }
    return fallbacks.isEmpty() ? List.of() : List.of(new Candidate(null, fallbacks.getFirst().text()));
  }

  private static Candidate expression(MatchResult match, Budget budget) {
    Map<String, Integer> groups = match.namedGroups();
    String integer = firstGroup(match, groups, "integer");
    String decimal = firstGroup(match, groups, "decimal");
    boolean percent = group(match, "percent") != null;
    if (!integer.isEmpty() || !decimal.isEmpty()) {
      String digits = integer.replace(",", "").replace(" ", "");
      boolean negative = digits.startsWith("-");
      digits = digits.replaceFirst("^-?0*", "");
      String number = (negative ? "-" : "") + (digits.isEmpty() ? "0" : digits) + decimal.replace(',', '.');
      if (number.length() > MathParser.MAX_DIGITS) {
        throw new MathParser.TooLarge("a number of " + number.length() + " digits (at most " + MathParser.MAX_DIGITS
            + ")");
      }
      Expr value = new Num(BigRational.parseDecimal(number), !decimal.isEmpty());
      return new Candidate(percent ? percentOf(value) : value, number);
    }
    String expr = group(match, "expr");
    if (expr == null) {
      return new Candidate(null, "");
    }
    try {
      // "2/3." reads as 2/3.0 in Python, so a trailing point is a decimal point
      String plain = expr.replace('\n', ' ').strip();
      boolean point = plain.endsWith(".");
      Expr value = MathParser.parse(point ? plain.substring(0, plain.length() - 1) : plain, budget, true);
      return new Candidate(point ? decimal(value) : value, expr);
    } catch (IllegalArgumentException | ArithmeticException e) {
      return new Candidate(null, expr);
    }
  }

  /** A named group's text, or null when the pattern has no such group or it did not take part. */
  private static String group(MatchResult match, String name) {
    Integer index = match.namedGroups().get(name);
    return index == null ? null : match.group(index);
  }

  private static String firstGroup(MatchResult match, Map<String, Integer> groups, String prefix) {
    for (String suffix : new String[] {"A", "B", "C"}) {
      Integer index = groups.get(prefix + suffix);
      if (index != null && match.group(index) != null) {
        return match.group(index);
      }
    }
    return "";
  }

  private static Candidate latex(MatchResult match, Budget budget) {
    List<Expr> values = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    boolean allParsed = true;
    for (String prefix : new String[] {"first", "next1", "next2", "next3", "next4", "next5"}) {
      String latex = null;
      boolean boxGroup = false;
      for (Map.Entry<String, Integer> group : match.namedGroups().entrySet()) {
        if (group.getKey().startsWith(prefix + "latex") && match.group(group.getValue()) != null) {
          latex = match.group(group.getValue());
          boxGroup = group.getKey().endsWith("latexBoxed");
          break;
        }
      }
      if (latex == null) {
        continue;
      }
      Integer percentGroup = match.namedGroups().get(prefix + "percent");
      boolean percent = percentGroup != null && match.group(percentGroup) != null;
      // a bare \boxed{…} match reads its last box (and boxes just before it); a math environment, all of them
      if (latex.length() > MathParser.MAX_CHARS) {
        throw new MathParser.TooLarge("a formula of " + latex.length() + " characters (at most "
            + MathParser.MAX_CHARS + ")");
      }
      String normalized = LatexNormalizer.normalize(latex, !boxGroup);
      texts.add(normalized);
      Expr value = parseLatex(normalized, budget);
      if (value != null && percent) {
        value = percentOf(value);
      }
      allParsed &= value != null;
      values.add(value);
    }
    if (values.isEmpty()) {
      return new Candidate(null, "");
    }
    if (values.size() > 1 && allParsed) {
      // "the solutions are $1$, $2$ and $3$" is one answer: the set of them
      List<Expr> items = new ArrayList<>();
      for (Expr value : values) {
        if (value instanceof SetOf set) {
          items.addAll(set.items());
        } else {
          items.add(value);
        }
      }
      return new Candidate(new SetOf(items), String.join(" and ", texts));
    }
    return new Candidate(values.getFirst(), texts.getFirst());
  }

  /** Parses a formula; failing that, the last part of a chain of equalities ({@code a = b = 3} gives 3). */
  static Expr parseLatex(String latex, Budget budget) {
    try {
      return MathParser.parse(latex, budget);
    } catch (IllegalArgumentException | ArithmeticException e) {
      if (!latex.contains(",") && !latex.contains(";")) {
        String[] parts = EQUALS.split(latex, -1);
        if (parts.length > 2) {
          try {
            return MathParser.parse(parts[parts.length - 1], budget);
          } catch (IllegalArgumentException | ArithmeticException again) {
            return null;
          }
        }
      }
      return null;
    }
  }

  /**
   * The value with its last number read as a decimal, as Python reads {@code 7/18.} ({@code 7/18.0}); when the
   * last operand is no number, the value marked as holding a decimal.
   */
  private static Expr decimal(Expr value) {
    return switch (value) {
      case Num n -> new Num(n.value(), true);
      case Bin b when b.right() instanceof Num || b.right() instanceof Bin ->
          new Bin(b.op(), b.left(), decimal(b.right()));
      default -> new Bin('*', value, new Num(BigRational.ONE, true));
    };
  }

  private static Expr percentOf(Expr value) {
    return new Bin('/', value, new Num(BigRational.of(100), false));
  }
}
