package dev.gym4j.wire;

import dev.gym4j.json.Json;
import dev.gym4j.json.JsonView;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Token usage of a Responses call. Detail counts may be null, meaning unknown; they are never made 0.
 */
public record Usage(ObjectNode json) implements JsonView {

  public long inputTokens() {
    return json.path("input_tokens").asLong(0);
  }

  public long outputTokens() {
    return json.path("output_tokens").asLong(0);
  }

  public long totalTokens() {
    return json.path("total_tokens").asLong(0);
  }

  /**
   * The sum of two calls' usage, as an agent reports a multi-call rollout: top-level counts add up; a
   * detail count stays null as soon as either side does not know it.
   */
  public Usage plus(Usage other) {
    ObjectNode sum = Json.object();
    sum.put("input_tokens", inputTokens() + other.inputTokens());
    sum.set("input_tokens_details", sumDetail("input_tokens_details", "cached_tokens", other));
    sum.put("output_tokens", outputTokens() + other.outputTokens());
    sum.set("output_tokens_details", sumDetail("output_tokens_details", "reasoning_tokens", other));
    sum.put("total_tokens", totalTokens() + other.totalTokens());
    return new Usage(sum);
  }

  private ObjectNode sumDetail(String details, String field, Usage other) {
    JsonNode mine = json.path(details).get(field);
    JsonNode theirs = other.json.path(details).get(field);
    ObjectNode out = Json.object();
    if (mine == null || theirs == null || !mine.isNumber() || !theirs.isNumber()) {
      out.putNull(field);
    } else {
      out.put(field, mine.asLong() + theirs.asLong());
    }
    return out;
  }
}
