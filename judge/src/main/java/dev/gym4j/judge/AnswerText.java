package dev.gym4j.judge;

import java.util.Optional;

import tools.jackson.databind.JsonNode;

/** Where a judge's verdict text is read from in its answer, by API and {@link Judge.Reading}. */
public final class AnswerText {
  private AnswerText() {}

  /** The text of the last content part of the last output item, when that item is a message. */
  public static Optional<String> lastMessageText(JsonNode response) {
    JsonNode output = response.path("output");
    if (!output.isArray() || output.isEmpty()) {
      return Optional.empty();
    }
    JsonNode last = output.get(output.size() - 1);
    JsonNode content = last.path("content");
    if (!"message".equals(last.path("type").asString("")) || !content.isArray() || content.isEmpty()) {
      return Optional.empty();
    }
    JsonNode text = content.get(content.size() - 1).path("text");
    return text.isString() ? Optional.of(text.stringValue()) : Optional.empty();
  }

  /** Every {@code output_text} part of every message of a Responses answer, joined. */
  static String outputText(JsonNode response) {
    StringBuilder text = new StringBuilder();
    for (JsonNode item : response.path("output")) {
      if ("message".equals(item.path("type").asString(""))) {
        for (JsonNode part : item.path("content")) {
          if ("output_text".equals(part.path("type").asString("")) && part.path("text").isString()) {
            text.append(part.get("text").stringValue());
          }
        }
      }
    }
    return text.toString();
  }

  /** The first choice's message content, stripped ("" for none), as NeMo Gym reads a chat judge. */
  static Optional<String> chat(JsonNode completion) {
    JsonNode content = completion.path("choices").path(0).path("message").path("content");
    return Optional.of(content.isString() ? dev.gym4j.text.PythonText.strip(content.stringValue()) : "");
  }
}
