package dev.gym4j.math;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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

  boolean equal(Expr gold, Expr pred) {
    budget.check();
    if (gold.toString().equals(pred.toString())) {
      return true;
    }
    return switch (gold) {
      case SetOf g when pred instanceof SetOf p -> sameSet(g.items(), p.items());
      case SetOf g when g.items().size() == 1 -> equal(g.items().getFirst(), pred);
      case TupleOf g when pred instanceof TupleOf p -> pairwise(g.items(), p.items());
      case Interval g when pred instanceof Interval p -> g.lowOpen() == p.lowOpen() && g.highOpen() == p.highOpen()
          && equal(g.low(), p.low()) && equal(g.high(), p.high());
      case Interval g when pred instanceof TupleOf p && g.lowOpen() && g.highOpen() ->
          pairwise(List.of(g.low(), g.high()), p.items());
      case TupleOf g when pred instanceof Interval p && p.lowOpen() && p.highOpen() ->
          pairwise(g.items(), List.of(p.low(), p.high()));
      case Interval g when pred instanceof Rel p -> asInterval(p) != null && equal(g, asInterval(p));
      case Matrix g when pred instanceof Matrix p -> sameMatrix(g, p);
      case Rel g when pred instanceof Rel p -> sameRelation(g, p);
      case Rel g when pred instanceof Interval -> asInterval(g) != null && equal(asInterval(g), pred);
      case Rel g when g.op().equals("=") && g.left() instanceof Sym -> equal(g.right(), pred);
      case Text g -> pred instanceof Text || pred instanceof Sym ? sameWord(g.toString(), pred.toString()) : false;
      default -> equalToShape(gold, pred);
    };
  }

  private boolean equalToShape(Expr gold, Expr pred) {
    return switch (pred) {
      case SetOf p when p.items().size() == 1 -> equal(gold, p.items().getFirst());
      case Rel p when p.op().equals("=") && p.left() instanceof Sym -> equal(gold, p.right());
      case Text p -> gold instanceof Sym && sameWord(gold.toString(), p.toString());
      default -> isScalar(gold) && isScalar(pred) && scalarsEqual(gold, pred);
    };
  }

  private static boolean sameWord(String a, String b) {
    return a.equalsIgnoreCase(b);
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

  /** Every element matched to a distinct one, by backtracking (answer sets are small). */
  private boolean sameSet(List<Expr> gold, List<Expr> pred) {
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

  private boolean sameRelation(Rel gold, Rel pred) {
    if (gold.op().equals(pred.op()) && equal(gold.left(), pred.left()) && equal(gold.right(), pred.right())) {
      return true;
    }
    if (mirrored(gold.op()).equals(pred.op()) && equal(gold.left(), pred.right())
        && equal(gold.right(), pred.left())) {
      return true;
    }
    if (gold.op().equals("=") && pred.op().equals("=") || gold.op().equals("!=") && pred.op().equals("!=")) {
      // an equation is the same when both sides moved to one side agree, up to sign
      Expr g = new Bin('-', gold.left(), gold.right());
      Expr p = new Bin('-', pred.left(), pred.right());
      return isScalar(g) && (scalarsEqual(g, p) || scalarsEqual(g, new Neg(p)));
    }
    return false;
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

  /** {@code x > 2} as {@code (2, ∞)}, so that inequalities and intervals compare; null for other relations. */
  private static Interval asInterval(Rel rel) {
    Expr bound;
    String op;
    if (rel.left() instanceof Sym) {
      bound = rel.right();
      op = rel.op();
    } else if (rel.right() instanceof Sym) {
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
        return numbersEqual(evaluator.evaluate(gold), evaluator.evaluate(pred));
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

  private static int infinitySign(Expr expr) {
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
