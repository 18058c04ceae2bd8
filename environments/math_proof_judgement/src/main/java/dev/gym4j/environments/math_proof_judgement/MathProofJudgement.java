package dev.gym4j.environments.math_proof_judgement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Math proof judgement (NeMo Gym's math_proof_judgement): the policy judges a candidate proof and must
 * answer "Judgement: Yes" or "Judgement: No" as the row's {@code expected_judgement} does. Reward 1 when
 * both parse and agree. Each rollout also carries its one-hot confusion cell ({@code tp fp fn tn}), and
 * {@code /aggregate_metrics} adds NeMo Skills' precision, recall and F1 ({@link JudgementMetrics}).
 */
@Implementation("math_proof_judgement")
public final class MathProofJudgement extends ResourcesServer {
  static final List<String> FIELDS = List.of("extracted_judgement", "tp", "fp", "fn", "tn");
  private static final Pattern PREFIX = Pattern.compile("\\*{0,2}Judgement\\*{0,2}[\\s\\x1c-\\x1f]*:",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS);

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_judgement");
    if (!expected.isMissingNode() && !expected.isNull() && !expected.isString()) {
      throw new FieldError(List.of("expected_judgement"), "Input should be a valid string", "string_type");
    }
    Boolean predicted = parse(assistantText(request));
    Boolean gold = parse(expected.isString() ? expected.stringValue() : null);
    boolean known = predicted != null && gold != null;
    Verification verification = Verification.of(known && predicted.equals(gold) ? 1.0 : 0.0)
        .with("extracted_judgement", predicted == null ? NullNode.getInstance() : predicted ? "Yes" : "No")
        .with("tp", known && predicted && gold ? 1.0 : 0.0)
        .with("fp", known && predicted && !gold ? 1.0 : 0.0)
        .with("fn", known && !predicted && gold ? 1.0 : 0.0)
        .with("tn", known && !predicted && !gold ? 1.0 : 0.0);
    if (expected.isMissingNode()) {
      verification = verification.with("expected_judgement", NullNode.getInstance());
    }
    return verification;
  }

  /** The first "Judgement: Yes/No" (bold allowed, case ignored): true, false, or null when there is none. */
  static Boolean parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    Matcher matcher = PREFIX.matcher(text);
    if (!matcher.find()) {
      return null;
    }
    String verdict = PythonText.strip(text.substring(matcher.end()));
    int stars = 0;
    while (stars < verdict.length() && verdict.charAt(stars) == '*') {
      stars++;
    }
    verdict = PythonText.strip(verdict.substring(stars)).toLowerCase(Locale.ROOT);
    return verdict.startsWith("yes") ? Boolean.TRUE : verdict.startsWith("no") ? Boolean.FALSE : null;
  }

  /** The assistant messages' text, one per line, stripped. */
  private static String assistantText(VerifyRequest request) {
    List<String> texts = new ArrayList<>();
    for (var item : request.response().output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.stringValue());
        }
        for (JsonNode part : content) {
          if (part.path("text").isString()) {
            texts.add(part.path("text").stringValue());
          }
        }
      }
    }
    return PythonText.strip(String.join("\n", texts));
  }

  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    ObjectNode aggregate = super.aggregateMetrics(request);
    ((ObjectNode) aggregate.path("agent_metrics")).setAll(JudgementMetrics.of(request.path("verify_responses")));
    return aggregate;
  }
}
