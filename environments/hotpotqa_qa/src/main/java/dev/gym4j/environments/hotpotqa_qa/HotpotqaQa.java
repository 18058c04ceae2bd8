package dev.gym4j.environments.hotpotqa_qa;

import java.util.List;
import java.util.Set;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * Short-answer QA such as HotpotQA closed-book (NeMo Gym's hotpotqa_qa): the answer is read from the last
 * JSON object with an {@code answer} key and scored four ways against {@code expected_answer} (see
 * {@link Scoring}); the reward is the strict alternative-aware substring match.
 */
@Implementation("hotpotqa_qa")
public final class HotpotqaQa extends ResourcesServer {
  static final List<String> FIELDS = List.of("extracted_answer", "answer_em", "answer_f1", "is_correct",
      "is_correct_strict", "gt_should_remove", "gt_remove_reason");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isString()) {
      throw new FieldError(List.of("expected_answer"), "Field required: the expected answer text", "string_type");
    }
    String truth = expected.stringValue();
    String answer = Scoring.parseGeneration(request.response().outputTextParts());
    Set<String> alternatives = Scoring.alternatives(truth);
    double strict = Scoring.isCorrectStrict(alternatives, answer) ? 1.0 : 0.0;
    String reason = Scoring.removeReason(truth);
    return Verification.of(strict)
        .with("extracted_answer", answer.isEmpty() ? NullNode.getInstance() : answer)
        .with("answer_em", Scoring.exactMatch(answer, truth))
        .with("answer_f1", Scoring.f1(answer, truth))
        .with("is_correct", Scoring.isCorrect(alternatives, answer) ? 1.0 : 0.0)
        .with("is_correct_strict", strict)
        .with("gt_should_remove", !reason.isEmpty())
        .with("gt_remove_reason", reason);
  }
}
