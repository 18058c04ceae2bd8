package dev.gym4j.math;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/** An exact fraction in lowest terms with a positive denominator. */
record BigRational(BigInteger num, BigInteger den) implements Comparable<BigRational> {
  static final BigRational ZERO = of(0);
  static final BigRational ONE = of(1);

  BigRational {
    if (den.signum() == 0) {
      throw new ArithmeticException("division by zero");
    }
    if (den.signum() < 0) {
      num = num.negate();
      den = den.negate();
    }
    BigInteger gcd = num.gcd(den);
    if (!gcd.equals(BigInteger.ONE) && gcd.signum() != 0) {
      num = num.divide(gcd);
      den = den.divide(gcd);
    }
  }

  static BigRational of(long value) {
    return new BigRational(BigInteger.valueOf(value), BigInteger.ONE);
  }

  /** A decimal literal such as {@code 12}, {@code 0.25} or {@code .5}, exactly. */
  static BigRational parseDecimal(String text) {
    BigDecimal value = new BigDecimal(text.startsWith(".") ? "0" + text : text);
    return value.scale() <= 0
        ? new BigRational(value.toBigIntegerExact(), BigInteger.ONE)
        : new BigRational(value.unscaledValue(), BigInteger.TEN.pow(value.scale()));
  }

  static BigRational of(BigDecimal value) {
    return value.scale() <= 0
        ? new BigRational(value.toBigInteger(), BigInteger.ONE)
        : new BigRational(value.unscaledValue(), BigInteger.TEN.pow(value.scale()));
  }

  boolean isInteger() {
    return den.equals(BigInteger.ONE);
  }

  int signum() {
    return num.signum();
  }

  BigRational add(BigRational o) {
    return new BigRational(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
  }

  BigRational subtract(BigRational o) {
    return add(o.negate());
  }

  BigRational multiply(BigRational o) {
    return new BigRational(num.multiply(o.num), den.multiply(o.den));
  }

  BigRational divide(BigRational o) {
    return new BigRational(num.multiply(o.den), den.multiply(o.num));
  }

  BigRational negate() {
    return new BigRational(num.negate(), den);
  }

  BigRational pow(int exponent) {
    BigRational base = exponent < 0 ? ONE.divide(this) : this;
    int n = Math.abs(exponent);
    return new BigRational(base.num.pow(n), base.den.pow(n));
  }

  /** Bits needed to write this number down: how costly further arithmetic on it is. */
  long bits() {
    return (long) num.bitLength() + den.bitLength();
  }

  BigDecimal toBigDecimal(MathContext context) {
    return new BigDecimal(num).divide(new BigDecimal(den), context);
  }

  /** Rounded to {@code places} decimal places, half to even, as a float would be rounded for comparison. */
  BigDecimal round(int places) {
    return new BigDecimal(num).divide(new BigDecimal(den), places, RoundingMode.HALF_EVEN);
  }

  @Override
  public int compareTo(BigRational o) {
    return num.multiply(o.den).compareTo(o.num.multiply(den));
  }

  @Override
  public String toString() {
    return isInteger() ? num.toString() : num + "/" + den;
  }
}
