package dev.gym4j.environments.ruler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.client.HttpReply;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Against NeMo Gym's resources_servers/ruler/app.py (main, 2026-08-22) and its recorded rollouts. */
class RulerTest extends RecordedFieldsTest {
  private static final Pattern VARIABLE = Pattern.compile("VAR ([A-Z]{3,5})\\b");

  @Override
  protected String environment() {
    return "ruler";
  }

  @Override
  protected List<String> verifyFields() {
    return Ruler.SUBSETS;
  }

  /**
   * The five recordings were made from dataset rows 16 to 21, which example.jsonl does not hold, and they
   * lack the task fields. Each is a variable-tracking question (subset vt) cut off at max_output_tokens
   * with reasoning only. We give it the variable names its reasoning found as the references: the recorded
   * 0 then shows that reasoning is not output text, as in NeMo Gym (`response.output_text`).
   */
  @Override
  protected JsonNode prepare(JsonNode recorded) {
    ObjectNode row = ((ObjectNode) recorded).deepCopy();
    var names = new LinkedHashSet<String>();
    Matcher matcher = VARIABLE.matcher(recorded.at("/response/output/0/summary/0/text").asString(""));
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    assertThat(names).as("variable names in the reasoning").isNotEmpty();
    row.set("outputs", Json.toTree(List.copyOf(names)));
    row.put("subset", "vt");
    row.put("length", recorded.at("/response/usage/input_tokens").asInt());
    return row;
  }

  /** The recordings predate the per-subset fields: the current code writes vt and leaves the others null. */
  @Override
  protected JsonNode expectedField(String file, int line, String field, JsonNode recorded) {
    return field.equals("vt") ? Json.toTree(0.0) : tools.jackson.databind.node.NullNode.getInstance();
  }

  @Test
  void qaSubsetsNeedOneReferenceTheOthersScoreTheFractionFound() {
    assertThat(reward("qa_1", "The answer is PARIS.", "Paris", "Lyon").get("reward").asDouble()).isEqualTo(1.0);
    JsonNode niah = reward("niah_multivalue", "values: 1234 and 99", "1234", "5678", "99", "0");
    assertThat(niah.get("reward").asDouble()).isEqualTo(0.5);
    assertThat(niah.get("niah_multivalue").asDouble()).isEqualTo(0.5);
    assertThat(niah.get("qa_1").isNull()).isTrue();
  }

  @Test
  void missingOrEmptyReferencesAreA422NamingOutputs() {
    HttpReply reply = harness().post("/verify", row("vt", "x"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("outputs").doesNotContain("java.");
  }

  private JsonNode reward(String subset, String text, String... outputs) {
    HttpReply reply = harness().post("/verify", row(subset, text, outputs), Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  private static JsonNode row(String subset, String text, String... outputs) {
    ObjectNode row = (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"length\": 10, "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": " + Json.write(text) + "}]}]}}");
    row.put("subset", subset);
    row.set("outputs", Json.toTree(List.of(outputs)));
    return row;
  }
}
