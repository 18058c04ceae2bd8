package dev.gym4j.environments.equivalence_llm_judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.TextPicks;
import dev.gym4j.judge.VerdictParser;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A short answer compared with {@code expected_answer} by an LLM judge (NeMo Gym's equivalence_llm_judge,
 * which also serves hle, financebench and secque). The judge sees the question (the last user message), the
 * gold answer and the model's answer (its last message, or what a regex picks from it) and answers
 * {@code [[A=B]]} or {@code [[A!=B]]}; the earliest label decides. Optional: a second call with the answers
 * swapped ({@code check_twice_swap}), and for rows with {@code template_metadata.output_regex} a second
 * call with the whole answer when the picked part was judged different ({@code check_full_generation_on_fail}).
 * A judge that fails, or answers without a label, fails the rollout: NeMo Gym scores the latter 0.
 */
@Implementation("equivalence_llm_judge")
public final class EquivalenceLlmJudge extends ResourcesServer {
  static final String DEFAULT_PROMPT = """
      Decide whether a candidate answer says the same as a reference (GOLD) answer to a question.

      Judge the substance, not the wording: equal values in other notation, units or formulation are \
      equivalent; a candidate inside a GOLD range or set is equivalent; a candidate that misses, adds a \
      wrong, or changes any essential part of the GOLD is not. The GOLD is authoritative.

      Give your reasons briefly, then end with a blank line and exactly one of:
      [[A=B]] they are equivalent
      [[A!=B]] they are not equivalent

      QUESTION:
      {question}

      GOLD:
      {expected_answer}

      CANDIDATE:
      {generated_answer}""";

  private Judge judge;
  private PromptTemplate template;
  private String systemMessage;
  private String equal;
  private VerdictParser<String> labels;
  private Settings settings;

  /** NeMo Gym's keys and their defaults in its app.py (its config.yaml, like ours, sets some otherwise). */
  record Settings(String questionExtractRegex, String responseExtractRegex, String msgExtractionFailure,
      double rewardIfSwapFails, boolean usePerRecordRegex, Integer extractionLengthThreshold,
      boolean checkFullGenerationOnFail, double rewardIfFullGenerationSucceeds) {
    Settings {
      msgExtractionFailure = msgExtractionFailure == null ? "[NO VALID ANSWER EXTRACTED]" : msgExtractionFailure;
    }
  }

  @Override
  protected void start() {
    ObjectNode config = context().config();
    judge = Judge.from(context());
    template = PromptTemplate.configured(context(), DEFAULT_PROMPT);
    systemMessage = text(config, "judge_system_message", "");
    equal = text(config, "judge_equal_label", "[[A=B]]");
    labels = VerdictParser.labels(equal, text(config, "judge_not_equal_label", "[[A!=B]]"));
    settings = new Settings(text(config, "question_extract_regex", null),
        text(config, "response_extract_regex", null), text(config, "msg_extraction_failure", null),
        config.path("reward_if_swap_fails").asDouble(0.0),
        config.path("use_per_record_regex").asBoolean(true),
        config.has("extraction_length_threshold") ? (config.get("extraction_length_threshold").isNull() ? null
            : config.get("extraction_length_threshold").asInt()) : Integer.valueOf(120),
        config.path("check_full_generation_on_fail").asBoolean(true),
        config.path("reward_if_full_generation_succeeds").asDouble(0.5));
  }

  private static String text(JsonNode config, String key, String fallback) {
    return config.path(key).isString() ? config.get(key).stringValue() : fallback;
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String expected = expectedAnswer(request);
    String question = TextPicks.lastMatch(TextPicks.lastUserText(request.responsesCreateParams().json()),
        settings.questionExtractRegex());
    String rowRegex = settings.usePerRecordRegex() ? text(request.field("template_metadata"), "output_regex", null)
        : null;
    rowRegex = rowRegex == null || rowRegex.isEmpty() ? null : rowRegex;
    boolean tooLongForRegex = rowRegex != null && settings.extractionLengthThreshold() != null
        && expected.length() > settings.extractionLengthThreshold();
    String regex = rowRegex == null ? settings.responseExtractRegex() : tooLongForRegex ? null : rowRegex;
    JsonNode output = request.json().path("response").path("output");
    String generated = TextPicks.lastAssistantText(output, regex, settings.msgExtractionFailure());

    List<JudgeOutcome<String>> asked = new ArrayList<>();
    boolean first = isEqual(ask(question, expected, generated, asked));
    double reward;
    if (!first) {
      reward = 0.0;
      if (!tooLongForRegex && settings.checkFullGenerationOnFail() && rowRegex != null) {
        String whole = TextPicks.lastAssistantText(output, null, settings.msgExtractionFailure());
        reward = isEqual(ask(question, expected, whole, asked)) ? settings.rewardIfFullGenerationSucceeds() : 0.0;
      }
    } else if (judge.settings().checkTwiceSwap() && !tooLongForRegex) {
      reward = isEqual(ask(question, generated, expected, asked)) ? 1.0 : settings.rewardIfSwapFails();
    } else {
      reward = 1.0;
    }
    ArrayNode evaluations = Json.array();
    for (JudgeOutcome<String> outcome : asked) {
      ObjectNode evaluation = outcome.evaluation().orElseThrow();
      evaluation.put("verdict_label", outcome.orThrow());
      evaluations.add(evaluation);
    }
    return Verification.of(reward).with("expected_answer", expected).with("judge_evaluations", evaluations);
  }

  /** NeMo Gym's rule: a non-empty {@code expected_answer}, else {@code metadata.expected_answer}, else "". */
  private static String expectedAnswer(VerifyRequest request) {
    JsonNode direct = request.field("expected_answer");
    if (!direct.isNull() && !direct.isMissingNode() && !direct.isString()) {
      throw new FieldError(List.of("expected_answer"), "Input should be a valid string", "string_type");
    }
    if (direct.isString() && !direct.stringValue().isEmpty()) {
      return direct.stringValue();
    }
    JsonNode nested = request.field("metadata").path("expected_answer");
    return nested.isNull() || nested.isMissingNode() ? "" : nested.isValueNode() ? nested.asString()
        : Json.write(nested);
  }

  private String ask(String question, String expected, String generated, List<JudgeOutcome<String>> asked) {
    String prompt = template.render(Map.of("question", question, "expected_answer", expected,
        "generated_answer", generated));
    JudgeOutcome<String> outcome = judge.ask(systemMessage, prompt, labels);
    asked.add(outcome);
    return outcome.orThrow();
  }

  private boolean isEqual(String label) {
    return label.equals(equal);
  }
}
