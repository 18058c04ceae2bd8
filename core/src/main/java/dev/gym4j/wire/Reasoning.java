package dev.gym4j.wire;

import dev.gym4j.json.Shape;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A {@code reasoning} item: the model's thinking, as summary texts (and possibly encrypted content). */
public record Reasoning(ObjectNode json) implements Item {
  public static final String TYPE = "reasoning";

  /** The summary texts joined by blank lines. */
  public String summaryText() {
    JsonNode summary = json.get("summary");
    if (summary == null || !summary.isArray()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    for (JsonNode part : summary) {
      String text = Shape.text(part, "text");
      if (text != null) {
        if (!out.isEmpty()) {
          out.append("\n\n");
        }
        out.append(text);
      }
    }
    return out.toString();
  }
}
