package dev.gym4j.math;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.Map;

import dev.gym4j.math.Expr.Bin;
import dev.gym4j.math.Expr.Const;
import dev.gym4j.math.Expr.Fn;
import dev.gym4j.math.Expr.Neg;
import dev.gym4j.math.Expr.Num;
import dev.gym4j.math.Expr.Sym;

/**
 * Evaluates a scalar {@link Expr} with values for its variables: exactly with {@link BigRational} as long
 * as the arithmetic stays rational and small, then with 60-digit decimals (roots included), and through
 * doubles only for trigonometry, logarithms and irrational powers. Throws {@link ArithmeticException} for
 * what has no real value (a negative square root, log 0) or is too large to write down.
 */
final class Evaluator {
  /** No exact number grows past this many bits; beyond it the value is approximated. */
  private static final long MAX_EXACT_BITS = 4_000_000;
  private static final BigDecimal PI = new BigDecimal(
      "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863");
  private static final BigDecimal E = new BigDecimal(
      "2.71828182845904523536028747135266249775724709369995957496696762772407663035354759457");
  private static final double LN10 = Math.log(10);

  private final Map<String, BigRational> variables;
  private final Budget budget;

  Evaluator(Map<String, BigRational> variables, Budget budget) {
    this.variables = variables;
    this.budget = budget;
  }

  Numeric evaluate(Expr expr) {
    budget.check();
    return switch (expr) {
      case Num num -> Numeric.exact(num.value(), num.decimal());
      case Sym sym -> {
        BigRational value = variables.get(sym.name());
        if (value == null) {
          throw new ArithmeticException("no value for " + sym.name());
        }
        yield Numeric.exact(value, false);
      }
      case Const.PI -> Numeric.approx(PI.round(Numeric.CONTEXT), false, Numeric.CONTEXT.getPrecision());
      case Const.E -> Numeric.approx(E.round(Numeric.CONTEXT), false, Numeric.CONTEXT.getPrecision());
      case Neg neg -> negate(evaluate(neg.operand()));
      case Bin bin -> binary(bin.op(), evaluate(bin.left()), evaluate(bin.right()));
      case Fn fn -> function(fn);
      default -> throw new ArithmeticException("not a number: " + expr);
    };
  }

  private static Numeric negate(Numeric value) {
    return value.isExact() ? Numeric.exact(value.exact().negate(), value.decimal())
        : Numeric.approx(value.approx().negate(), value.decimal(), value.digits());
  }

  private Numeric binary(char op, Numeric a, Numeric b) {
    boolean decimal = a.decimal() || b.decimal();
    if (op == '^') {
      return power(a, b, decimal);
    }
    if (a.isExact() && b.isExact() && a.exact().bits() + b.exact().bits() < MAX_EXACT_BITS) {
      BigRational x = a.exact();
      BigRational y = b.exact();
      return Numeric.exact(switch (op) {
        case '+' -> x.add(y);
        case '-' -> x.subtract(y);
        case '*' -> x.multiply(y);
        case '/' -> x.divide(y);
        default -> throw new IllegalStateException("operator " + op);
      }, decimal);
    }
    BigDecimal x = a.value();
    BigDecimal y = b.value();
    MathContext mc = Numeric.CONTEXT;
    BigDecimal result = switch (op) {
      case '+' -> x.add(y, mc);
      case '-' -> x.subtract(y, mc);
      case '*' -> x.multiply(y, mc);
      case '/' -> x.divide(y, mc);
      default -> throw new IllegalStateException("operator " + op);
    };
    return Numeric.approx(result, decimal, Math.min(a.digits(), b.digits()));
  }

