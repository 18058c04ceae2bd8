package dev.gym4j.environments.ugphysics_judge;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.environments.math_with_autograder.SinglePassMathJudge;
import dev.gym4j.judge.VerdictParser;
import dev.gym4j.math.Verdict;
import dev.gym4j.metrics.AggregateMetrics;
import dev.gym4j.metrics.PassMajority;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * Undergraduate physics answers (NeMo Gym's ugphysics_judge): the math verifier first, then one call to a
 * TRUE/FALSE equivalence judge that also sees the row's reference {@code solution}. The verdict follows
 * {@code ## Equivalence Judgement} then TRUE or FALSE, else the last standalone TRUE or FALSE (any case);
 * a text with neither fails the rollout (NeMo Gym records no verdict and scores 0).
 */
@Implementation("ugphysics_judge")
public final class UgPhysicsJudge extends SinglePassMathJudge {
  private static final Pattern HEADER = Pattern.compile("##\\s*Equivalence\\s*Judgement\\s*\\n\\s*(TRUE|FALSE)",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern WORD = Pattern.compile("\\b(TRUE|FALSE)\\b", Pattern.CASE_INSENSITIVE);
  static final String DEFAULT_PROMPT = """
      Decide whether a student's final answer to a physics problem is equivalent to the reference answer. \
      Use the reference solution to understand the problem; equivalent forms, rounding within the \
      precision given and different notation are fine, a different value or a missing part is not.

      Problem: {problem}

      Reference solution: {solution}

      Reference answer: {expected_answer}

      Student's answer: {generation}

      Explain briefly, then end with:
      ## Equivalence Judgement
      TRUE or FALSE""";

  /**
   * NeMo Gym's ugphysics metrics ({@code _ugphysics_score_fn}, {@code compute_metrics}): the pass@k family of
   * {@code symbolic_accuracy} (the library reward) and {@code judge_accuracy} (the reward), majority@k over
   * {@code extracted_verdict}, and the same per {@code subject}.
   */
  static final PassMajority.Scores SCORES = row -> Map.of("symbolic_accuracy",
      row.path("library_reward").asDouble(0), "judge_accuracy", row.path("reward").asDouble(0));
  private static final String ANSWER = "extracted_verdict";

  @Override
  protected AggregateMetrics.Custom metrics() {
    return PassMajority.metrics(SCORES, ANSWER, "subject");
  }

  @Override
  protected String defaultPrompt() {
    return DEFAULT_PROMPT;
  }

  @Override
  protected Map<String, String> fields(VerifyRequest request, String question, String expected, String text,
      Verdict library) {
    JsonNode solution = request.field("solution");
    return Map.of("problem", question, "solution", solution.isString() ? solution.stringValue() : "",
        "expected_answer", expected, "generation", text);
  }

  @Override
  protected VerdictParser<Boolean> parser() {
    return UgPhysicsJudge::judgement;
  }

  @Override
  protected Verification decorate(Verification verification, boolean libraryMatched, Boolean judged) {
    boolean correct = judged != null ? judged : libraryMatched;
    return verification.with("extracted_verdict", correct ? "TRUE" : "FALSE");
  }

  /** NeMo Gym's parse_judgement (resources_servers/ugphysics_judge/app.py). */
  static Optional<Boolean> judgement(String text) {
    Matcher header = HEADER.matcher(text);
    if (header.find()) {
      return Optional.of(header.group(1).equalsIgnoreCase("TRUE"));
    }
    Matcher word = WORD.matcher(text);
    String last = null;
    while (word.find()) {
      last = word.group(1);
    }
    return last == null ? Optional.empty() : Optional.of(last.equalsIgnoreCase("TRUE"));
  }
}
