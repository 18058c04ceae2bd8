package dev.gym4j.environments.proof_genselect;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Shape;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;

/**
 * Pairwise proof selection (NeMo Gym's proof_genselect): the policy compares two proofs and names the
 * better in {@code <best_solution>1</best_solution>} or {@code 2}, after any {@code </think>}. Reward 1 iff
 * that is the row's {@code correct_index}. With {@code assert_think_end}, an answer without {@code </think>}
 * scores 0.
 */
@Implementation("proof_genselect")
public final class ProofGenselect extends ResourcesServer {
  private boolean assertThinkEnd;

  @Override
  protected void start() {
    assertThinkEnd = context().config().path("assert_think_end").asBoolean(false);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    for (String field : List.of("problem", "proof_1", "proof_2")) {
      if (!request.field(field).isString()) {
        throw new FieldError(List.of(field), "Field required: a string", "string_type");
      }
    }
    if (!request.field("correct_index").isIntegralNumber()) {
      throw new FieldError(List.of("correct_index"), "Field required: an integer", "int_type");
    }
    Integer selected = bestSolution(request.response().outputTextParts(), assertThinkEnd);
    return Verification.of(selected != null && selected == Shape.longValue(request.field("correct_index"),
        List.of("correct_index")) ? 1.0 : 0.0);
  }

  /** The index in the {@code <best_solution>} tag after the last {@code </think>}: 1, 2, or null. */
  static Integer bestSolution(String text, boolean assertThinkEnd) {
    if (text.isEmpty() || assertThinkEnd && !text.contains("</think>")) {
      return null;
    }
    String answer = PythonText.strip(text.substring(text.lastIndexOf("</think>") < 0 ? 0
        : text.lastIndexOf("</think>") + "</think>".length()));
    int open = answer.indexOf("<best_solution>");
    if (open < 0 || !answer.contains("</best_solution>")) {
      return null;
    }
    String inside = answer.substring(open + "<best_solution>".length());
    int close = inside.indexOf("</best_solution>");
    // when the closing tag only comes before the opening one, Python's split keeps the whole rest
    Integer index = pythonInt(PythonText.strip(close < 0 ? inside : inside.substring(0, close)));
    return index != null && (index == 1 || index == 2) ? index : null;
  }

  /** Python's {@code int()} of a small number: sign, any Unicode digits, underscores between them. */
  static Integer pythonInt(String text) {
    if (!text.matches("(?U)[+-]?\\d+(_\\d+)*")) {
      return null;
    }
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      int digit = Character.digit(text.charAt(i), 10);
      if (digit >= 0) {
        value = Math.min(value * 10 + digit, 1_000);
      }
    }
    return (int) (text.startsWith("-") ? -value : value);
  }
}