  private Numeric power(Numeric base, Numeric exponent, boolean decimal) {
    if (exponent.isExact() && exponent.exact().isInteger()) {
      BigInteger n = exponent.exact().num();
      if (n.bitLength() > 31) {
        throw new ArithmeticException("exponent too large");
      }
      int k = n.intValueExact();
      if (base.isExact() && (base.exact().signum() != 0 || k >= 0)
          && base.exact().bits() * (long) Math.abs(k) < MAX_EXACT_BITS) {
        return Numeric.exact(base.exact().pow(k), decimal);
      }
      return Numeric.approx(base.value().pow(k, Numeric.CONTEXT), decimal, base.digits());
    }
    if (exponent.isExact() && exponent.exact().den().bitLength() < 11) {
      // a rational power p/q: the q-th root kept to full precision, then the integer power
      int q = exponent.exact().den().intValueExact();
      Numeric root = root(base, q, decimal);
      return power(root, Numeric.exact(new BigRational(exponent.exact().num(), BigInteger.ONE), false), decimal);
    }
    if (base.signum() <= 0) {
      throw new ArithmeticException("irrational power of a non-positive number");
    }
    return Numeric.approx(exp(exponent.value().doubleValue() * ln(base.value())), decimal, Numeric.DOUBLE_DIGITS);
  }

  /** The real q-th root; exact when the root of a rational is rational. */
  private Numeric root(Numeric value, int q, boolean decimal) {
    int sign = value.signum();
    if (sign < 0 && q % 2 == 0) {
      throw new ArithmeticException("even root of a negative number");
    }
    if (sign == 0) {
      return Numeric.exact(BigRational.ZERO, decimal);
    }
    if (value.isExact()) {
      BigInteger num = exactRoot(value.exact().num().abs(), q);
      BigInteger den = exactRoot(value.exact().den(), q);
      if (num != null && den != null) {
        BigRational root = new BigRational(num, den);
        return Numeric.exact(sign < 0 ? root.negate() : root, decimal);
      }
    }
    BigDecimal magnitude = value.value().abs();
    BigDecimal root = q == 2 ? magnitude.sqrt(Numeric.CONTEXT) : newtonRoot(magnitude, q);
    return Numeric.approx(sign < 0 ? root.negate() : root, decimal, value.digits());
  }

  private static BigInteger exactRoot(BigInteger value, int q) {
    if (value.bitLength() > 100_000) {
      return null;
    }
    BigInteger guess = q == 2 ? value.sqrt()
        : new BigDecimal(value).compareTo(BigDecimal.ZERO) == 0 ? BigInteger.ZERO
        : newtonRoot(new BigDecimal(value), q).toBigInteger();
    for (BigInteger candidate : List.of(guess, guess.add(BigInteger.ONE))) {
      if (candidate.pow(q).equals(value)) {
        return candidate;
      }
    }
    return null;
  }

  private static BigDecimal newtonRoot(BigDecimal value, int q) {
    MathContext mc = Numeric.CONTEXT;
    BigDecimal x = new BigDecimal(Math.exp(ln(value) / q), mc);
    BigDecimal qq = BigDecimal.valueOf(q);
    for (int i = 0; i < 100; i++) {
      BigDecimal next = x.multiply(BigDecimal.valueOf(q - 1L), mc).add(value.divide(x.pow(q - 1, mc), mc), mc)
          .divide(qq, mc);
      if (next.compareTo(x) == 0) {
        break;
      }
      x = next;
    }
    return x;
  }

