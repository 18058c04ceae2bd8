package dev.gym4j.math;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.gym4j.math.Expr.And;
import dev.gym4j.math.Expr.Bin;
import dev.gym4j.math.Expr.Const;
import dev.gym4j.math.Expr.Fn;
import dev.gym4j.math.Expr.Interval;
import dev.gym4j.math.Expr.Matrix;
import dev.gym4j.math.Expr.Neg;
import dev.gym4j.math.Expr.Num;
import dev.gym4j.math.Expr.Rel;
import dev.gym4j.math.Expr.SetOf;
import dev.gym4j.math.Expr.Sym;
import dev.gym4j.math.Expr.Text;
import dev.gym4j.math.Expr.TupleOf;
import dev.gym4j.math.Expr.Union;

/**
 * Reads a normalized answer, LaTeX or plain ({@code 7/5}, {@code 2**10}, {@code sqrt(2)}), into an
 * {@link Expr}. Recursive descent; letters are single-letter variables multiplied when adjacent, as in
 * LaTeX. Throws {@link IllegalArgumentException} on anything it cannot read.
 */
final class MathParser {
  private static final Set<String> FUNCTIONS = Set.of("sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos",
      "arctan", "sinh", "cosh", "tanh", "ln", "log", "exp", "sqrt", "abs");
  private static final Set<String> GREEK = Set.of("alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta",
      "eta", "theta", "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon",
      "phi", "varphi", "chi", "psi", "omega", "omicron", "varpi", "varrho", "varsigma",
      "Gamma", "Delta", "Theta", "Lambda", "Xi", "Sigma", "Phi", "Psi",
      "Omega");
  /** latex2sympy's other symbols ({@code \\hbar}, {@code \\ell}, …): names, like letters. */
  private static final Set<String> OTHER_SYMBOLS = Set.of("Bbbk", "wp", "nabla", "bigstar", "angle", "nexists",
      "diagdown", "measuredangle", "eth", "diagup", "sphericalangle", "clubsuit", "varnothing", "Diamond",
      "complement", "diamondsuit", "imath", "Finv", "triangledown", "heartsuit", "jmath", "Game", "triangle",
      "spadesuit", "ell", "hbar", "vartriangle", "hslash", "blacklozenge", "lozenge", "blacksquare", "mho",
      "blacktriangle", "sharp", "prime", "Im", "flat", "square", "backprime", "Re", "natural", "surd", "circledS");
  /** Greek letters written as Unicode characters, read as their commands (π is {@code \\pi}). */
  private static final java.util.Map<Character, String> UNICODE_GREEK = greek();
  private static final List<String> TEXT_COMMANDS = List.of("\\textnormal", "\\textbf", "\\textit", "\\text",
      "\\mbox");
  /** Commands the parser reads, for splitting a run of letters after one ({@link #knownPrefix}). */
  private static final Set<String> KNOWN_COMMANDS = knownCommands();
  /** Commands read whole though they start with a known one ({@code \\overline}, {@code \\left}…): never split. */
  private static final Set<String> WHOLE_COMMANDS = Set.of("overline", "left", "right", "over", "le", "leq",
      "leqslant", "ge", "geq", "geqslant", "ne", "neq", "lt", "gt", "in", "pm", "mp", "ast", "to", "hat", "vec",
      "bar", "begin", "end", "mathbf", "mathit", "mathrm", "mbox", "text", "textbf", "textit", "textnormal",
      "boldsymbol", "cap", "infty", "int", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "ln", "log",
      "lim", "sum", "prod", "cdots", "ldots", "dots", "vdots", "ddots", "circle", "cot", "coth", "csc", "sec",
      "exp", "det", "max", "min", "gcd", "lcm", "mod", "bmod", "pmod", "operatorname", "mathbb", "mathcal");
  private static final Set<String> DEGREE_SIGNS = Set.of("\\circ", "\\degree", "\\circle", "°");
  private static final int MAX_DEPTH = 200;
  /** Size limits of one answer, checked before any work that grows with them. */
  static final int MAX_CHARS = 20_000;
  static final int MAX_TOKENS = 4_000;
  static final int MAX_HEIGHT = 300;
  static final int MAX_DIGITS = 5_000;

