package dev.gym4j.environments.ruler2;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * RULER v2 (NeMo Gym's ruler2), two routes by the row's {@code eval_type}. {@code ruler2} (the default): a
 * soft string match of the output text against each reference, max(substring, 1 − word error rate), case
 * folded, aggregated by {@code match_type}: {@code all} (mean), {@code part} (max, "Document N:" blocks cut
 * first) or {@code 2steps} (mean over the last paragraph). {@code multichoice}: the letter read by
 * {@link Letters} must equal {@code expected_answer}.
 */
@Implementation("ruler2")
public final class Ruler2 extends ResourcesServer {
  static final List<String> FIELDS = List.of("predicted_answer", "extracted_answer");
  private static final List<String> MATCH_TYPES = List.of("2steps", "all", "part");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (expected.isMissingNode()) {
      throw new FieldError(List.of("expected_answer"), "Field required", "missing");
    }
    String evalType = text(request, "eval_type", "ruler2");
    String matchType = text(request, "match_type", "all");
    String prediction = request.response().outputTextParts();
    Verification verification;
    if (evalType.equals("multichoice")) {
      String letter = Letters.extract(prediction);
      String gold = expected.isNull() ? "" : PythonText.strip(str(expected)).toUpperCase(Locale.ROOT);
      verification = Verification.of(letter != null && letter.equals(gold) ? 1.0 : 0.0)
          .with("extracted_answer", letter == null ? NullNode.getInstance() : letter);
    } else {
      if (!MATCH_TYPES.contains(matchType)) {
        throw new FieldError(List.of("match_type"), "Unsupported match_type; expected one of " + MATCH_TYPES,
            "value_error");
      }
      List<String> references = new ArrayList<>();
      if (expected.isArray()) {
        expected.forEach(reference -> references.add(str(reference)));
      } else {
        references.add(str(expected));
      }
      verification = Verification.of(SoftMatch.score(matchType, prediction, references))
          .with("extracted_answer", NullNode.getInstance());
    }
    verification = verification.with("predicted_answer", defaultParse(prediction))
        .with("eval_type", evalType).with("match_type", matchType);
    for (String optional : List.of("task", "length")) {
      if (request.field(optional).isMissingNode()) {
        verification = verification.with(optional, NullNode.getInstance());
      }
    }
    return verification;
  }

  /** Stripped, each control character below 0x20 made a newline, stripped again. */
  static String defaultParse(String prediction) {
    StringBuilder out = new StringBuilder();
    PythonText.strip(prediction).chars().forEach(c -> out.append(c < 0x20 ? '\n' : (char) c));
    return PythonText.strip(out.toString());
  }

  private static String text(VerifyRequest request, String field, String fallback) {
    JsonNode value = request.field(field);
    if (value.isMissingNode()) {
      return fallback;
    }
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Input should be a valid string", "string_type");
    }
    return value.stringValue();
  }

  /** Python's {@code str()} of a scalar (containers as their JSON text). */
  private static String str(JsonNode value) {
    if (value.isString()) {
      return value.stringValue();
    }
    if (value.isNull()) {
      return "None";
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? "True" : "False";
    }
    return value.toString();
  }
}
