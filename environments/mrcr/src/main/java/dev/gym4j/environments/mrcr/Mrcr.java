package dev.gym4j.environments.mrcr;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.text.SequenceMatcher;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI's multi-round coreference resolution (NeMo Gym's mrcr): the stripped output text must start with
 * the row's {@code random_string_to_prepend}, else 0; then, that prefix taken off both the text and
 * {@code expected_answer}, the reward is difflib's similarity ratio of the two.
 */
@Implementation("mrcr")
public final class Mrcr extends ResourcesServer {
  static final List<String> FIELDS = List.of("prefix_matched", "seq_match_ratio");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String expected = text(request, "expected_answer");
    String prefix = text(request, "random_string_to_prepend");
    for (String count : List.of("n_needles", "n_tokens")) {
      if (!request.field(count).isIntegralNumber()) {
        throw new FieldError(List.of(count), "Field required: an integer", "int_type");
      }
    }
    String response = PythonText.strip(request.response().outputTextParts());
    double ratio = grade(response, expected, prefix);
    return Verification.of(ratio).with("prefix_matched", response.startsWith(prefix)).with("seq_match_ratio", ratio);
  }

  static double grade(String response, String expected, String prefix) {
    if (!response.startsWith(prefix)) {
      return 0.0;
    }
    String answer = expected.startsWith(prefix) ? expected.substring(prefix.length()) : expected;
    return SequenceMatcher.ratio(response.substring(prefix.length()), answer);
  }

  private static String text(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "string_type");
    }
    return value.stringValue();
  }
}