  private Numeric function(Fn fn) {
    List<Expr> args = fn.args();
    Numeric x = evaluate(args.getFirst());
    switch (fn.name()) {
      case "sqrt":
        return root(x, 2, x.decimal());
      case "abs":
        return x.signum() < 0 ? negate(x) : x;
      case "factorial":
        return factorial(x);
      case "binomial":
        return binomial(x, evaluate(args.get(1)));
      case "floor", "ceiling": {
        java.math.RoundingMode mode = fn.name().equals("floor") ? java.math.RoundingMode.FLOOR
            : java.math.RoundingMode.CEILING;
        BigDecimal whole = x.isExact()
            ? new BigDecimal(x.exact().num()).divide(new BigDecimal(x.exact().den()), 0, mode)
            : x.value().setScale(0, mode);
        return Numeric.exact(BigRational.of(whole), false);
      }
      default:
        break;
    }
    if (fn.name().equals("ln") || fn.name().equals("log")) {
      if (x.signum() <= 0) {
        throw new ArithmeticException("log of a non-positive number");
      }
      if (x.isExact() && x.exact().equals(BigRational.ONE)) {
        return Numeric.exact(BigRational.ZERO, x.decimal());
      }
      double numerator = ln(x.value());
      double denominator = fn.name().equals("ln") ? 1.0 : args.size() > 1 ? ln(evaluate(args.get(1)).value()) : LN10;
      return Numeric.approx(new BigDecimal(numerator / denominator), x.decimal(), Numeric.DOUBLE_DIGITS);
    }
    if (fn.name().equals("exp")) {
      return Numeric.approx(exp(x.value().doubleValue()), x.decimal(), Numeric.DOUBLE_DIGITS);
    }
    double v = x.value().doubleValue();
    if (Double.isInfinite(v) || Math.abs(v) > 1e15) {
      throw new ArithmeticException("argument too large for " + fn.name());
    }
    double result = switch (fn.name()) {
      case "sin" -> Math.sin(v);
      case "cos" -> Math.cos(v);
      case "tan" -> Math.tan(v);
      case "cot" -> 1 / Math.tan(v);
      case "sec" -> 1 / Math.cos(v);
      case "csc" -> 1 / Math.sin(v);
      case "arcsin" -> Math.asin(v);
      case "arccos" -> Math.acos(v);
      case "arctan" -> Math.atan(v);
      case "sinh" -> Math.sinh(v);
      case "cosh" -> Math.cosh(v);
      case "tanh" -> Math.tanh(v);
      default -> throw new ArithmeticException("unknown function " + fn.name());
    };
    if (!Double.isFinite(result)) {
      throw new ArithmeticException(fn.name() + " has no finite value here");
    }
    return Numeric.approx(new BigDecimal(result), x.decimal(), Numeric.DOUBLE_DIGITS);
  }

  private Numeric factorial(Numeric x) {
    if (!x.isExact() || !x.exact().isInteger() || x.signum() < 0 || x.exact().num().intValueExact() > 5000) {
      throw new ArithmeticException("factorial of a non-integer or of a large number");
    }
    BigInteger result = BigInteger.ONE;
    for (int i = 2; i <= x.exact().num().intValueExact(); i++) {
      result = result.multiply(BigInteger.valueOf(i));
    }
    return Numeric.exact(new BigRational(result, BigInteger.ONE), x.decimal());
  }

  private Numeric binomial(Numeric n, Numeric k) {
    if (!n.isExact() || !k.isExact() || !n.exact().isInteger() || !k.exact().isInteger()
        || k.exact().num().intValueExact() > 5000) {
      throw new ArithmeticException("binomial of non-integers or large numbers");
    }
    BigInteger result = BigInteger.ONE;
    BigInteger top = n.exact().num();
    int kk = k.exact().num().intValueExact();
    for (int i = 0; i < kk; i++) {
      result = result.multiply(top.subtract(BigInteger.valueOf(i))).divide(BigInteger.valueOf(i + 1L));
    }
    return Numeric.exact(new BigRational(result, BigInteger.ONE), false);
  }

  /** The natural logarithm of a positive number of any magnitude, as a double. */
  static double ln(BigDecimal value) {
    int exponent = value.precision() - value.scale() - 1;
    double mantissa = value.movePointLeft(exponent).doubleValue();
    return Math.log(mantissa) + exponent * LN10;
  }

  /** e^x for any x whose result can be written with an int exponent, to double precision. */
  static BigDecimal exp(double x) {
    if (!Double.isFinite(x) || Math.abs(x) > 1e9) {
      throw new ArithmeticException("exponential out of range");
    }
    double tens = Math.floor(x / LN10);
    double mantissa = Math.exp(x - tens * LN10);
    return new BigDecimal(mantissa).movePointRight((int) tens);
  }
}
