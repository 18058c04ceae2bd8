package dev.gym4j.environments.inverse_if;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.RubricScores;
import dev.gym4j.judge.TextPicks;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Inverse IF (NeMo Gym's inverse_if): each rubric criterion of a task is judged PASS or FAIL by an LLM judge
 * with the task's own prompt template and system prompt (the config's defaults where a task has none); the
 * criterion scores (1 or 0) are aggregated by {@code aggregation_mode} (mean, min, max, all, any, weighted).
 */
@Implementation("inverse_if")
public final class InverseIf extends ResourcesServer {
  private static final Pattern FENCED = Pattern.compile("```(?:json)?\\s*(\\{.*?\\})\\s*```", Pattern.DOTALL);
  private static final Pattern RESULT_OBJECT = Pattern.compile("\\{[^{}]*\"result\"\\s*:\\s*\"(PASS|FAIL)\"[^{}]*\\}",
      Pattern.CASE_INSENSITIVE);

  /** One criterion's verdict: PASS or FAIL, and the judge's explanation. */
  record Verdict(String result, String explanation) {}

  private static final Verdict FAIL = new Verdict("FAIL", "");

  private Judge judge;
  private RubricScores mode;
  private String defaultTemplate;
  private String defaultSystemPrompt;

  @Override
  protected void start() {
    judge = Judge.from(context());
    mode = RubricScores.from(context());
    defaultTemplate = context().requiredString("default_judge_prompt_template");
    PromptTemplate.of(defaultTemplate);
    defaultSystemPrompt = context().requiredString("default_judge_system_prompt");
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String generated = TextPicks.withoutThinking(TextPicks.lastAssistantTurn(request.json().path("response").path("output")));
    JsonNode metadata = request.field("metadata");
    String prompt = orMetadata(text(request.field("prompt")), metadata, "prompt");
    String reference = orMetadata(text(request.field("reference_response")), metadata, "reference_response");
    JsonNode rubric = request.field("rubric");
    if (!rubric.isArray() || rubric.isEmpty()) {
      rubric = metadata.path("rubric").isArray() ? metadata.get("rubric") : Json.array();
    }
    String templateText = text(request.field("judge_prompt_template"));
    PromptTemplate template;
    try {
      template = PromptTemplate.of(templateText.isEmpty() ? defaultTemplate : templateText);
    } catch (ConfigException e) {
      throw new FieldError(List.of("judge_prompt_template"), e.getMessage());
    }
    String system = text(request.field("judge_system_prompt"));
    system = system.isEmpty() ? defaultSystemPrompt : system;

    // one criterion after another, so that each judge call has its place in the recorded order (replay)
    ArrayNode evaluations = Json.array();
    List<Double> scores = new ArrayList<>();
    for (JsonNode item : rubric) {
      String criteria = item.path("criteria").isString() ? item.get("criteria").stringValue() : "";
      String judgePrompt;
      try {
        judgePrompt = template.render(Map.of("prompt", prompt, "model_response", generated,
            "standard_response", reference, "criteria", criteria));
      } catch (IllegalArgumentException e) {
        throw new FieldError(List.of("judge_prompt_template"), e.getMessage());
      }
      JudgeOutcome<Verdict> outcome = judge.ask(system, judgePrompt, InverseIf::verdict);
      Verdict verdict = outcome.orThrow(FAIL);
      double score = verdict.result().equals("PASS") ? 1.0 : 0.0;
      scores.add(score);
      evaluations.addObject().put("criterion_id", item.path("id").isString() ? item.get("id").stringValue() : "")
          .put("criteria", criteria).put("judge_prompt", judgePrompt).put("judge_response", judgeText(outcome))
          .put("verdict", verdict.result()).put("explanation", verdict.explanation()).put("score", score);
    }
    long passed = scores.stream().filter(RubricScores::passes).count();
    // NeMo Gym's weighted mode is the mean here: Inverse IF's rubric items carry no weights
    double reward = mode.aggregate(scores, java.util.Collections.nCopies(scores.size(), 1.0));
    return Verification.of(reward).with("prompt", prompt).with("generated_response", generated)
        .with("reference_response", reference).with("rubric_evaluations", evaluations)
        .with("aggregation_mode", mode.label()).with("num_passed", (int) passed).with("num_total", scores.size());
  }

  private static String judgeText(JudgeOutcome<Verdict> outcome) {
    return outcome instanceof JudgeOutcome.Verdict<Verdict> v ? TextPicks.withoutThinking(v.text()) : "";
  }

  /**
   * NeMo Gym's three ways to read a verdict, in order: a fenced JSON block, a JSON object with a
   * {@code "result"} of PASS or FAIL, a PASS or FAIL in the last five lines. None of them is no verdict
   * (NeMo Gym defaults to FAIL; gym4j fails the call as judge_unparseable unless {@code judge_unparseable: zero}).
   */
  static Optional<Verdict> verdict(String rawText) {
    String text = TextPicks.withoutThinking(rawText);
    Matcher fenced = FENCED.matcher(text);
    if (fenced.find()) {
      Optional<Verdict> parsed = fromJson(fenced.group(1));
      if (parsed.isPresent()) {
        return parsed;
      }
    }
    Matcher object = RESULT_OBJECT.matcher(text);
    if (object.find()) {
      Optional<Verdict> parsed = fromJson(object.group());
      if (parsed.isPresent()) {
        return parsed;
      }
    }
    String[] lines = PythonText.strip(text).split("\n", -1);
    for (int i = lines.length - 1; i >= Math.max(0, lines.length - 5); i--) {
      String upper = PythonText.strip(lines[i]).toUpperCase(Locale.ROOT);
      if (upper.contains("PASS")) {
        return Optional.of(new Verdict("PASS", ""));
      }
      if (upper.contains("FAIL")) {
        return Optional.of(FAIL);
      }
    }
    return Optional.empty();
  }

  private static Optional<Verdict> fromJson(String json) {
    JsonNode parsed;
    try {
      parsed = Json.parse(json);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
    if (!parsed.isObject() || !(parsed.path("result").isString() || parsed.path("result").isMissingNode())) {
      return Optional.empty();
    }
    String result = PythonText.strip(parsed.path("result").asString("").toUpperCase(Locale.ROOT));
    JsonNode explanation = parsed.path("explanation");
    return result.equals("PASS") || result.equals("FAIL")
        ? Optional.of(new Verdict(result, explanation.isString() ? explanation.stringValue() : ""))
        : Optional.empty();
  }

  private static String orMetadata(String value, JsonNode metadata, String key) {
    return !value.isEmpty() || !metadata.path(key).isString() ? value : metadata.get(key).stringValue();
  }

  private static String text(JsonNode value) {
    return value.isString() ? value.stringValue() : "";
  }
}
