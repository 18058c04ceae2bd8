package dev.gym4j.environments.math_with_autograder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.Yaml;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.VerdictParser;
import dev.gym4j.math.MathVerifier;
import dev.gym4j.math.Verdict;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * Hard math answers (NeMo Gym's math_with_autograder): the math verifier first; when it says no and
 * {@code should_use_judge} is set, one call to a Skills-style autograder that grades the model's raw last
 * {@code \boxed{…}} against the golden answer and ends with {@code \boxed{Correct}} or
 * {@code \boxed{Incorrect}} (the earlier one decides). No swap: the grader is one-directional. A judge that
 * fails or answers with neither label fails the rollout (NeMo Gym scores the latter 0).
 */
@Implementation("math_with_autograder")
public final class MathWithAutograder extends ResourcesServer {
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

  private MathVerifier verifier;
  private boolean useJudge;
  private Judge judge;
  private PromptTemplate system;
  private PromptTemplate user;

  @Override
  protected void start() {
    double seconds = context().config().path("library_verifier_timeout_seconds").asDouble(1.0);
    verifier = new MathVerifier(MathVerifier.Options.DEFAULTS.withBudget(Duration.ofMillis((long) (seconds * 1000))));
    useJudge = context().config().path("should_use_judge").asBoolean(true);
    if (useJudge) {
      judge = Judge.from(context());
    }
    JsonNode path = context().config().path("judge_prompt_path");
    JsonNode prompts = path.isString() ? Yaml.read(Path.of(path.stringValue())) : Json.object();
    user = prompts.path("user").isString() ? PromptTemplate.of(prompts.get("user").stringValue())
        : PromptTemplate.configured(context(), DEFAULT_PROMPT);
    system = prompts.path("system").isString() ? PromptTemplate.of(prompts.get("system").stringValue()) : null;
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String expected = requiredText(request, "expected_answer");
    String question = requiredText(request, "question");
    String text = request.response().outputTextParts();
    Verdict verdict = verifier.verifyExpected(expected, text);
    double libraryReward = verdict.matched() ? 1.0 : 0.0;
    if (verdict.matched() || !useJudge) {
      if (verdict.outcome() == Verdict.Outcome.UNDECIDED) {
        throw new UpstreamException(UpstreamException.Kind.TIMEOUT, "math_with_autograder: the library check was "
            + verdict.detail() + " and no judge is configured (should_use_judge: false)");
      }
      return result(libraryReward, expected, verdict.extractedAnswer(), libraryReward, null);
    }
    // the raw LaTeX the model boxed, not the verifier's normalized form, which can mangle sets and conditions
    String boxed = searchBoxed(text);
    String answer = boxed != null ? boxed : verdict.extractedAnswer() != null && !verdict.extractedAnswer().isEmpty()
        ? verdict.extractedAnswer() : text;
    Map<String, String> fields = Map.of("problem", question, "predicted_answer", answer, "expected_answer",
        expected);
    JudgeOutcome<String> outcome = judge.ask(system == null ? "" : system.render(fields), user.render(fields),
        VerdictParser.labels(CORRECT, INCORRECT));
    double reward = CORRECT.equals(outcome.orThrow()) ? 1.0 : 0.0;
    return result(reward, expected, verdict.extractedAnswer(), libraryReward,
        Json.array().add(outcome.evaluation().orElseThrow()));
  }

  private static Verification result(double reward, String expected, String extracted, double libraryReward,
      JsonNode evaluations) {
    return Verification.of(reward).with("expected_answer", expected).with("extracted_answer", extracted)
        .with("library_reward", libraryReward).with("judge_evaluations", evaluations);
  }

  private static String requiredText(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
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
