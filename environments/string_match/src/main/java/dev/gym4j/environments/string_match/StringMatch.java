package dev.gym4j.environments.string_match;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * A short answer compared with {@code expected_answer} (NeMo Gym's string_match): extracted by
 * {@code extraction_mode} ({@code final_answer}, the default, falling back to the last box; {@code boxed};
 * {@code last_line}; {@code full_response}), then graded by {@link Answers}, or exactly (trimmed) when
 * {@code case_sensitive} is set. Near numbers score 0.98.
 */
@Implementation("string_match")
public final class StringMatch extends ResourcesServer {
  private static final List<String> MODES = List.of("boxed", "final_answer", "last_line", "full_response");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isString()) {
      throw new FieldError(List.of("expected_answer"), "Field required: the expected answer text", "missing");
    }
    String mode = request.field("extraction_mode").asString("final_answer");
    if (!MODES.contains(mode)) {
      throw new FieldError(List.of("extraction_mode"), "must be one of " + MODES, "literal_error");
    }
    String text = String.join("\n", request.response().assistantTexts());
    String extracted = Answers.extract(PythonText.strip(text), mode);
    double reward = 0.0;
    if (extracted != null && !expected.stringValue().isEmpty()) {
      reward = request.field("case_sensitive").asBoolean(false)
          ? (PythonText.strip(extracted).equals(PythonText.strip(expected.stringValue())) ? 1.0 : 0.0)
          : Answers.grade(expected.stringValue(), extracted);
    }
    return Verification.of(reward).with("expected_answer", expected).with("extracted_answer", extracted);
  }
}
