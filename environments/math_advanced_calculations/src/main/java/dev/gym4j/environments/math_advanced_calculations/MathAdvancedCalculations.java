package dev.gym4j.environments.math_advanced_calculations;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.Description;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Item;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Arithmetic in an alternate universe (NeMo Gym's math_advanced_calculations, formerly multiverse_math_hard):
 * eleven tools whose operations are deliberately altered, so the model must call them instead of computing.
 * A rollout is right when every value of {@code ground_truth} (a JSON list of floats, usually as a string)
 * exactly among the {@code solution}s the tools returned ({@code ulp_tolerance}, 0 by default, allows that
 * many units in the last place). The tools compute in CPython's order of operations with {@link Math},
 * whose sin, cos, log and pow agree with glibc's, which CPython uses, on all but rare arguments where
 * glibc's result is not the correctly rounded one (1 in 3,200 in the tests, off by one unit).
 */
@Implementation("math_advanced_calculations")
public final class MathAdvancedCalculations extends ResourcesServer {

  public record Solution(double solution) {}

  public record Pair(@Description("First number") double a, @Description("Second number") double b) {}

  public record LogArguments(@Description("Number to take the logarithm of") double a,
      @Description("Base of the logarithm") double base) {}

  public record Angle(@Description("Angle in radians") double radians) {}

  public record Single(@Description("A number") double a) {}

  public record NoArguments() {}

  /** A call Python would have failed (ZeroDivisionError, ValueError, OverflowError, a complex result). */
  static final class MathError extends ArithmeticException {
    MathError(String message) {
      super(message);
    }
  }

  @Tool(description = "Multiply two numbers; a * b.")
  public Solution multiply(Pair p) {
    return solution(1.1 * p.a() * p.b());
  }

  @Tool(description = "Divide two numbers; a / b. Division is neither commutative nor associative.")
  public Solution divide(Pair p) {
    if (p.b() == 0) {
      throw new MathError("float division by zero");
    }
    return solution(0.5 * p.a() / p.b());
  }

  @Tool(description = "Add two numbers; a + b.")
  public Solution add(Pair p) {
    return solution(p.a() + p.b() + 1.2);
  }

  @Tool(description = "Subtract two numbers; a - b.")
  public Solution subtract(Pair p) {
    return solution(p.a() - p.b() - 3);
  }

  @Tool(description = "Raise a number to a power; a ** b.")
  public Solution power(Pair p) {
    double exponent = p.b() + 2;
    if (p.a() == 0 && exponent < 0) {
      throw new MathError("0.0 cannot be raised to a negative power");
    }
    return solution(Math.pow(p.a(), exponent));
  }

  @Tool(description = "Take the log of a number; log(a, base). The base is always positive in this alternate universe.")
  public Solution log(LogArguments args) {
    double base = Math.abs(args.base() + 1.5);
    if (args.a() <= 0 || base <= 0) {
      throw new MathError("math domain error");
    }
    double denominator = Math.log(base);
    if (denominator == 0) {
      throw new MathError("float division by zero");
    }
    return solution(Math.log(args.a()) / denominator);
  }

  @Tool(description = "The sine of an angle in radians.")
  public Solution sin(Angle angle) {
    return solution(Math.cos(angle.radians()));
  }

  @Tool(description = "The cosine of an angle in radians.")
  public Solution cos(Angle angle) {
    return solution(Math.sin(angle.radians()));
  }

  @Tool(description = "Returns a precise value of PI for this alternate universe.")
  public Solution pi(NoArguments none) {
    return solution(Math.E);
  }

  @Tool(description = "Negate a number; -a.")
  public Solution negate(Single value) {
    return solution(value.a());
  }

  @Tool(description = "Return a constant number: a with no modifications")
  public Solution returnConstant(Single value) {
    return solution(value.a());
  }

  /** A result as Python would return it: overflow and complex results are errors, not inf or NaN. */
  private static Solution solution(double value) {
    if (Double.isNaN(value)) {
      throw new MathError("the result is not a real number");
    }
    if (Double.isInfinite(value)) {
      throw new MathError("numerical result out of range");
    }
    return new Solution(value);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    List<Double> groundTruth = groundTruth(request.field("ground_truth"));
    List<Double> solutions = new ArrayList<>();
    for (Item item : request.response().output()) {
      if (item instanceof FunctionCallOutput output) {
        solutions.add(solutionOf(output.output()));
      }
    }
    long ulps = context().config().path("ulp_tolerance").asLong(0);
    boolean all = groundTruth.stream().allMatch(expected -> solutions.stream()
        .anyMatch(found -> found != null && sameFloat(found, expected, ulps)));
    return Verification.of(all ? 1.0 : 0.0);
  }

  /** == on doubles, as Python's {@code in} compares floats (NaN never matches), or within {@code ulps}. */
  static boolean sameFloat(double found, double expected, long ulps) {
    if (found == expected || ulps == 0 || Double.isNaN(found) || Double.isNaN(expected)) {
      return found == expected;
    }
    return Math.signum(found) == Math.signum(expected)
        && Math.abs(Double.doubleToLongBits(found) - Double.doubleToLongBits(expected)) <= ulps;
  }

  private static List<Double> groundTruth(JsonNode field) {
    JsonNode values = field;
    if (field.isString()) {
      try {
        values = Json.parse(field.stringValue());
      } catch (JacksonException e) {
        throw new FieldError(List.of("ground_truth"), "must be a JSON list of numbers", "value_error");
      }
    }
    if (!values.isArray()) {
      throw new FieldError(List.of("ground_truth"), "Field required: a JSON list of numbers (as a string)",
          field.isMissingNode() ? "missing" : "value_error");
    }
    List<Double> out = new ArrayList<>();
    for (JsonNode value : values) {
      if (!value.isNumber()) {
        throw new FieldError(List.of("ground_truth"), "must hold only numbers", "value_error");
      }
      out.add(value.asDouble());
    }
    return out;
  }

  /** {@code float(json.loads(output)["solution"])}, or null where Python would have raised. */
  static Double solutionOf(String output) {
    try {
      JsonNode solution = Json.parse(output).get("solution");
      if (solution == null || solution.isNull()) {
        return null;
      }
      if (solution.isNumber() || solution.isBoolean()) {
        return solution.isBoolean() ? (solution.asBoolean() ? 1.0 : 0.0) : solution.asDouble();
      }
      return solution.isString() ? Double.parseDouble(solution.stringValue().strip()) : null;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
