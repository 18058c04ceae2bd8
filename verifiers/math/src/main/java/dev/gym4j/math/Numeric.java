package dev.gym4j.math;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A number an answer evaluated to: exact when only rational arithmetic was involved, otherwise an
 * approximation good to {@code digits} significant digits. {@code decimal} records that a decimal literal
 * took part, which makes the comparison round as math-verify rounds floats.
 */
record Numeric(BigRational exact, BigDecimal approx, boolean decimal, int digits) {
  /** Working precision of approximations made with BigDecimal. */
  static final MathContext CONTEXT = new MathContext(60);
  /** Digits an approximation keeps after passing through a double (trigonometry, logarithms). */
  static final int DOUBLE_DIGITS = 15;

  static Numeric exact(BigRational value, boolean decimal) {
    return new Numeric(value, null, decimal, CONTEXT.getPrecision());
  }

  static Numeric approx(BigDecimal value, boolean decimal, int digits) {
    return new Numeric(null, value, decimal, digits);
  }

  boolean isExact() {
    return exact != null;
  }

  BigDecimal value() {
    return exact != null ? exact.toBigDecimal(CONTEXT) : approx;
  }

  int signum() {
    return exact != null ? exact.signum() : approx.signum();
  }
}
