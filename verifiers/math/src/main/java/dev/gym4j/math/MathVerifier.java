package dev.gym4j.math;

import java.time.Duration;
import java.util.List;

import dev.gym4j.math.AnswerExtractor.Candidate;

/**
 * Decides whether a model's answer equals the expected one, as Hugging Face's math-verify does: the gold
 * answer is read as LaTeX, the prediction is found in free text (boxed answers, "final answer is", formulas,
 * plain numbers), and the two compare as mathematical objects. Thread-safe; every call is bounded by the
 * options' budget and never throws.
 *
 * <pre>{@code
 * MathVerifier verifier = new MathVerifier(MathVerifier.Options.DEFAULTS);
 * Verdict verdict = verifier.verify("\\boxed{\\frac{1}{2}}", "so the answer is $0.5$");
 * verdict.outcome();   // MATCH
 * }</pre>
 */
public final class MathVerifier {
  /**
   * How to compare: the time budget per verification; the decimal places floats are rounded to before
   * comparing (math-verify's {@code float_rounding}); and, when above 0, a relative tolerance that replaces
   * both exact and rounded comparison of numbers.
   */
  public record Options(Duration budget, int floatRounding, double relativeTolerance) {
    public static final Options DEFAULTS = new Options(Duration.ofSeconds(1), 6, 0);

    public Options {
      if (budget.isNegative() || budget.isZero()) {
        throw new IllegalArgumentException("budget must be positive");
      }
      if (floatRounding < 0 || relativeTolerance < 0) {
        throw new IllegalArgumentException("floatRounding and relativeTolerance cannot be negative");
      }
    }

    public Options withBudget(Duration value) {
      return new Options(value, floatRounding, relativeTolerance);
    }

    public Options withRelativeTolerance(double value) {
      return new Options(budget, floatRounding, value);
    }
  }

  private final Options options;

  public MathVerifier(Options options) {
    this.options = options;
  }

  public MathVerifier() {
    this(Options.DEFAULTS);
  }

  /**
   * Compares {@code prediction}, free model text, with {@code gold}, LaTeX (math-verify reads a gold answer
   * only through its LaTeX patterns, so it is usually given as {@code \boxed{…}}).
   */
  public Verdict verify(String gold, String prediction) {
    return verify(gold, prediction, Budget.ofNanos(options.budget().toNanos()));
  }

  Verdict verify(String gold, String prediction, Budget budget) {
    try {
      List<Candidate> golds = AnswerExtractor.extractLatex(gold, budget);
      List<Candidate> preds = AnswerExtractor.extractAny(prediction, budget);
      if (preds.isEmpty()) {
        return new Verdict(Verdict.Outcome.NO_MATCH, null, "no answer found in the prediction");
      }
      if (golds.isEmpty()) {
        return new Verdict(Verdict.Outcome.NO_MATCH, shown(preds.getFirst()), "no answer found in the gold text");
      }
      Equivalence equivalence = new Equivalence(options, budget);
      for (Candidate pred : preds) {
        for (Candidate g : golds) {
          if (matches(equivalence, g, pred)) {
            return new Verdict(Verdict.Outcome.MATCH, shown(pred), null);
          }
        }
      }
      return new Verdict(Verdict.Outcome.NO_MATCH, shown(preds.getFirst()), null);
    } catch (MathParser.TooLarge e) {
      return new Verdict(Verdict.Outcome.NO_MATCH, null, e.getMessage());
    } catch (Budget.Exhausted e) {
      // deterministic: the same answer is too large on every machine, so it is a wrong answer, not a failure
      return new Verdict(Verdict.Outcome.NO_MATCH, null, "too large to check within " + Budget.STEPS + " steps");
    } catch (Budget.Exceeded e) {
      return new Verdict(Verdict.Outcome.UNDECIDED, null, "undecided within " + options.budget().toMillis() + " ms");
    } catch (RuntimeException | StackOverflowError e) {
      // a verifier bug must not take a rollout down with it; say what happened instead
      return new Verdict(Verdict.Outcome.UNDECIDED, null, "verifier error: " + e);
    }
  }

  /**
   * Compares {@code prediction} with a dataset's expected answer, bare ({@code 32}, {@code \frac{1}{3}}) or
   * wrapped in {@code \(…\)} or {@code $…$}: as NeMo Gym's math environments do, the wrapper is stripped
   * and the rest boxed to serve as gold.
   */
  public Verdict verifyExpected(String expected, String prediction) {
    return verify("\\boxed{" + stripMathDelimiters(expected) + "}", prediction);
  }

  /** Removes one outer {@code \(…\)}, then one outer {@code $…$}. */
  public static String stripMathDelimiters(String answer) {
    String text = answer.strip();
    if (text.startsWith("\\(") && text.endsWith("\\)") && text.length() >= 4) {
      text = text.substring(2, text.length() - 2).strip();
    }
    if (text.startsWith("$") && text.endsWith("$") && text.length() > 1) {
      text = text.substring(1, text.length() - 1).strip();
    }
    return text;
  }

  private static boolean matches(Equivalence equivalence, Candidate gold, Candidate pred) {
    if (gold.value() == null || pred.value() == null) {
      return gold.value() == null && pred.value() == null && gold.text().equals(pred.text());
    }
    return equivalence.equal(gold.value(), pred.value());
  }

  /** How an answer is reported: a number as its value ({@code 2/4} as {@code 1/2}), anything else as parsed. */
  private static String shown(Candidate candidate) {
    if (candidate.value() == null) {
      return candidate.text();
    }
    try {
      Numeric value = new Evaluator(java.util.Map.of(), Budget.unlimited()).evaluate(candidate.value());
      if (value.isExact()) {
        return value.decimal() ? value.exact().toBigDecimal(Numeric.CONTEXT).stripTrailingZeros().toPlainString()
            : value.exact().toString();
      }
    } catch (ArithmeticException e) {
      // not a plain number
    }
    return candidate.value().toString();
  }
}
