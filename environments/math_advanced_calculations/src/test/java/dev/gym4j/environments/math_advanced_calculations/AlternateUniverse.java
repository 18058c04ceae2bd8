package dev.gym4j.environments.math_advanced_calculations;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.environments.math_advanced_calculations.MathAdvancedCalculations.Angle;
import dev.gym4j.environments.math_advanced_calculations.MathAdvancedCalculations.LogArguments;
import dev.gym4j.environments.math_advanced_calculations.MathAdvancedCalculations.Pair;
import dev.gym4j.environments.math_advanced_calculations.MathAdvancedCalculations.Single;

/**
 * The ground truth of a prompt such as "Get me the values for (9.0 - 9.0), sin(5.0), and pi using only the
 * given tools.": each expression evaluated as Python parses it (** binds tighter than unary minus, which
 * binds tighter than * and /), with every operator and function replaced by its alternate-universe tool.
 * NeMo Gym's recorded rollouts carry no ground truth; this is how it is derived for them.
 */
final class AlternateUniverse {
  private static final MathAdvancedCalculations TOOLS = new MathAdvancedCalculations();
  private final String text;
  private int pos;

  private AlternateUniverse(String text) {
    this.text = text;
  }

  static List<Double> groundTruth(String prompt) {
    String list = prompt.replaceFirst("^Get me the values? for ", "").replaceFirst(" using only the given tools\\.$", "");
    List<Double> values = new ArrayList<>();
    for (String expression : splitTopLevel(list)) {
      AlternateUniverse parser = new AlternateUniverse(expression.strip().replaceFirst("^and ", ""));
      values.add(parser.sum());
      if (parser.pos != parser.text.length()) {
        throw new IllegalArgumentException("cannot read " + expression);
      }
    }
    return values;
  }

  private static List<String> splitTopLevel(String list) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (c == ',' && depth == 0) {
        parts.add(list.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(list.substring(start));
    return parts;
  }

  private double sum() {
    double left = product();
    while (true) {
      if (take(" + ")) {
        left = TOOLS.add(new Pair(left, product())).solution();
      } else if (take(" - ")) {
        left = TOOLS.subtract(new Pair(left, product())).solution();
      } else {
        return left;
      }
    }
  }

  private double product() {
    double left = unary();
    while (true) {
      if (take(" * ")) {
        left = TOOLS.multiply(new Pair(left, unary())).solution();
      } else if (take(" / ")) {
        left = TOOLS.divide(new Pair(left, unary())).solution();
      } else {
        return left;
      }
    }
  }

  private double unary() {
    if (take("-")) {
      return TOOLS.negate(new Single(unary())).solution();
    }
    return power();
  }

  private double power() {
    double base = atom();
    if (take(" ** ")) {
      return TOOLS.power(new Pair(base, unary())).solution();
    }
    return base;
  }

  private double atom() {
    if (take("(")) {
      double value = sum();
      expect(")");
      return value;
    }
    if (take("pi")) {
      return TOOLS.pi(new MathAdvancedCalculations.NoArguments()).solution();
    }
    for (String function : List.of("sin(", "cos(", "log(")) {
      if (take(function)) {
        double argument = sum();
        double result;
        if (function.equals("log(")) {
          expect(", ");
          result = TOOLS.log(new LogArguments(argument, sum())).solution();
        } else {
          result = function.equals("sin(") ? TOOLS.sin(new Angle(argument)).solution()
              : TOOLS.cos(new Angle(argument)).solution();
        }
        expect(")");
        return result;
      }
    }
    int start = pos;
    while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
      pos++;
    }
    return Double.parseDouble(text.substring(start, pos));
  }

  private boolean take(String token) {
    if (text.startsWith(token, pos)) {
      pos += token.length();
      return true;
    }
    return false;
  }

  private void expect(String token) {
    if (!take(token)) {
      throw new IllegalArgumentException("expected '" + token + "' at " + pos + " in " + text);
    }
  }
}
