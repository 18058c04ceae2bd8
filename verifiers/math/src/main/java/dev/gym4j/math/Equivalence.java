package dev.gym4j.math;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
 * Decides whether two parsed answers are the same mathematical object. Shapes must agree (a set is never
 * a tuple); sets ignore order; interval ends must agree; {@code x = 2} answers {@code 2}. Scalars without
 * variables compare exactly as rationals when they are rational, rounded to {@code floatRounding} places
 * when a decimal took part, and to the working precision otherwise (so π is never 3.14159). Scalars with
 * variables are equal when they agree at several fixed rational points: a polynomial identity test, which
 * is how {@code (x+1)^2} equals {@code x^2+2x+1} without a computer algebra system.
 */
final class Equivalence {
  /** Points the variables take, far from special values so that different expressions differ. */
  private static final BigRational[] POINTS = {
      new BigRational(BigInteger.valueOf(7), BigInteger.valueOf(11)),
      new BigRational(BigInteger.valueOf(23), BigInteger.valueOf(13)),
      new BigRational(BigInteger.valueOf(31), BigInteger.valueOf(17)),
      new BigRational(BigInteger.valueOf(5), BigInteger.valueOf(19)),
      new BigRational(BigInteger.valueOf(41), BigInteger.valueOf(29)),
      new BigRational(BigInteger.valueOf(-13), BigInteger.valueOf(7)),
      new BigRational(BigInteger.valueOf(59), BigInteger.valueOf(37)),
      new BigRational(BigInteger.valueOf(113), BigInteger.valueOf(7)),
      new BigRational(BigInteger.valueOf(257), BigInteger.valueOf(9)),
  };
  private static final int AGREEING_POINTS = 3;

  private final MathVerifier.Options options;
  private final Budget budget;

  Equivalence(MathVerifier.Options options, Budget budget) {
    this.options = options;
    this.budget = budget;
  }

  /**
   * math-verify's comparison (grader.py, {@code sympy_expr_eq}), in its order: labelled answers
   * ({@code x = 2}, {@code (p,q) = (3,2)}) give their value unless both sides are equations; a relation
   * given as gold is read as the set it describes when the prediction is a set; then relations, sets and
   * tuples, words and symbols, matrices and scalars each compare their own way.
   */
  boolean equal(Expr gold, Expr pred) {
    budget.check();
    boolean goldAssignment = isAssignment(gold);
    boolean goldEquation = isEquation(gold);
    boolean predEquation = isEquation(pred);
    if (goldAssignment) {
      gold = new Rel("=", firstLink(gold).left(), lastLink(gold).right());
    }
    if (isAssignment(pred)) {
      pred = new Rel("=", firstLink(pred).left(), lastLink(pred).right());
    }
    if (predEquation && !goldEquation) {
      pred = lastLink(pred).right();
    } else if (goldAssignment && !predEquation) {
      gold = lastLink(gold).right();
    }
    if (isRelation(gold) && isSet(pred)) {
      Expr set = asSet(gold);
      gold = set == null ? gold : set;
    }
    // SymPy's structural equality (a word "2.5" is no number, 7/18. is no 7/18)
    if (gold.equals(pred)) {
      return true;
    }
    if (isRelation(gold) && isRelation(pred)) {
      return sameRelation(gold, pred);
    }
    if (isSet(gold) || gold instanceof TupleOf || isSet(pred) || pred instanceof TupleOf) {
      return sameSet(gold, pred);
    }
    if (isRelation(gold) || isRelation(pred)) {
      return false;
    }
    if (isWord(gold) || isWord(pred)) {
      return sameWord(gold, pred);
    }
    Matrix goldMatrix = matrixValue(gold);
    Matrix predMatrix = matrixValue(pred);
    if (goldMatrix != null || predMatrix != null) {
      return goldMatrix != null && predMatrix != null && sameMatrix(goldMatrix, predMatrix);
    }
    return isScalar(gold) && isScalar(pred) && scalarsEqual(gold, pred);
  }

