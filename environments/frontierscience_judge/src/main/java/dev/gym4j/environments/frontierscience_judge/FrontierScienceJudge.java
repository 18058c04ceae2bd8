package dev.gym4j.environments.frontierscience_judge;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.config.ConfigException;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.TextPicks;
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
 * FrontierScience (NeMo Gym's frontierscience_judge): one judge call per answer. {@code judge_mode: olympiad}
 * reads the judge's last {@code Judgement: YES|NO} (YES is 1); {@code research} reads a rubric score
 * ({@code Score: 7/10}, {@code 7 out of 10}, {@code FINAL_SCORE[7] / MAX_POSSIBLE_SCORE[10]}, {@code Score: 7})
 * on the last line that has one, 1 at {@code rubric_pass_score_threshold} or above, and falls back on the
 * Judgement line when there is no score. A judge answer with neither fails the rollout (judge_unparseable).
 */
@Implementation("frontierscience_judge")
public final class FrontierScienceJudge extends ResourcesServer {
  private static final String NUMBER = "([+-]?(?:\\d+(?:\\.\\d+)?|\\.\\d+))";
  private static final Pattern JUDGEMENT = Pattern.compile("Judgement:\\s*(YES|NO)", Pattern.CASE_INSENSITIVE);
  private static final Pattern BRACKETED = Pattern.compile("(?:final[_\\s-]*)?score\\s*\\[\\s*" + NUMBER
      + "\\s*\\]\\s*/\\s*(?:max[_\\s-]*possible[_\\s-]*)?score\\s*\\[\\s*" + NUMBER + "\\s*\\]",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern DENOMINATED = Pattern.compile(NUMBER + "\\s*(?:/|out\\s+of)\\s*" + NUMBER,
      Pattern.CASE_INSENSITIVE);
  private static final Pattern LABELED = Pattern.compile("(?:final\\s+)?score\\s*[:=]\\s*" + NUMBER,
      Pattern.CASE_INSENSITIVE);

  /** What the judge said: the last Judgement (or null) and, in research mode, the rubric score (or null). */
  record Grade(String verdict, Double score) {}

  private Judge judge;
  private PromptTemplate template;
  private boolean research;
  private double threshold;
  private double maxScore;

  @Override
  protected void start() {
    ObjectNode config = context().config();
    judge = Judge.from(context());
    template = PromptTemplate.configuredOr(context(), "judge_prompt_path", "prompts/judge.yaml");
    String mode = config.path("judge_mode").asString("olympiad");
    if (!mode.equals("olympiad") && !mode.equals("research")) {
      throw new ConfigException(context().path("judge_mode") + " must be olympiad or research, got " + mode);
    }
    research = mode.equals("research");
    threshold = config.path("rubric_pass_score_threshold").asDouble(7.0);
    maxScore = config.path("rubric_max_score").asDouble(10.0);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String raw = TextPicks.lastAssistantMessage(request.json().path("response").path("output"));
    boolean open = raw.contains("<think>") || raw.contains("<thinking>");
    boolean closed = raw.contains("</think>") || raw.contains("</thinking>");
    // a reasoning trace that never closed was cut off: no answer (NeMo Skills' parse_reasoning)
    String generation = open && !closed ? "" : TextPicks.withoutThinking(raw);
    String question = text(request.field("question"));
    String expected = text(request.field("expected_answer"));
    String rubric = text(request.field("rubric"));
    String prompt = template.render(Map.of("question", question, "expected_answer", expected,
        "rubric", rubric.isEmpty() ? expected : rubric, "generation", generation));

    JudgeOutcome<Grade> outcome = judge.ask(prompt, research ? this::researchGrade : FrontierScienceJudge::olympiad);
    Grade grade = outcome.orThrow();
    String judgeText = ((JudgeOutcome.Verdict<Grade>) outcome).text();
    String verdict = grade.verdict();
    double reward;
    Double normalized = null;
    if (research && grade.score() != null) {
      normalized = Math.max(0.0, Math.min(grade.score(), maxScore)) / maxScore;
      reward = grade.score() >= threshold ? 1.0 : 0.0;
      verdict = verdict != null ? verdict : reward == 1.0 ? "YES" : "NO";
    } else {
      reward = "YES".equals(verdict) ? 1.0 : 0.0;
    }
    return Verification.of(reward).with("extracted_answer", generation.isEmpty() ? null : generation)
        .with("expected_answer", expected).with("verdict", verdict).with("judge_output", judgeText)
        .with("rubric_score", grade.score()).with("rubric_score_normalized", normalized)
        .with("invalid_judge_response", research && grade.score() == null)
        .with("judge_evaluations", dev.gym4j.json.Json.array().add(outcome.evaluation().orElseThrow()));
  }

  /** Olympiad mode: the last Judgement; none is no verdict. */
  static Optional<Grade> olympiad(String text) {
    String verdict = judgement(text);
    return verdict == null ? Optional.empty() : Optional.of(new Grade(verdict, null));
  }

  /** Research mode: the rubric score and the Judgement; neither is no verdict. */
  private Optional<Grade> researchGrade(String text) {
    Double score = rubricScore(text, maxScore);
    String verdict = judgement(text);
    return score == null && verdict == null ? Optional.empty() : Optional.of(new Grade(verdict, score));
  }

  /** The last {@code Judgement: YES|NO}, upper-cased; null when there is none. */
  static String judgement(String text) {
    Matcher m = JUDGEMENT.matcher(text);
    String last = null;
    while (m.find()) {
      last = m.group(1).toUpperCase(java.util.Locale.ROOT);
    }
    return last;
  }

  /**
   * The score on the last line mentioning "score" that has one, on {@code max} points: a fraction is scaled,
   * a bare {@code Score: n} is taken as it is; a fraction over 0 or less is no score at all (NeMo Gym's rule).
   */
  static Double rubricScore(String text, double max) {
    java.util.List<String> lines = PythonText.splitLines(text);
    for (int i = lines.size() - 1; i >= 0; i--) {
      String line = lines.get(i);
      if (!line.toLowerCase(java.util.Locale.ROOT).contains("score")) {
        continue;
      }
      for (Pattern fraction : new Pattern[] {BRACKETED, DENOMINATED}) {
        Matcher m = fraction.matcher(line);
        if (m.find()) {
          double denominator = Double.parseDouble(m.group(2));
          return denominator <= 0 ? null : Double.parseDouble(m.group(1)) / denominator * max;
        }
      }
      Matcher labeled = LABELED.matcher(line);
      if (labeled.find()) {
        return Double.parseDouble(labeled.group(1));
      }
    }
    return null;
  }

  private static String text(JsonNode value) {
    return value.isString() ? value.stringValue() : "";
  }

  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    PassMajority.Scores scores = row -> {
      Map<String, Double> named = new java.util.LinkedHashMap<>();
      named.put("accuracy", row.path("reward").asDouble(0));
      if (row.path("rubric_score_normalized").isNumber()) {
        named.put("rubric_score", row.get("rubric_score_normalized").asDouble());
      }
      return named;
    };
    return AggregateMetrics.ofRequest(request, PassMajority.metrics(scores, "extracted_answer", "subject"));
  }
}
