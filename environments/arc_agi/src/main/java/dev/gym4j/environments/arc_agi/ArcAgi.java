package dev.gym4j.environments.arc_agi;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * ARC-AGI puzzles (NeMo Gym's arc_agi): the assistant's grid ({@link Grids}) must equal
 * {@code expected_output} exactly; reward 1 or 0.
 */
@Implementation("arc_agi")
public final class ArcAgi extends ResourcesServer {
  static final List<String> FIELDS = List.of("predicted_output", "extraction_successful");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_output");
    if (expected.isMissingNode()) {
      expected = Json.array();
    } else if (!isGrid(expected)) {
      throw new FieldError(List.of("expected_output"), "Input should be a list of lists of integers", "list_type");
    }
    JsonNode predicted = Grids.parse(assistantText(request));
    double reward = predicted != null && PythonEquality.equal(predicted, expected) ? 1.0 : 0.0;
    return Verification.of(reward).with("expected_output", expected)
        .with("predicted_output", predicted == null ? NullNode.getInstance() : predicted)
        .with("extraction_successful", predicted != null);
  }

  /** The text of every assistant message, one per line, stripped. */
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

  private static boolean isGrid(JsonNode value) {
    if (!value.isArray()) {
      return false;
    }
    for (JsonNode row : value) {
      if (!row.isArray()) {
        return false;
      }
      for (JsonNode cell : row) {
        if (!cell.isIntegralNumber()) {
          return false;
        }
      }
    }
    return true;
  }
}
