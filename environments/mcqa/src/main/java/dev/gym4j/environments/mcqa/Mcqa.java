package dev.gym4j.environments.mcqa;

import java.util.List;
import java.util.Locale;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * Multiple-choice questions: the letter the model chose, read by the row's {@code grading_mode} (or the
 * server's), compared with {@code expected_answer}. A dataset's {@code template_metadata.output_regex}
 * is tried first; when it matches nothing, the mode decides. NeMo Gym's mcqa, with its current rules.
 */
@Implementation("mcqa")
public class Mcqa extends ResourcesServer {
  static final List<String> MODES = List.of("strict_single_letter_boxed", "lenient_boxed", "lenient_answer_colon",
      "lenient_answer_colon_md");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String text = answerText(request);
    Choices choices = new Choices(request.field("options"));
    String letter = extract(request, text, choices);
    String gold = request.field("expected_answer").asString("").strip().toUpperCase(Locale.ROOT);
    boolean right = letter != null && !gold.isEmpty() && letter.equals(gold);
    return Verification.of(right ? 1.0 : 0.0).with("expected_answer", gold).with("extracted_answer", letter);
  }

  /** The chosen letter, or null. */
  protected String extract(VerifyRequest request, String text, Choices choices) {
    JsonNode regex = request.field("template_metadata").path("output_regex");
    if (regex.isString() || regex.isArray()) {
      String letter = choices.customRegex(text, regex);
      if (letter != null) {
        return letter;
      }
      // nothing matched the dataset's pattern (a model that wrote \boxed{{B}}): the grading mode decides
    }
    String mode = request.field("grading_mode").asString(context().config().path("grading_mode")
        .asString("strict_single_letter_boxed"));
    return switch (mode) {
      case "strict_single_letter_boxed" -> choices.strictBoxed(text);
      case "lenient_boxed" -> choices.lenientBoxed(text);
      case "lenient_answer_colon" -> choices.answerColon(text);
      case "lenient_answer_colon_md" -> choices.answerColonMarkdown(text);
      default -> throw new FieldError(List.of("grading_mode"), "must be one of " + MODES, "literal_error");
    };
  }

  /** The assistant's messages, joined by newlines and trimmed. */
  static String answerText(VerifyRequest request) {
    return String.join("\n", request.response().assistantTexts()).strip();
  }
}
