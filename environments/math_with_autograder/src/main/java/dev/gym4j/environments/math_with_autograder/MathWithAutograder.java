package dev.gym4j.environments.math_with_autograder;

import java.util.Map;

import dev.gym4j.judge.VerdictParser;
import dev.gym4j.math.Verdict;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;

/**
 * Hard math answers (NeMo Gym's math_with_autograder): the math verifier first, then one call to a
 * Skills-style autograder that grades the model's raw last {@code \boxed{…}} against the golden answer and
 * ends with {@code \boxed{Correct}} or {@code \boxed{Incorrect}} (the earlier one decides). No swap: the
 * grader is one-directional. An answer with neither label fails the rollout (NeMo Gym scores it 0).
 */
@Implementation("math_with_autograder")
public final class MathWithAutograder extends SinglePassMathJudge {
  static final String CORRECT = "\\boxed{Correct}";
  static final String INCORRECT = "\\boxed{Incorrect}";
  static final String DEFAULT_PROMPT = """
      You grade the final answer of a math solution against a golden answer. Only the final answer counts, \
      not the reasoning. It is correct only if it is mathematically equivalent to the golden answer \
      (equal values, equivalent expressions, the same set in any order); an incomplete, partly wrong or \
      missing answer is incorrect.

      Reason briefly inside <thinking></thinking>, then write exactly one of \\boxed{{Correct}} or \
      \\boxed{{Incorrect}} as the last line.

      Problem: {problem}
      Model Solution: {predicted_answer}
      Golden Answer: {expected_answer}""";

  @Override
  protected String defaultPrompt() {
    return DEFAULT_PROMPT;
  }

  @Override
  protected Map<String, String> fields(VerifyRequest request, String question, String expected, String text,
      Verdict library) {
    // the raw LaTeX the model boxed, not the verifier's normalized form, which can mangle sets and conditions
    String boxed = searchBoxed(text);
    String extracted = library.extractedAnswer();
    String answer = boxed != null ? boxed : extracted != null && !extracted.isEmpty() ? extracted : text;
    return Map.of("problem", question, "predicted_answer", answer, "expected_answer", expected);
  }

  @Override
  protected VerdictParser<Boolean> parser() {
    VerdictParser<String> labels = VerdictParser.labels(CORRECT, INCORRECT);
    return text -> labels.parse(text).map(CORRECT::equals);
  }

  /**
   * The raw contents of the last {@code \boxed{…}} (or, without any, the last {@code \fbox{…}}), braces
   * balanced; null when there is none or it does not close. NeMo Gym's _search_boxed, after NeMo Skills.
   */
  static String searchBoxed(String text) {
    int at = text.lastIndexOf("\\boxed");
    String prefix = "\\boxed{";
    if (at < 0) {
      at = text.lastIndexOf("\\fbox");
      prefix = "\\fbox{";
      if (at < 0) {
        return null;
      }
    }
    int open = 0;
    for (int i = at; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        open++;
      } else if (c == '}' && --open == 0) {
        String boxed = text.substring(at, i + 1);
        return boxed.startsWith(prefix) ? boxed.substring(prefix.length(), boxed.length() - 1) : null;
      }
    }
    return null;
  }
}
