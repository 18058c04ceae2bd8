package dev.gym4j.environments.math_with_judge;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.math.MathVerifier;
import dev.gym4j.math.Verdict;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Math answers checked by {@link MathVerifier} against {@code expected_answer} (NeMo Gym's math_with_judge).
 * The model's text is every {@code output_text} of its messages, read whole, boxed answer or not (NeMo Gym
 * main); with {@code require_box: true} a text without a non-empty last {@code \boxed{}} scores 0 without a
 * check. When the library says no and {@code should_use_judge} is set, an LLM judge compares the expected
 * answer with the last boxed one (the whole text when there is none) in both orders, and only two
 * {@code [[A=B]]} verdicts score 1. A judge that fails or answers without a verdict label fails the
 * rollout, as does a library check that runs out of time with no judge to ask: neither is a 0.
 */
@Implementation("math_with_judge")
public final class MathWithJudge extends ResourcesServer {
  static final String EQUAL = "[[A=B]]";
  static final String NOT_EQUAL = "[[A!=B]]";
  private static final String SYSTEM_MESSAGE = """
      You judge whether two answers to a math problem are mathematically equivalent. Ignore formatting, \
      notation and presentation; only the value matters. Reason briefly if you need to, then end with \
      exactly one label: [[A=B]] if assistant A's answer is equivalent to assistant B's answer, or \
      [[A!=B]] if it is not. For example: "The two values differ, so: [[A!=B]]".""";
  private static final String PROMPT_TEMPLATE = """
      <|Problem|>
      {question}

      <|Start of Assistant A's Answer|>
      {first_answer}
      <|End of Assistant A's Answer|>

      <|Start of Assistant B's Answer|>
      {second_answer}
      <|End of Assistant B's Answer|>""";

  private MathVerifier verifier;
  private boolean useJudge;
  private boolean requireBox;
  private String judgeServer;

  @Override
  protected void start() {
    double seconds = context().config().path("library_verifier_timeout_seconds").asDouble(1.0);
    verifier = new MathVerifier(MathVerifier.Options.DEFAULTS.withBudget(Duration.ofMillis((long) (seconds * 1000))));
    useJudge = context().config().path("should_use_judge").asBoolean(true);
    requireBox = context().config().path("require_box").asBoolean(false);
    if (useJudge) {
      judgeServer = context().required("judge_model_server").path("name").asString(null);
      if (judgeServer == null) {
        throw new dev.gym4j.config.ConfigException(context().path("judge_model_server") + ".name is required");
      }
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String expected = requiredText(request, "expected_answer");
    String text = request.response().outputTextParts();
    String boxed = lastBox(text);
    if (requireBox && (boxed == null || boxed.isBlank())) {
      return result(0.0, expected, null, 0.0, "no_box", null);
    }
    Verdict verdict = verifier.verifyExpected(expected, text);
    double libraryReward = verdict.matched() ? 1.0 : 0.0;
    String libraryVerdict = verdict.outcome().name().toLowerCase(java.util.Locale.ROOT);
    if (verdict.matched() || !useJudge) {
      if (verdict.outcome() == Verdict.Outcome.UNDECIDED) {
        throw new UpstreamException(UpstreamException.Kind.TIMEOUT, "math_with_judge: the library check was "
            + verdict.detail() + " and no judge is configured (should_use_judge: false)");
      }
      return result(libraryReward, expected, verdict.extractedAnswer(), libraryReward, libraryVerdict, null);
    }
    String question = requiredText(request, "question");
    String answer = boxed == null || boxed.isBlank() ? text : boxed;
    ArrayNode evaluations = Json.array();
    boolean equal = judge(question, expected, answer, evaluations) && judge(question, answer, expected, evaluations);
    return result(equal ? 1.0 : 0.0, expected, verdict.extractedAnswer(), libraryReward, libraryVerdict,
        evaluations);
  }

  private static Verification result(double reward, String expected, String extracted, double libraryReward,
      String libraryVerdict, ArrayNode judgeEvaluations) {
    return Verification.of(reward).with("expected_answer", expected).with("extracted_answer", extracted)
        .with("library_reward", libraryReward).with("library_verdict", libraryVerdict)
        .with("judge_evaluations", judgeEvaluations);
  }

  private static String requiredText(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
  }

  /** Asks the judge once; records the exchange; true for {@code [[A=B]]}. */
  private boolean judge(String question, String first, String second, ArrayNode evaluations) {
    ObjectNode params = context().config().path("judge_responses_create_params").isObject()
        ? ((ObjectNode) context().config().get("judge_responses_create_params")).deepCopy() : Json.object();
    String system = context().config().path("judge_system_message").asString(SYSTEM_MESSAGE);
    String prompt = context().config().path("judge_prompt_template").asString(PROMPT_TEMPLATE)
        .replace("{question}", question).replace("{first_answer}", first).replace("{second_answer}", second);
    ArrayNode input = params.putArray("input");
    input.addObject().put("role", "system").put("content", system);
    input.addObject().put("role", "user").put("content", prompt);
    HttpReply reply = context().client().post(judgeServer, "/v1/responses", params, Map.of());
    if (!reply.ok()) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "math_with_judge: the judge model answered "
          + reply.status(), reply.status(), null);
    }
    JsonNode response = reply.json();
    ObjectNode evaluation = evaluations.addObject();
    evaluation.set("responses_create_params", params);
    evaluation.set("response", response);
    return label(response);
  }

  /** The verdict label that comes first in the last text of the judge's last message. */
  static boolean label(JsonNode response) {
    JsonNode output = response.path("output");
    JsonNode last = output.isArray() && !output.isEmpty() ? output.get(output.size() - 1) : null;
    JsonNode content = last == null ? null : last.path("content");
    String text = null;
    if (last != null && "message".equals(last.path("type").asString("")) && content.isArray() && !content.isEmpty()
        && "output_text".equals(content.get(content.size() - 1).path("type").asString(""))) {
      text = content.get(content.size() - 1).path("text").asString("");
    }
    int equal = text == null ? -1 : text.indexOf(EQUAL);
    int notEqual = text == null ? -1 : text.indexOf(NOT_EQUAL);
    if (equal < 0 && notEqual < 0) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "math_with_judge: the judge's answer has neither "
          + EQUAL + " nor " + NOT_EQUAL + " in its last message text", 200, null);
    }
    return equal >= 0 && (notEqual < 0 || equal < notEqual);
  }

  /**
   * The exact contents of the last {@code \boxed{…}}, or null when that one does not close: NeMo Gym does
   * not fall back to an earlier box, as {@link dev.gym4j.text.Boxed#last} would.
   */
  static String lastBox(String text) {
    int start = text.lastIndexOf("\\boxed{");
    if (start < 0) {
      return null;
    }
    int depth = 1;
    for (int i = start + "\\boxed{".length(); i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return text.substring(start + "\\boxed{".length(), i);
      }
    }
    return null;
  }
}