  /**
   * latex2sympy's {@code is_expr_of_only_symbols}: a name, or names combined ({@code AB}, {@code |AB|},
   * {@code A:B}, {@code (p, q)}).
   */
  static boolean onlySymbols(Expr expr) {
    return switch (expr) {
      case Sym s -> true;
      case Text t -> true;
      case Bin b when b.op() == '^' -> false;
      case Bin b -> onlySymbols(b.left()) && onlySymbols(b.right());
      case Fn f -> !f.args().isEmpty() && f.args().stream().allMatch(Equivalence::onlySymbols);
      case TupleOf t -> t.items().stream().allMatch(Equivalence::onlySymbols);
      case Interval i -> onlySymbols(i.low()) && onlySymbols(i.high());
      default -> false;
    };
  }

  private static boolean isAssignment(Expr expr) {
    return isEquation(expr) && onlySymbols(firstLink(expr).left());
  }

  private static boolean isEquation(Expr expr) {
    return switch (expr) {
      case Rel r -> r.op().equals("=");
      case And a -> a.links().stream().allMatch(r -> r.op().equals("="));
      default -> false;
    };
  }

  private static boolean isRelation(Expr expr) {
    return expr instanceof Rel || expr instanceof And;
  }

  private static boolean isSet(Expr expr) {
    return expr instanceof SetOf || expr instanceof Interval || expr instanceof Union;
  }

  private static Rel firstLink(Expr relation) {
    return relation instanceof And and ? and.links().getFirst() : (Rel) relation;
  }

  private static Rel lastLink(Expr relation) {
    return relation instanceof And and ? and.links().getLast() : (Rel) relation;
  }