  private static Set<String> knownCommands() {
    Set<String> known = new java.util.HashSet<>();
    known.addAll(FUNCTIONS);
    known.addAll(GREEK);
    known.addAll(OTHER_SYMBOLS);
    known.addAll(Set.of("pi", "Pi", "infty", "frac", "sqrt", "binom", "dbinom", "tbinom", "cdot", "times", "div",
        "cup", "approx", "simeq", "circ", "degree"));
    return Set.copyOf(known);
  }

  private static java.util.Map<Character, String> greek() {
    String letters = "αalpha βbeta γgamma Γgamma δdelta Δdelta εepsilon ϵvarepsilon ζzeta ηeta θtheta Θtheta"
        + " ϑvartheta ιiota κkappa λlambda Λlambda μmu νnu ξxi Ξxi οomicron πpi Πpi ϖvarpi ρrho ϱvarrho σsigma"
        + " Σsigma ςvarsigma τtau υupsilon Υupsilon φphi Φphi ϕvarphi χchi ψpsi Ψpsi ωomega Ωomega";
    java.util.Map<Character, String> map = new java.util.HashMap<>();
    for (String entry : letters.split(" ")) {
      map.put(entry.charAt(0), entry.substring(1));
    }
    return java.util.Map.copyOf(map);
  }

  private final List<String> tokens;
  private final Budget budget;
  private int pos;
  private int depth;
  private boolean plain;

  private MathParser(List<String> tokens, Budget budget) {
    this.tokens = tokens;
    this.budget = budget;
  }

  static Expr parse(String text, Budget budget) {
    return parse(text, budget, false);
  }

  /**
   * Reads a plain expression as Python's parser does ({@code 2^10} is 1024: a whole number for an exponent),
   * or, with {@code plain} false, LaTeX ({@code 2^10} is 2^1·0).
   */
  static Expr parse(String text, Budget budget, boolean plain) {
    if (text.length() > MAX_CHARS) {
      throw new TooLarge("an answer of " + text.length() + " characters (at most " + MAX_CHARS + ")");
    }
    if (plain && (text.indexOf('×') >= 0 || text.indexOf('÷') >= 0)) {
      throw new IllegalArgumentException("Python reads no × or ÷");
    }
    MathParser parser = new MathParser(tokenize(text), budget);
    parser.plain = plain;
    if (parser.tokens.isEmpty()) {
      throw new IllegalArgumentException("empty answer");
    }
    if (parser.tokens.size() > MAX_TOKENS) {
      throw new TooLarge("an answer of " + parser.tokens.size() + " symbols (at most " + MAX_TOKENS + ")");
    }
    Expr result = parser.list("");
    if (parser.pos < parser.tokens.size()) {
      throw new IllegalArgumentException("unexpected '" + parser.tokens.get(parser.pos) + "'");
    }
    if (height(result) > MAX_HEIGHT) {
      throw new TooLarge("an answer nested more than " + MAX_HEIGHT + " levels deep");
    }
    return result;
  }

  /**
   * An answer past the size limits: the verification stops and the answer scores 0, whatever the time
   * left, so the verdict is the same on any machine.
   */
  static final class TooLarge extends RuntimeException {
    TooLarge(String what) {
      super(what + " is too large to check", null, false, false);
    }
  }

  /** The depth of an expression tree, found without recursion (a deep tree is what is being guarded against). */
  static int height(Expr root) {
    java.util.ArrayDeque<Object[]> stack = new java.util.ArrayDeque<>();
    stack.push(new Object[] {root, 1});
    int max = 0;
    while (!stack.isEmpty()) {
      Object[] top = stack.pop();
      int depth = (Integer) top[1];
      max = Math.max(max, depth);
      for (Expr child : children((Expr) top[0])) {
        stack.push(new Object[] {child, depth + 1});
      }
    }
    return max;
  }

