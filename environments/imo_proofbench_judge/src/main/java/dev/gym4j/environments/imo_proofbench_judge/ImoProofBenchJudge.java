package dev.gym4j.environments.imo_proofbench_judge;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.TextPicks;
import dev.gym4j.math.MathVerifier;
import dev.gym4j.metrics.AggregateMetrics;
import dev.gym4j.metrics.PassMajority;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * IMO ProofBench (NeMo Gym's imo_proofbench_judge, after NeMo Skills): the last {@code \boxed{}} of the answer
 * (reasoning removed) is compared with {@code expected_answer} symbolically; equal is 1 without a judge, no box
 * is 0 without a judge; otherwise a judge grades it with the problem, reference solution and rubric, and its
 * verdict is read with Skills' priority: {@code Judgement: Yes|No}, then {@code \boxed{Correct|Incorrect}},
 * then {@code <points>N out of 7</points>} with N at least 6.
 */
@Implementation("imo_proofbench_judge")
public final class ImoProofBenchJudge extends ResourcesServer {
  static final int PASS_THRESHOLD = 6;
  private static final Pattern JUDGEMENT = Pattern.compile("\\*{0,2}Judgement\\*{0,2}\\s*:", Pattern.CASE_INSENSITIVE);
  private static final Pattern BOXED_VERDICT = Pattern.compile("\\\\boxed\\s*\\{\\s*(Correct|Incorrect)\\s*\\}",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern POINTS = Pattern.compile("<points>\\s*(\\d+)\\s*out of 7\\s*</points>",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PERCENTAGE = Pattern.compile("^(\\d+\\.?\\d*)(?:\\\\%|%)$");
  private static final Pattern TEXT_LITERAL = Pattern.compile("[a-zA-Z ,]+");
  private static final Pattern LATEX_ENV = Pattern.compile("\\$.*\\$|\\\\\\(.*\\\\\\)|\\\\\\[.*\\\\\\]|\\\\boxed\\{",
      Pattern.DOTALL);
  static final String NO_ANSWER = "Reasoning: No answer was provided.\nJudgement: No";
  static final String IDENTICAL = "Reasoning: The two answers are identical.\nJudgement: Yes";

  private final MathVerifier math = new MathVerifier();
  private Judge judge;
  private PromptTemplate template;

  @Override
  protected void start() {
    judge = Judge.from(context());
    template = PromptTemplate.configuredOr(context(), "judge_prompt_path", "prompts/judge.yaml");
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String text = TextPicks.withoutThinking(TextPicks.lastAssistantMessage(request.json().path("response").path("output")));
    String extracted = text.isEmpty() ? null : searchBoxed(text);
    if (extracted == null || extracted.isEmpty()) {
      // Skills' prefill_judgement: no answer is graded No without asking the judge
      return fields(0.0, "", NO_ANSWER, null, 0.0, 0.0, 0.0);
    }
    // Python's str(None) when the row has no expected answer, as NeMo Gym compares it
    JsonNode expected = request.field("expected_answer");
    if (mathEqual(expected.isString() ? expected.stringValue() : "None", extracted)) {
      return fields(1.0, extracted, IDENTICAL, null, 1.0, 1.0, 0.0);
    }
    String prompt = template.render(Map.of("problem", text(request.field("problem")),
        "reference_solution", text(request.field("reference_solution")), "rubric", text(request.field("rubric")),
        "predicted_answer", extracted));
    JudgeOutcome<Boolean> outcome = judge.ask(prompt, ImoProofBenchJudge::verdict);
    boolean correct = outcome.orThrow();
    String judgeText = ((JudgeOutcome.Verdict<Boolean>) outcome).text();
    return fields(correct ? 1.0 : 0.0, extracted, judgeText, points(judgeText), correct ? 1.0 : 0.0, 0.0, 0.0)
        .with("judge_evaluations", dev.gym4j.json.Json.array().add(outcome.evaluation().orElseThrow()));
  }

  private static Verification fields(double reward, String extracted, String judgeOutput, Integer points,
      double judgeCorrect, double symbolic, double noScore) {
    return Verification.of(reward).with("extracted_answer", extracted).with("judge_output", judgeOutput)
        .with("judge_points", points).with("judge_correct", judgeCorrect).with("symbolic_correct", symbolic)
        .with("any_correct", reward).with("no_judge_score", noScore);
  }

  /** Skills' is_correct_judgement: Judgement: Yes/No, else \boxed{Correct|Incorrect}, else points >= 6. */
  static Optional<Boolean> verdict(String text) {
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Matcher judgement = JUDGEMENT.matcher(text);
    if (judgement.find()) {
      String rest = PythonText.strip(stripLeading(PythonText.strip(text.substring(judgement.end())), '*'))
          .toLowerCase(Locale.ROOT);
      if (rest.startsWith("yes")) {
        return Optional.of(true);
      }
      if (rest.startsWith("no")) {
        return Optional.of(false);
      }
    }
    Matcher boxed = BOXED_VERDICT.matcher(text);
    if (boxed.find()) {
      return Optional.of(boxed.group(1).equalsIgnoreCase("correct"));
    }
    Integer points = points(text);
    return points == null ? Optional.empty() : Optional.of(points >= PASS_THRESHOLD);
  }

  /** The first {@code <points>N out of 7</points>}; null when there is none. */
  static Integer points(String text) {
    Matcher m = POINTS.matcher(text);
    if (!m.find()) {
      return null;
    }
    try {
      return Integer.valueOf(m.group(1));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The contents of the last {@code \boxed{…}}, braces balanced; null when there is none. */
  static String searchBoxed(String text) {
    int start = text.lastIndexOf("\\boxed");
    if (start < 0) {
      return null;
    }
    int depth = 0;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        String boxed = text.substring(start, i + 1);
        return boxed.startsWith("\\boxed{") ? boxed.substring("\\boxed{".length(), boxed.length() - 1) : null;
      }
    }
    return null;
  }

  /**
   * NeMo Skills' math_equal as NeMo Gym calls it: a percentage and trailing dots or backslashes dropped, a
   * literal match ignoring spaces, two plain-text answers compared literally, else a symbolic comparison
   * (gym4j's math verifier standing in for math-verify, each side wrapped in {@code $…$} unless it has LaTeX).
   */
  boolean mathEqual(String gold, String predicted) {
    String gt = normalize(gold);
    String pred = normalize(predicted);
    if (gt.replace(" ", "").equals(pred.replace(" ", ""))) {
      return true;
    }
    if (TEXT_LITERAL.matcher(gt).matches() && TEXT_LITERAL.matcher(pred).matches()) {
      return false;
    }
    String wrappedGold = LATEX_ENV.matcher(gt).find() ? gt : "$" + gt + "$";
    String wrappedPred = LATEX_ENV.matcher(pred).find() ? pred : "$" + pred + "$";
    return math.verify(wrappedGold, wrappedPred).matched();
  }

  private static String normalize(String expr) {
    Matcher percent = PERCENTAGE.matcher(expr);
    String value = percent.matches() ? percent.group(1) : expr;
    int end = value.length();
    while (end > 0 && (value.charAt(end - 1) == '.' || value.charAt(end - 1) == '\\')) {
      end--;
    }
    return value.substring(0, end);
  }

  private static String stripLeading(String text, char c) {
    int i = 0;
    while (i < text.length() && text.charAt(i) == c) {
      i++;
    }
    return text.substring(i);
  }

  private static String text(JsonNode value) {
    return value.isString() ? value.stringValue() : "";
  }

  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    PassMajority.Scores scores = row -> {
      boolean symbolic = row.path("symbolic_correct").asDouble(0) >= 0.5;
      boolean judged = row.path("judge_correct").asDouble(0) >= 0.5;
      JsonNode points = row.path("judge_points");
      Map<String, Double> named = new LinkedHashMap<>();
      named.put("any_correct", symbolic || judged ? 1.0 : 0.0);
      named.put("symbolic_correct", symbolic ? 1.0 : 0.0);
      named.put("judge_correct", judged ? 1.0 : 0.0);
      for (int n : new int[] {7, 6, 1, 0}) {
        named.put("judge_score_" + n, points.isIntegralNumber() && points.asInt() == n ? 1.0 : 0.0);
      }
      return named;
    };
    return AggregateMetrics.ofRequest(request, new AggregateMetrics.Custom() {
      @Override
      public ObjectNode compute(List<List<JsonNode>> tasks) {
        ObjectNode metrics = PassMajority.of(tasks, scores, "extracted_answer");
        for (String field : List.of("category", "level")) {
          if (!tasks.isEmpty() && !tasks.getFirst().isEmpty() && tasks.getFirst().getFirst().has(field)) {
            metrics.setAll(PassMajority.subsets(tasks, field, scores, "extracted_answer"));
          }
        }
        return metrics;
      }

      @Override
      public ObjectNode keyMetrics(ObjectNode agentMetrics) {
        return PassMajority.keyMetrics(agentMetrics, true);
      }
    });
  }
}