  private boolean pairwise(List<Expr> gold, List<Expr> pred) {
    if (gold.size() != pred.size()) {
      return false;
    }
    for (int i = 0; i < gold.size(); i++) {
      if (!equal(gold.get(i), pred.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sets, tuples and intervals (math-verify's {@code sympy_compare_sets}): a lone value is a one-element
   * set; intervals compare ends and openness; a set compares without order and without duplicates; a tuple
   * gold compares in order; an open interval equals the pair of its ends.
   */
  private boolean sameSet(Expr gold, Expr pred) {
    Expr g = isSet(gold) || gold instanceof TupleOf ? gold : new SetOf(List.of(gold));
    Expr p = isSet(pred) || pred instanceof TupleOf ? pred : new SetOf(List.of(pred));
    if (g instanceof Interval gi && p instanceof Interval pi) {
      return gi.lowOpen() == pi.lowOpen() && gi.highOpen() == pi.highOpen() && equal(gi.low(), pi.low())
          && equal(gi.high(), pi.high());
    }
    if (g instanceof Union gu && p instanceof Union pu) {
      return matchAll(distinct(gu.parts()), distinct(pu.parts()));
    }
    if (g instanceof Interval gi && gi.lowOpen() && gi.highOpen() && size(p) == 2) {
      g = new TupleOf(List.of(gi.low(), gi.high()));
    } else if (p instanceof Interval pi && pi.lowOpen() && pi.highOpen() && size(g) == 2) {
      p = new TupleOf(List.of(pi.low(), pi.high()));
    }
    if (g instanceof SetOf gs && (p instanceof SetOf || p instanceof TupleOf)) {
      return matchAll(distinct(gs.items()), p instanceof SetOf ps ? distinct(ps.items()) : ((TupleOf) p).items());
    }
    if (g instanceof TupleOf gt && (p instanceof SetOf || p instanceof TupleOf)) {
      return pairwise(gt.items(), p instanceof SetOf ps ? distinct(ps.items()) : ((TupleOf) p).items());
    }
    return false;
  }

  private static int size(Expr expr) {
    return switch (expr) {
      case SetOf s -> s.items().size();
      case TupleOf t -> t.items().size();
      default -> -1;
    };
  }

  /** A set's elements without repeats (as written: {@code {1, 1, 2}} is {@code {1, 2}}). */
  private static List<Expr> distinct(List<Expr> items) {
    java.util.LinkedHashMap<String, Expr> seen = new java.util.LinkedHashMap<>();
    for (Expr item : items) {
      seen.putIfAbsent(item.toString(), item);
    }
    return List.copyOf(seen.values());
  }

  /** Every element matched to a distinct one, by backtracking (answer sets are small). */
  private boolean matchAll(List<Expr> gold, List<Expr> pred) {
    return gold.size() == pred.size() && match(gold, pred, 0, new boolean[pred.size()]);
  }

  private boolean match(List<Expr> gold, List<Expr> pred, int index, boolean[] used) {
    if (index == gold.size()) {
      return true;
    }
    for (int j = 0; j < pred.size(); j++) {
      if (!used[j] && equal(gold.get(index), pred.get(j))) {
        used[j] = true;
        if (match(gold, pred, index + 1, used)) {
          return true;
        }
        used[j] = false;
      }
    }
    return false;
  }

  private boolean sameMatrix(Matrix gold, Matrix pred) {
    if (gold.rows().size() != pred.rows().size()) {
      return false;
    }
    for (int i = 0; i < gold.rows().size(); i++) {
      if (!pairwise(gold.rows().get(i), pred.rows().get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A matrix, or a sum or product of matrices (and numbers times matrices) worked out entry by entry; null
   * for anything else or shapes that do not fit.
   */
  private Matrix matrixValue(Expr expr) {
    return switch (expr) {
      case Matrix m -> m;
      case Neg n -> scaled(new Num(BigRational.of(-1), false), matrixValue(n.operand()));
      case Bin b when b.op() == '+' || b.op() == '-' -> {
        Matrix left = matrixValue(b.left());
        Matrix right = matrixValue(b.right());
        if (left == null || right == null || !sameShape(left, right)) {
          yield null;
        }
        List<List<Expr>> rows = new java.util.ArrayList<>();
        for (int i = 0; i < left.rows().size(); i++) {
          List<Expr> row = new java.util.ArrayList<>();
          for (int j = 0; j < left.rows().get(i).size(); j++) {
            row.add(new Bin(b.op(), left.rows().get(i).get(j), right.rows().get(i).get(j)));
          }
          rows.add(row);
        }
        yield new Matrix(rows);
      }
      case Bin b when b.op() == '*' -> {
        Matrix left = matrixValue(b.left());
        Matrix right = matrixValue(b.right());
        if (left == null && right == null) {
          yield null;
        }
        if (left == null) {
          yield isScalar(b.left()) ? scaled(b.left(), right) : null;
        }
        if (right == null) {
          yield isScalar(b.right()) ? scaled(b.right(), left) : null;
        }
        yield product(left, right);
      }
      default -> null;
    };
  }

  private static boolean sameShape(Matrix a, Matrix b) {
    if (a.rows().size() != b.rows().size()) {
      return false;
    }
    for (int i = 0; i < a.rows().size(); i++) {
      if (a.rows().get(i).size() != b.rows().get(i).size()) {
        return false;
      }
    }
    return true;
  }

  private static Matrix scaled(Expr factor, Matrix matrix) {
    if (matrix == null) {
      return null;
    }
    return new Matrix(matrix.rows().stream().map(row -> row.stream().map(e -> (Expr) new Bin('*', factor, e)).toList())
        .toList());
  }

  private Matrix product(Matrix left, Matrix right) {
    int n = left.rows().size();
    int inner = right.rows().size();
    if (n == 0 || inner == 0 || left.rows().stream().anyMatch(row -> row.size() != inner)) {
      return null;
    }
    int m = right.rows().getFirst().size();
    if (right.rows().stream().anyMatch(row -> row.size() != m) || (long) n * m * inner > 10_000) {
      return null;
    }
    List<List<Expr>> rows = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Expr> row = new java.util.ArrayList<>();
      for (int j = 0; j < m; j++) {
        budget.check();
        Expr sum = null;
        for (int k = 0; k < inner; k++) {
          Expr term = new Bin('*', left.rows().get(i).get(k), right.rows().get(k).get(j));
          sum = sum == null ? term : new Bin('+', sum, term);
        }
        row.add(sum);
      }
      rows.add(row);
    }
    return new Matrix(rows);
  }

  /**
   * Relations (math-verify's {@code sympy_compare_relational}): chains link by link; the same relation whose
   * sides moved to one side agree, or the mirrored one whose differences are opposite; and, standing in for
   * solving both, differences that are constant multiples (positive for the same direction of an
   * inequality, negative for the mirrored one, any for equations): {@code 2x+4y-3=0} is {@code y=-x/2+3/4}.
   */
  private boolean sameRelation(Expr gold, Expr pred) {
    if (gold instanceof And g && pred instanceof And p) {
      if (g.links().size() != p.links().size()) {
        return false;
      }
      for (int i = 0; i < g.links().size(); i++) {
        if (!sameRelation(g.links().get(i), p.links().get(i))) {
          return false;
        }
      }
      return true;
    }
    if (!(gold instanceof Rel g) || !(pred instanceof Rel p)) {
      return false;
    }
    Expr goldDifference = new Bin('-', g.left(), g.right());
    Expr predDifference = new Bin('-', p.left(), p.right());
    if (!isScalar(goldDifference) || !isScalar(predDifference)) {
      return false;
    }
    boolean same = g.op().equals(p.op());
    boolean mirrored = mirrored(g.op()).equals(p.op());
    if (same && scalarsEqual(goldDifference, predDifference)
        || mirrored && scalarsEqual(goldDifference, new Neg(predDifference))) {
      return true;
    }
    if (!same && !mirrored) {
      return false;
    }
    BigRational ratio = ratio(goldDifference, predDifference);
    if (ratio == null || ratio.signum() == 0) {
      return false;
    }
    boolean symmetric = g.op().equals("=") || g.op().equals("!=");
    if (!symmetric && (same ? ratio.signum() < 0 : ratio.signum() > 0)) {
      return false;
    }
    return (same || symmetric || mirrored) && scalarsEqual(goldDifference, new Bin('*', new Num(ratio, false),
        predDifference));
  }

  /** gold / pred at the first sample point where both have an exact value and pred is not 0; null if none. */
  private BigRational ratio(Expr gold, Expr pred) {
    Set<String> names = variables(pred, variables(gold, new TreeSet<>()));
    for (int attempt = 0; attempt < POINTS.length; attempt++) {
      Map<String, BigRational> point = new HashMap<>();
      int i = 0;
      for (String name : names) {
        point.put(name, POINTS[(attempt + 3 * i++) % POINTS.length]);
      }
      try {
        Evaluator evaluator = new Evaluator(point, budget);
        Numeric g = evaluator.evaluate(gold);
        Numeric p = evaluator.evaluate(pred);
        if (g.isExact() && p.isExact() && p.exact().signum() != 0) {
          return g.exact().divide(p.exact());
        }
      } catch (ArithmeticException e) {
        // undefined here; try the next point
      }
    }
    return null;
  }

  private static String mirrored(String op) {
    return switch (op) {
      case "<" -> ">";
      case ">" -> "<";
      case "<=" -> ">=";
      case ">=" -> "<=";
      default -> op;
    };
  }

  /**
   * The set a gold relation describes, when it bounds one variable (a name or names combined) by values:
   * {@code x > 2} is {@code (2, ∞)}, {@code 0 < f(x) < 1} is {@code (0, 1)}, {@code x ≠ 3} is the line
   * without 3; null otherwise.
   */
  private static Expr asSet(Expr relation) {
    if (relation instanceof Rel rel) {
      Interval interval = asInterval(rel);
      if (interval != null) {
        return interval;
      }
      Expr bound = rel.left() instanceof Sym || onlySymbols(rel.left()) ? rel.right() : rel.left();
      if (rel.op().equals("!=") && (onlySymbols(rel.left()) || onlySymbols(rel.right())) && !onlySymbols(bound)) {
        return new Union(List.of(new Interval(new Neg(Const.INFINITY), bound, true, true),
            new Interval(bound, Const.INFINITY, true, true)));
      }
      return null;
    }
    if (relation instanceof And and && and.links().size() == 2) {
      Interval first = asInterval(and.links().get(0));
      Interval second = asInterval(and.links().get(1));
      if (first == null || second == null
          || !and.links().get(0).right().toString().equals(and.links().get(1).left().toString())) {
        return null;
      }
      // one bound from each side: (a, ∞) and (-∞, b) give (a, b)
      Interval lower = infinitySign(first.high()) > 0 ? first : second;
      Interval upper = lower == first ? second : first;
      if (infinitySign(lower.high()) <= 0 || infinitySign(upper.low()) >= 0) {
        return null;
      }
      return new Interval(lower.low(), upper.high(), lower.lowOpen(), upper.highOpen());
    }
    return null;
  }

  /** {@code x > 2} as {@code (2, ∞)}, so that inequalities and intervals compare; null for other relations. */
  private static Interval asInterval(Rel rel) {
    Expr bound;
    String op;
    if (onlySymbols(rel.left()) && !onlySymbols(rel.right())) {
      bound = rel.right();
      op = rel.op();
    } else if (onlySymbols(rel.right()) && !onlySymbols(rel.left())) {
      bound = rel.left();
      op = mirrored(rel.op());
    } else {
      return null;
    }
    return switch (op) {
      case ">" -> new Interval(bound, Const.INFINITY, true, true);
      case ">=" -> new Interval(bound, Const.INFINITY, false, true);
      case "<" -> new Interval(new Neg(Const.INFINITY), bound, true, true);
      case "<=" -> new Interval(new Neg(Const.INFINITY), bound, true, false);
      default -> null;
    };
  }

  /** A name, a word, or letters written together ({@code odd} is o·d·d): what math-verify compares as text. */
  private static boolean isWord(Expr expr) {
    return expr instanceof Sym || expr instanceof Text;
  }

  /**
   * math-verify's {@code sympy_compare_symbols}: a word equals the letters of a product written in order
   * ({@code \text{odd}} is {@code odd}, {@code \text{e}} is {@code e}); otherwise names compare ignoring case
   * (latex2sympy lower-cases them), and anything else as printed.
   */
  private static boolean sameWord(Expr gold, Expr pred) {
    String a = letters(gold);
    String b = letters(pred);
    if (a != null && b != null) {
      return a.equalsIgnoreCase(b);
    }
    String x = printed(gold);
    String y = printed(pred);
    return x != null && x.equals(y);
  }

  /**
   * How SymPy prints what a word can equal as text: a name, an integer or a reduced fraction ({@code \\text{7}}
   * is 7, {@code \\text{7/18}} is 7/18). A decimal prints with 15 digits in SymPy ({@code 2.50000000000000}),
   * which no answer writes, so it equals no word; null for anything else.
   */
  private static String printed(Expr expr) {
    return switch (expr) {
      case Sym s -> s.name();
      case Text t -> t.value();
      case Num n -> n.decimal() ? null : n.value().toString();
      case Neg n when n.operand() instanceof Num num && !num.decimal() -> num.value().negate().toString();
      case Bin b when b.op() == '/' && b.left() instanceof Num p && b.right() instanceof Num q && !p.decimal()
          && !q.decimal() && q.value().signum() != 0 -> p.value().divide(q.value()).toString();
      default -> null;
    };
  }

  private static String letters(Expr expr) {
    return switch (expr) {
      case Sym s -> s.name();
      case Text t -> t.value().replace(" ", "");
      case Const c when c == Const.E -> "e";
      case Bin b when b.op() == '*' -> {
        String left = letters(b.left());
        String right = letters(b.right());
        yield left == null || right == null ? null : left + right;
      }
      default -> null;
    };
  }

  private static boolean isScalar(Expr expr) {
    return switch (expr) {
      case Num n -> true;
      case Sym s -> true;
      case Const c -> true;
      case Neg n -> isScalar(n.operand());
      case Bin b -> isScalar(b.left()) && isScalar(b.right());
      case Fn f -> f.args().stream().allMatch(Equivalence::isScalar);
      default -> false;
    };
  }

  boolean scalarsEqual(Expr gold, Expr pred) {
    int goldInfinity = infinitySign(gold);
    int predInfinity = infinitySign(pred);
    if (goldInfinity != 0 || predInfinity != 0) {
      return goldInfinity == predInfinity;
    }
    if (containsInfinity(gold) || containsInfinity(pred)) {
      return false;
    }
    // over the variables of both: sin²x + cos²x is 1 although only one side has an x
    Set<String> variables = variables(pred, variables(gold, new TreeSet<>()));
    if (variables.isEmpty()) {
      try {
        Evaluator evaluator = new Evaluator(Map.of(), budget);
        Numeric a = evaluator.evaluate(gold);
        Numeric b = evaluator.evaluate(pred);
        if (options.relativeTolerance() == 0 && (literalDecimal(gold) || literalDecimal(pred))) {
          return roundedEqual(gold, a, pred, b);
        }
        if (options.relativeTolerance() == 0 && (literalRational(gold) || literalRational(pred))
            && (a.decimal() || b.decimal())) {
          // SymPy: a Float never equals a Rational, and their difference simplifies to zero only when the
          // float, computed in 53-bit binary, is exactly the number: 1.512 \times 10^3 is 1512, but
          // 2.21221 \times 10^5 is not 221221 (it is 221220.99999999997), and 7/18. is not 7/18
          return sameAsBinaryFloat(gold, pred);
        }
        return numbersEqual(a, b);
      } catch (ArithmeticException e) {
        return false;
      }
    }
    int agreeing = 0;
    for (int attempt = 0; attempt < POINTS.length * 2 && agreeing < AGREEING_POINTS; attempt++) {
      Map<String, BigRational> point = new HashMap<>();
      int i = 0;
      for (String name : variables) {
        point.put(name, POINTS[(attempt + 3 * i++) % POINTS.length]);
      }
      Evaluator evaluator = new Evaluator(point, budget);
      Numeric a;
      try {
        a = evaluator.evaluate(gold);
      } catch (ArithmeticException e) {
        continue;
      }
      try {
        if (!numbersEqual(a, evaluator.evaluate(pred))) {
          return false;
        }
      } catch (ArithmeticException e) {
        return false;
      }
      agreeing++;
    }
    return agreeing == AGREEING_POINTS;
  }

  /**
   * math-verify's rule when one side is a decimal literal (grader.py, {@code sympy_numeric_eq}): both sides
   * are rounded to {@code floatRounding} places, so {@code \\sqrt{17}} is {@code 4.123105625617661} and π is
   * {@code 3.1415927} but not {@code 3.14159}; except that an integer stays exact and equals only a decimal
   * of exactly its value ({@code 3} is {@code 3.0}, not {@code 3.0000004}), as SymPy's rounding does.
   */
  private boolean roundedEqual(Expr gold, Numeric a, Expr pred, Numeric b) {
    if (!literalDecimal(gold) && literalInteger(gold) || !literalDecimal(pred) && literalInteger(pred)) {
      return a.value().compareTo(b.value()) == 0;
    }
    int places = options.floatRounding();
    BigDecimal x = a.isExact() ? a.exact().round(places) : a.value().setScale(places, java.math.RoundingMode.HALF_EVEN);
    BigDecimal y = b.isExact() ? b.exact().round(places) : b.value().setScale(places, java.math.RoundingMode.HALF_EVEN);
    return x.compareTo(y) == 0;
  }

  /** A decimal number as written ({@code 0.75}, {@code -0.75}, {@code 12.5\\%}), not a formula holding one. */
  private static boolean literalDecimal(Expr expr) {
    return switch (expr) {
      case Num n -> n.decimal();
      case Neg n -> literalDecimal(n.operand());
      case Bin b when b.op() == '/' && b.right() instanceof Num d && d.value().equals(BigRational.of(100)) ->
          literalDecimal(b.left());
      default -> false;
    };
  }

  private static boolean sameAsBinaryFloat(Expr gold, Expr pred) {
    Object a = binaryFloat(gold, 0);
    Object b = binaryFloat(pred, 0);
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof BigRational x && b instanceof BigRational y) {
      return x.equals(y);
    }
    // the difference of a Rational and a Float is taken in Float: the Rational rounded to 53 bits first
    return toDouble(a) == toDouble(b);
  }

  private static double toDouble(Object value) {
    return value instanceof Double d ? d : ((BigRational) value).toBigDecimal(java.math.MathContext.DECIMAL128)
        .doubleValue();
  }

  /**
   * A value as SymPy computes it when a decimal takes part: exact ({@link BigRational}) while only integers and
   * fractions meet, a 53-bit binary float ({@link Double}, SymPy's default Float precision, rounded to nearest
   * as mpmath does) once a decimal does; null for what this does not cover (functions, constants, variables).
   */
  private static Object binaryFloat(Expr expr, int depth) {
    if (depth > 64) {
      return null;
    }
    return switch (expr) {
      case Num n -> n.decimal() ? (Object) n.value().toBigDecimal(java.math.MathContext.DECIMAL128).doubleValue()
          : n.value();
      case Neg n -> {
        Object v = binaryFloat(n.operand(), depth + 1);
        yield v instanceof Double d ? (Object) (-d) : v == null ? null : ((BigRational) v).negate();
      }
      case Bin b when "+-*/^".indexOf(b.op()) >= 0 -> {
        Object l = binaryFloat(b.left(), depth + 1);
        Object r = binaryFloat(b.right(), depth + 1);
        if (l == null || r == null) {
          yield null;
        }
        if (l instanceof BigRational x && r instanceof BigRational y) {
          if (b.op() == '^') {
            yield y.isInteger() && y.num().bitLength() < 8 && x.num().bitLength() < 64 ? x.pow(y.num().intValue())
                : null;
          }
          if (b.op() == '/' && y.signum() == 0) {
            yield null;
          }
          yield switch (b.op()) {
            case '+' -> x.add(y);
            case '-' -> x.subtract(y);
            case '*' -> x.multiply(y);
            default -> x.divide(y);
          };
        }
        double x = toDouble(l);
        double y = toDouble(r);
        yield switch (b.op()) {
          case '+' -> (Object) (x + y);
          case '-' -> (Object) (x - y);
          case '*' -> (Object) (x * y);
          // SymPy divides by multiplying with the reciprocal, rounded on its own: 7/18. is 7·(1/18.)
          case '/' -> r instanceof BigRational q && q.signum() != 0 ? (Object) (x * toDouble(BigRational.ONE.divide(q)))
              : (Object) (x * (1.0 / y));
          default -> (Object) Math.pow(x, y);
        };
      }
      default -> null;
    };
  }

  /**
   * An exact number as latex2sympy gives it, already a SymPy Rational: an integer, a fraction of integers, a
   * mixed number, with a sign or as a percentage ({@code is_atomic_or_pct_atomic(…, Number)} in grader.py).
   */
  private static boolean literalRational(Expr expr) {
    return switch (expr) {
      case Num n -> !n.decimal();
      case Neg n -> literalRational(n.operand());
      case Bin b when b.op() == '/' -> literalInteger(b.left()) && literalInteger(b.right())
          || b.right() instanceof Num d && d.value().equals(BigRational.of(100)) && literalRational(b.left());
      case Bin b when b.op() == '+' -> literalInteger(b.left()) && literalRational(b.right())
          && b.right() instanceof Bin;
      default -> false;
    };
  }

  private static boolean literalInteger(Expr expr) {
    return switch (expr) {
      case Num n -> !n.decimal() && n.value().isInteger();
      case Neg n -> literalInteger(n.operand());
      default -> false;
    };
  }

  boolean numbersEqual(Numeric a, Numeric b) {
    if (options.relativeTolerance() > 0) {
      BigDecimal x = a.value();
      BigDecimal y = b.value();
      BigDecimal scale = x.abs().max(y.abs());
      return x.subtract(y).abs().compareTo(scale.multiply(BigDecimal.valueOf(options.relativeTolerance()))) <= 0;
    }
    if (a.isExact() && b.isExact()) {
      if (a.decimal() || b.decimal()) {
        return a.exact().round(options.floatRounding()).compareTo(b.exact().round(options.floatRounding())) == 0;
      }
      return a.exact().equals(b.exact());
    }
    int digits = Math.min(a.digits(), b.digits());
    BigDecimal x = a.value();
    BigDecimal y = b.value();
    BigDecimal scale = x.abs().max(y.abs());
    // relative for large values, absolute near zero, where an approximation of 0 (sin π) is only tiny
    BigDecimal allowed = scale.max(BigDecimal.ONE).multiply(BigDecimal.ONE.movePointLeft(digits - 4),
        MathContext.DECIMAL64);
    return x.subtract(y, Numeric.CONTEXT).abs().compareTo(allowed) <= 0;
  }

  static int infinitySign(Expr expr) {
    return switch (expr) {
      case Const c when c == Const.INFINITY -> 1;
      case Neg n -> -infinitySign(n.operand());
      default -> 0;
    };
  }

  private static boolean containsInfinity(Expr expr) {
    return switch (expr) {
      case Const c -> c == Const.INFINITY;
      case Neg n -> containsInfinity(n.operand());
      case Bin b -> containsInfinity(b.left()) || containsInfinity(b.right());
      case Fn f -> f.args().stream().anyMatch(Equivalence::containsInfinity);
      default -> false;
    };
  }

  private static Set<String> variables(Expr expr, Set<String> into) {
    switch (expr) {
      case Sym s -> into.add(s.name());
      case Neg n -> variables(n.operand(), into);
      case Bin b -> {
        variables(b.left(), into);
        variables(b.right(), into);
      }
      case Fn f -> f.args().forEach(arg -> variables(arg, into));
      default -> { }
    }
    return into;
  }
}
