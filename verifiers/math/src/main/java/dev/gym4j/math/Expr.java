package dev.gym4j.math;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A parsed answer. Scalars are numbers, symbols, constants and operations on them; the rest are the
 * shapes an answer can take (sets, tuples, intervals, matrices, relations, plain words).
 */
sealed interface Expr {

  /** A number as written; {@code decimal} marks a decimal literal, which is compared after rounding. */
  record Num(BigRational value, boolean decimal) implements Expr {
    @Override
    public String toString() {
      return decimal ? value.toBigDecimal(java.math.MathContext.DECIMAL64).stripTrailingZeros().toPlainString()
          : value.toString();
    }
  }

  /** A variable such as {@code x} or {@code a_1}. */
  record Sym(String name) implements Expr {
    @Override
    public String toString() {
      return name;
    }
  }

  /** π, e or ∞. */
  enum Const implements Expr {
    PI("pi"), E("E"), INFINITY("oo");

    private final String text;

    Const(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** {@code + - * / ^} on two operands. */
  record Bin(char op, Expr left, Expr right) implements Expr {
    @Override
    public String toString() {
      return "(" + left + (op == '^' ? "**" : " " + op + " ") + right + ")";
    }
  }

  record Neg(Expr operand) implements Expr {
    @Override
    public String toString() {
      return "-" + operand;
    }
  }

  /** A named function: sin, cos, tan, ln, log (base 10, or a second argument as base), exp, abs, fact, sqrt. */
  record Fn(String name, List<Expr> args) implements Expr {
    @Override
    public String toString() {
      return name + args.stream().map(Object::toString).collect(Collectors.joining(", ", "(", ")"));
    }
  }

  /** {@code =}, {@code <}, {@code <=}, {@code >}, {@code >=} or {@code !=}. */
  record Rel(String op, Expr left, Expr right) implements Expr {
    @Override
    public String toString() {
      return left + " " + op + " " + right;
    }
  }

  /**
   * A chain of relations, {@code a < x < b} or {@code x = 5+5+1 = 11}: each link's left side is the previous
   * link's right side.
   */
  record And(List<Rel> links) implements Expr {
    @Override
    public String toString() {
      return links.stream().map(Object::toString).collect(Collectors.joining(" & "));
    }
  }

  /** A union of sets, {@code (1, 2) \cup (3, 4)}. */
  record Union(List<Expr> parts) implements Expr {
    @Override
    public String toString() {
      return parts.stream().map(Object::toString).collect(Collectors.joining(" U "));
    }
  }

  /** Elements in no order: {@code \{1, 2\}}, a bare {@code 1, 2}, or several boxed answers. */
  record SetOf(List<Expr> items) implements Expr {
    @Override
    public String toString() {
      return items.stream().map(Object::toString).collect(Collectors.joining(", ", "{", "}"));
    }
  }

  /** An ordered list: {@code (1, 2, 3)} or {@code [1, 2, 3]}. */
  record TupleOf(List<Expr> items) implements Expr {
    @Override
    public String toString() {
      return items.stream().map(Object::toString).collect(Collectors.joining(", ", "(", ")"));
    }
  }

  /** An interval whose ends may be open or closed. */
  record Interval(Expr low, Expr high, boolean lowOpen, boolean highOpen) implements Expr {
    @Override
    public String toString() {
      return (lowOpen ? "(" : "[") + low + ", " + high + (highOpen ? ")" : "]");
    }
  }

  record Matrix(List<List<Expr>> rows) implements Expr {
    @Override
    public String toString() {
      return "Matrix(" + rows + ")";
    }
  }

  /** A word answer, such as the choice in {@code \text{(B)}}, compared lower-cased. */
  record Text(String value) implements Expr {
    @Override
    public String toString() {
      return value;
    }
  }
}