  private static List<Expr> children(Expr expr) {
    return switch (expr) {
      case Bin b -> List.of(b.left(), b.right());
      case Neg n -> List.of(n.operand());
      case Fn f -> f.args();
      case Rel r -> List.of(r.left(), r.right());
      case And a -> List.copyOf(a.links());
      case Union u -> u.parts();
      case SetOf s -> s.items();
      case TupleOf t -> t.items();
      case Interval i -> List.of(i.low(), i.high());
      case Matrix m -> m.rows().stream().flatMap(List::stream).toList();
      default -> List.of();
    };
  }

  static List<String> tokenize(String text) {
    List<String> out = new ArrayList<>();
    int[] closing = closingBraces(text);
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1)))) {
        int start = i;
        while (i < text.length() && Character.isDigit(text.charAt(i))) {
          i++;
        }
        if (i + 1 < text.length() && text.charAt(i) == '.' && Character.isDigit(text.charAt(i + 1))) {
          i++;
          while (i < text.length() && Character.isDigit(text.charAt(i))) {
            i++;
          }
        }
        out.add(text.substring(start, i));
      } else if (c == '\\' && textCommandEnd(text, i, closing) > 0) {
        int end = textCommandEnd(text, i, closing);
        out.add(text.substring(i, end));
        i = end;
      } else if (UNICODE_GREEK.containsKey(c)) {
        out.add("\\" + UNICODE_GREEK.get(c));
        i++;
      } else if (c == '\\') {
        int start = i++;
        if (i < text.length() && asciiLetter(text.charAt(i))) {
          while (i < text.length() && asciiLetter(text.charAt(i))) {
            i++;
          }
          i = start + knownPrefix(text.substring(start + 1, i)) + 1;
        } else if (i < text.length()) {
          i++;
        }
        out.add(text.substring(start, i));
      } else if (Character.isLetter(c)) {
        int end = i;
        while (end < text.length() && Character.isLetter(text.charAt(end))) {
          end++;
        }
        String word = text.substring(i, end);
        // plain-text function names and pi are words; any other run of letters is a product of variables
        if (FUNCTIONS.contains(word) || word.equals("oo") || word.equals("infty")) {
          out.add("\\" + (word.equals("infty") || word.equals("oo") ? "infty" : word));
          i = end;
        } else {
          out.add(String.valueOf(c));
          i++;
        }
      } else {
        String two = i + 1 < text.length() ? text.substring(i, i + 2) : "";
        if (two.equals("**")) {
          out.add("^");
          i += 2;
        } else if (two.equals("<=") || two.equals(">=") || two.equals("!=") || two.equals("==")) {
          out.add(two.equals("==") ? "=" : two);
          i += 2;
        } else {
          out.add(switch (c) {
            case '≤' -> "<=";
            case '≥' -> ">=";
            case '≠' -> "!=";
            case '×', '·', '⋅' -> "*";
            case '÷' -> "/";
            case 'π' -> "\\pi";
            case '−', '–' -> "-";
            default -> String.valueOf(c);
          });
          i++;
        }
      }
    }
    return out;
  }

  /**
   * Where a {@code \\text{…}} (or {@code \\mbox{…}}) ends, as latex2sympy's ACCENT token reads it: up to the
   * first closing brace that is not {@code \\}}; 0 when the text at {@code i} is not one. So a text holding a
   * group ({@code \\text{\\frac{7}{18}}}) ends early and leaves a stray brace: unreadable, as there.
   */
  private static int textCommandEnd(String text, int i) {
    return textCommandEnd(text, i, closingBraces(text));
  }

  /**
   * For each position, where the next closing brace that is not {@code \\}} is (text length when none):
   * found once for the whole text, so that reading many unclosed texts stays linear.
   */
  private static int[] closingBraces(String text) {
    int[] next = new int[text.length() + 1];
    next[text.length()] = text.length();
    for (int j = text.length() - 1; j >= 0; j--) {
      boolean close = text.charAt(j) == '}' && (j == 0 || text.charAt(j - 1) != '\\');
      next[j] = close ? j : next[j + 1];
    }
    return next;
  }

  private static int textCommandEnd(String text, int i, int[] closing) {
    for (String command : TEXT_COMMANDS) {
      if (text.startsWith(command, i)) {
        int open = i + command.length();
        while (open < text.length() && text.charAt(open) == ' ') {
          open++;
        }
        if (open >= text.length() || text.charAt(open) != '{') {
          return 0;
        }
        int close = closing[open + 1];
        return close < text.length() ? close + 1 : 0;
      }
    }
    return 0;
  }

  private static boolean asciiLetter(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  /**
   * The length of a command's name as latex2sympy's lexer reads it: the whole name when it is one it knows
   * or one we do not, otherwise the longest known command it starts with ({@code \\pib} is {@code \\pi}
   * then b, as no token spells {@code \\pib}).
   */
  private static int knownPrefix(String name) {
    if (KNOWN_COMMANDS.contains(name) || WHOLE_COMMANDS.contains(name)) {
      return name.length();
    }
    for (int length = Math.min(name.length() - 1, 16); length >= 2; length--) {
      if (KNOWN_COMMANDS.contains(name.substring(0, length))) {
        return length;
      }
    }
    return name.length();
  }

  // ---- grammar ----

  /**
   * Comma-separated items up to {@code close}; several become a set, as a bare list answer is. Semicolons
   * separate groups: {@code p=5,q=2;p=7,q=2} is a set of two tuples.
   */
  private Expr list(String close) {
    List<List<Expr>> groups = new ArrayList<>();
    List<Expr> group = new ArrayList<>();
    group.add(relation());
    while (peekIs(",") || peekIs(";")) {
      if (next().equals(";")) {
        groups.add(group);
        group = new ArrayList<>();
      }
      if (atEnd() || closes(close)) {
        break;
      }
      group.add(relation());
    }
    if (!group.isEmpty()) {
      groups.add(group);
    }
    List<Expr> items = new ArrayList<>();
    if (groups.size() == 1) {
      items.addAll(groups.getFirst());
    } else {
      groups.forEach(g -> items.add(g.size() == 1 ? g.getFirst() : new TupleOf(g)));
    }
    if (items.size() == 1) {
      return items.getFirst();
    }
    List<Expr> flat = new ArrayList<>();
    for (Expr item : items) {
      if (item instanceof SetOf set) {
        flat.addAll(set.items());
      } else {
        flat.add(item);
      }
    }
    return new SetOf(flat);
  }

  private List<Expr> items(String close) {
    List<Expr> items = new ArrayList<>();
    items.add(relation());
    while (peekIs(",") || peekIs(";")) {
      pos++;
      if (atEnd() || closes(close)) {
        break;
      }
      items.add(relation());
    }
    return items;
  }

  /**
   * Relations chain from the left as in latex2sympy: {@code a < b < c} is two links; {@code x \in S} is
   * {@code x = S}; {@code a \approx b} is b when a names a variable, otherwise a (the exact value).
   */
  private Expr relation() {
    Expr result = union();
    while (true) {
      String op = relationOperator();
      if (op == null) {
        return result;
      }
      pos++;
      Expr right = union();
      if (op.equals("approx")) {
        result = Equivalence.onlySymbols(result) ? right : result;
        continue;
      }
      Rel link = new Rel(op, switch (result) {
        case Rel rel -> rel.right();
        case And and -> and.links().getLast().right();
        default -> result;
      }, right);
      result = switch (result) {
        case Rel rel -> new And(List.of(rel, link));
        case And and -> {
          List<Rel> links = new ArrayList<>(and.links());
          links.add(link);
          yield new And(links);
        }
        default -> link;
      };
    }
  }

  private Expr union() {
    Expr first = additive();
    if (!peekIs("\\cup")) {
      return first;
    }
    List<Expr> parts = new ArrayList<>(List.of(first));
    while (peekIs("\\cup")) {
      pos++;
      parts.add(additive());
    }
    return new Union(parts);
  }

  private String relationOperator() {
    String token = peek();
    return switch (token) {
      case "=", "<", ">", "<=", ">=", "!=" -> token;
      case "\\le", "\\leq", "\\leqslant" -> "<=";
      case "\\ge", "\\geq", "\\geqslant" -> ">=";
      case "\\ne", "\\neq" -> "!=";
      case "\\lt" -> "<";
      case "\\gt" -> ">";
      case "\\in" -> "=";
      case "\\approx", "\\simeq" -> "approx";
      default -> null;
    };
  }

  private Expr additive() {
    Expr left = term();
    while (true) {
      if (peekIs("+")) {
        pos++;
        left = new Bin('+', left, term());
      } else if (peekIs("-")) {
        pos++;
        left = new Bin('-', left, term());
      } else if (peekIs("\\pm") || peekIs("\\mp")) {
        // a ± b is the set of both
        pos++;
        Expr right = term();
        left = new SetOf(List.of(new Bin('-', left, right), new Bin('+', left, right)));
      } else {
        return left;
      }
    }
  }

  private Expr term() {
    Expr left = unary();
    while (true) {
      budget.check();
      String token = peek();
      if (token.equals("*") || token.equals("\\cdot") || token.equals("\\times") || token.equals("\\ast")) {
        pos++;
        left = new Bin('*', left, unary());
      } else if (token.equals("/") || token.equals("\\div") || token.equals(":") || token.equals("\\over")) {
        pos++;
        Expr right = unary();
        if (holdsMatrix(left) || holdsMatrix(right)) {
          // "Special matrix: M" is prose before a matrix, which latex2sympy cannot read either
          throw new IllegalArgumentException("a matrix cannot be divided");
        }
        left = new Bin('/', left, right);
      } else {
        return left;
      }
    }
  }

  /** A matrix, or a product of factors one of which is a matrix. */
  private static boolean holdsMatrix(Expr expr) {
    Expr e = expr;
    while (e instanceof Bin b && b.op() == '*') {
      if (holdsMatrix(b.left())) {
        return true;
      }
      e = b.right();
    }
    return e instanceof Matrix;
  }

  /**
   * Operands written side by side, which bind tighter than written operators as in latex2sympy's grammar
   * (its postfix list sits below {@code *}, {@code /}, {@code \\over}): {@code 1/2x} is 1/(2x).
   */
  private Expr implicitProduct() {
    Expr left = power();
    while (startsOperand(peek())) {
      budget.check();
      left = juxtaposed(left, power());
    }
    return left;
  }

  /**
   * Two operands written side by side: a product, except that an integer followed by a positive rational is
   * a mixed number, as latex2sympy reads it ({@code 2\\frac{1}{2}} is 5/2, {@code -1\\frac{3}{4}} is -7/4, and
   * so is {@code 2(3)} 5).
   */
  private static Expr juxtaposed(Expr left, Expr right) {
    boolean negative = left instanceof Neg neg && neg.operand() instanceof Num;
    Expr whole = negative ? ((Neg) left).operand() : left;
    if (whole instanceof Num n && !n.decimal() && n.value().isInteger() && positiveRational(right)) {
      Expr sum = new Bin('+', whole, right);
      return negative ? new Neg(sum) : sum;
    }
    return new Bin('*', left, right);
  }

  private static boolean positiveRational(Expr expr) {
    return switch (expr) {
      case Num n -> !n.decimal() && n.value().signum() > 0;
      case Bin b when b.op() == '/' -> b.left() instanceof Num p && !p.decimal() && p.value().isInteger()
          && b.right() instanceof Num q && !q.decimal() && q.value().isInteger()
          && p.value().signum() * q.value().signum() > 0;
      default -> false;
    };
  }

  private boolean startsOperand(String token) {
    if (token.isEmpty()) {
      return false;
    }
    char c = token.charAt(0);
    if (Character.isLetterOrDigit(c) || c == '.' && token.length() > 1) {
      return true;
    }
    if (token.equals("(") || token.equals("{") || token.equals("\\{")) {
      return true;
    }
    return c == '\\' && token.length() > 1 && Character.isLetter(token.charAt(1)) && relationOperatorName(token)
        && !Set.of("\\cdot", "\\times", "\\div", "\\over", "\\ast", "\\pm", "\\mp", "\\end", "\\right",
            "\\rfloor", "\\rceil", "\\cup", "\\cap",
            "\\approx", "\\simeq").contains(token);
  }

  private static boolean relationOperatorName(String token) {
    return !Set.of("\\le", "\\leq", "\\leqslant", "\\ge", "\\geq", "\\geqslant", "\\ne", "\\neq", "\\lt", "\\gt",
        "\\in", "\\to").contains(token);
  }

  private Expr unary() {
    if (peekIs("\\pm") || peekIs("\\mp")) {
      pos++;
      Expr operand = unary();
      return new SetOf(List.of(new Neg(operand), operand));
    }
    if (peekIs("-")) {
      pos++;
      return new Neg(unary());
    }
    if (peekIs("+")) {
      pos++;
      return unary();
    }
    return implicitProduct();
  }

  private Expr power() {
    Expr base = postfix();
    if (peekIs("^")) {
      pos++;
      Expr exponent = peekIs("-") ? unaryExponent() : exponentOperand();
      return postfixAfter(new Bin('^', base, exponent));
    }
    return base;
  }

  private Expr unaryExponent() {
    pos++;
    return new Neg(exponentOperand());
  }

  /** The exponent: a braced group or one token's worth, since {@code 2^10} in LaTeX is {@code 2^1·0}. */
  private Expr exponentOperand() {
    String token = peek();
    if (!plain && token.length() > 1 && Character.isDigit(token.charAt(0)) && !token.contains(".")) {
      pos++;
      return new Num(BigRational.parseDecimal(token.substring(0, 1)), false);
    }
    return power();
  }

  private Expr postfix() {
    return postfixAfter(primary());
  }

  private Expr postfixAfter(Expr operand) {
    Expr result = operand;
    while (true) {
      if (peekIs("!")) {
        pos++;
        result = new Fn("factorial", List.of(result));
      } else if (peekIs("%")) {
        pos++;
        result = new Bin('/', result, new Num(BigRational.of(100), false));
      } else if (degreeAhead() > 0) {
        // latex2sympy's degree postfix (^\circ, ^{\circ}, ^°, ^\degree), kept as the number itself
        pos += degreeAhead();
      } else {
        return result;
      }
    }
  }

  /** How many tokens a degree sign after {@code ^} takes at {@code pos}; 0 when there is none. */
  private int degreeAhead() {
    if (!peekIs("^") || pos + 1 >= tokens.size()) {
      return 0;
    }
    if (DEGREE_SIGNS.contains(tokens.get(pos + 1))) {
      return 2;
    }
    boolean braced = pos + 3 < tokens.size() && tokens.get(pos + 1).equals("{")
        && DEGREE_SIGNS.contains(tokens.get(pos + 2)) && tokens.get(pos + 3).equals("}");
    return braced ? 4 : 0;
  }

  private Expr primary() {
    if (++depth > MAX_DEPTH) {
      throw new TooLarge("an answer nested more than " + MAX_DEPTH + " groups deep");
    }
    try {
      return primaryUnguarded();
    } finally {
      depth--;
    }
  }

  private Expr primaryUnguarded() {
    budget.check();
    String token = next();
    char c = token.charAt(0);
    if (Character.isDigit(c) || c == '.') {
      if (token.length() > MAX_DIGITS) {
        throw new TooLarge("a number of " + token.length() + " digits (at most " + MAX_DIGITS + ")");
      }
      return new Num(BigRational.parseDecimal(token), token.contains("."));
    }
    if (Character.isLetter(c)) {
      return symbol(token);
    }
    if (token.length() > 1 && textCommandEnd(token, 0) == token.length()) {
      return textSymbol(token);
    }
    return switch (token) {
      case "(" -> bracketed(true);
      case "[" -> bracketed(false);
      case "{" -> group();
      case "\\{" -> {
        List<Expr> items = items("\\}");
        expect("\\}");
        yield new SetOf(items);
      }
      case "\\lfloor", "\\lceil" -> {
        Expr inside = additive();
        expect(token.equals("\\lfloor") ? "\\rfloor" : "\\rceil");
        yield new Fn(token.equals("\\lfloor") ? "floor" : "ceiling", List.of(inside));
      }
      case "|" -> {
        Expr inside = additive();
        expect("|");
        yield new Fn("abs", List.of(inside));
      }
      case "\\frac" -> new Bin('/', argument(), argument());
      case "\\binom", "\\dbinom", "\\tbinom" -> new Fn("binomial", List.of(argument(), argument()));
      case "\\sqrt" -> root();
      case "\\pi", "\\Pi" -> Const.PI;
      case "\\infty" -> Const.INFINITY;
      case "\\text", "\\textbf", "\\textit", "\\textnormal", "\\mbox" -> argument();
      case "\\begin" -> matrix();
      case "\\overline", "\\mathbf", "\\mathrm", "\\boldsymbol", "\\vec", "\\hat", "\\bar", "\\mathit" -> argument();
      default -> {
        String name = token.substring(1);
        if (FUNCTIONS.contains(name)) {
          yield function(name);
        }
        if (GREEK.contains(name) || OTHER_SYMBOLS.contains(name)) {
          yield subscripted(name);
        }
        throw new IllegalArgumentException("cannot read '" + token + "'");
      }
    };
  }

  private Expr symbol(String letter) {
    if (letter.equals("e") && !peekIs("_")) {
      return Const.E;
    }
    if (peekIs("(") && appliedToAtom()) {
      // f(x), F(n), g(a, b): an undefined function, named as written, as latex2sympy reads a letter before
      // parentheses holding one atom or a list; x(x+1) stays a product
      pos++;
      List<Expr> args = items(")");
      expect(")");
      return new Fn("applied " + letter, args);
    }
    return subscripted(letter);
  }

  /** Whether the parentheses at {@code pos} hold a single token or a top-level comma. */
  private boolean appliedToAtom() {
    int level = 0;
    int count = 0;
    for (int i = pos; i < Math.min(tokens.size(), pos + 256); i++) {
      String token = tokens.get(i);
      if (token.equals("(") || token.equals("{") || token.equals("[")) {
        level++;
      } else if (token.equals(")") || token.equals("}") || token.equals("]")) {
        if (--level == 0) {
          return count == 1;
        }
      } else if (level == 1 && token.equals(",")) {
        return true;
      }
      if (level >= 1 && i > pos) {
        count++;
      }
    }
    return false;
  }

  /** A name, lower-cased as latex2sympy's symbols are ({@code X} is {@code x}, {@code \\Delta} is {@code delta}). */
  private Expr subscripted(String name) {
    if (!peekIs("_")) {
      return new Sym(name.toLowerCase(java.util.Locale.ROOT));
    }
    pos++;
    String sub = peekIs("{") ? groupText() : next();
    return new Sym((name + "_" + sub).toLowerCase(java.util.Locale.ROOT));
  }

  /**
   * {@code \\text{…}}: one symbol named by its content without spaces and parentheses, lower-cased, as
   * latex2sympy reads it ({@code \\text{(B)}} is {@code b}, {@code \\text{0.5}} a symbol named {@code 0.5}).
   */
  private static Expr textSymbol(String token) {
    String content = token.substring(token.indexOf('{') + 1, token.length() - 1);
    String name = content.replaceAll("[\\s()]", "").toLowerCase(java.util.Locale.ROOT);
    // latex2sympy maps the symbol named pi to SymPy's pi
    return name.equals("pi") ? Const.PI : new Text(name);
  }

  private String groupText() {
    expect("{");
    StringBuilder text = new StringBuilder();
    int level = 1;
    while (true) {
      String token = next();
      if (token.equals("{")) {
        level++;
      } else if (token.equals("}") && --level == 0) {
        return text.toString();
      }
      text.append(token);
    }
  }

  /** {@code (…)} and {@code […]}: grouping, a point or tuple, or an interval, by count and closing bracket. */
  private Expr bracketed(boolean openRound) {
    List<Expr> items = items(")]");
    String close = next();
    if (!close.equals(")") && !close.equals("]")) {
      throw new IllegalArgumentException("unclosed bracket");
    }
    boolean closeRound = close.equals(")");
    if (items.size() == 1) {
      // latex2sympy: [x] is x, [(2, 2, 2)] is (2, 2, 2)
      return items.getFirst();
    }
    if (items.size() == 2 && !descending(items.get(0), items.get(1))) {
      return new Interval(items.get(0), items.get(1), openRound, closeRound);
    }
    return new TupleOf(items);
  }

  /** Whether two numbers without variables are in descending order: {@code (11, 7)} is a pair, not an interval. */
  private boolean descending(Expr low, Expr high) {
    if (!(low instanceof Num || low instanceof Neg || low instanceof Bin || low instanceof Sym || low instanceof Const
        || low instanceof Fn) || !(high instanceof Num || high instanceof Neg || high instanceof Bin
        || high instanceof Sym || high instanceof Const || high instanceof Fn)) {
      return true;   // a pair of tuples or sets is a tuple
    }
    try {
      Evaluator evaluator = new Evaluator(java.util.Map.of(), budget);
      return evaluator.evaluate(low).value().compareTo(evaluator.evaluate(high).value()) >= 0;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  private Expr group() {
    Expr inside = list("}");
    expect("}");
    return inside;
  }

  /** A command's argument: a braced group, or a single token as in {@code \frac12}. */
  private Expr argument() {
    if (peekIs("{")) {
      pos++;
      return group();
    }
    return primary();
  }

  private Expr root() {
    if (peekIs("[")) {
      pos++;
      Expr index = additive();
      expect("]");
      return new Bin('^', argument(), new Bin('/', new Num(BigRational.ONE, false), index));
    }
    return new Fn("sqrt", List.of(argument()));
  }

  private Expr function(String name) {
    Expr power = null;
    Expr base = null;
    if (peekIs("_") && name.equals("log")) {
      pos++;
      base = argument();
    }
    if (peekIs("^")) {
      pos++;
      power = exponentOperand();
    }
    Expr argument;
    if (peekIs("(")) {
      pos++;
      List<Expr> args = items(")");
      expect(")");
      if (args.size() == 2 && name.equals("log")) {
        base = args.get(1);
      }
      argument = args.getFirst();
    } else if (peekIs("{")) {
      argument = argument();
    } else {
      argument = power();
    }
    Expr call = switch (name) {
      case "sqrt" -> new Fn("sqrt", List.of(argument));
      case "log" -> new Fn("log", base == null ? List.of(argument) : List.of(argument, base));
      default -> new Fn(name, List.of(argument));
    };
    return power == null ? call : new Bin('^', call, power);
  }

  private Expr matrix() {
    String environment = groupText();
    if (environment.equals("array") && peekIs("{")) {
      groupText();   // the column layout, {cc}
    }
    List<List<Expr>> rows = new ArrayList<>();
    List<Expr> row = new ArrayList<>();
    while (true) {
      budget.check();
      if (peekIs("\\end")) {
        pos++;
        groupText();
        break;
      }
      row.add(additive());
      if (peekIs("&")) {
        pos++;
      } else if (peekIs("\\\\")) {
        pos++;
        rows.add(row);
        row = new ArrayList<>();
      } else if (!peekIs("\\end")) {
        throw new IllegalArgumentException("bad " + environment + " cell");
      }
    }
    if (!row.isEmpty()) {
      rows.add(row);
    }
    return new Matrix(rows);
  }

  // ---- tokens ----

  private String peek() {
    return pos < tokens.size() ? tokens.get(pos) : "";
  }

  private boolean peekIs(String token) {
    return pos < tokens.size() && tokens.get(pos).equals(token);
  }

  /** Whether the next token closes a list; {@code ")]"} means either bracket, as intervals mix them. */
  private boolean closes(String close) {
    return close.equals(")]") ? peekIs(")") || peekIs("]") : peekIs(close);
  }

  private boolean atEnd() {
    return pos >= tokens.size();
  }

  private String next() {
    if (pos >= tokens.size()) {
      throw new IllegalArgumentException("answer ends too early");
    }
    return tokens.get(pos++);
  }

  private void expect(String token) {
    String actual = next();
    if (!actual.equals(token)) {
      throw new IllegalArgumentException("expected '" + token + "' but found '" + actual + "'");
    }
  }
}
