package dev.gym4j.environments.structured_outputs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The recorded rollouts are 2025 text-mode runs whose schema sits in the prompt, not in {@code schema_str}
 * (INDEX.md). Where the second user message is the schema itself, it is used; otherwise the answers are
 * fenced JSON, a parse error under any schema, and an empty schema stands in.
 */
class StructuredOutputsTest extends RecordedRolloutsTest {
  private static final String SCHEMA = "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}, "
      + "\"age\": {\"type\": \"integer\"}, \"tags\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}}}";

  @Override
  protected String environment() {
    return "structured_outputs";
  }

  @Override
  protected JsonNode prepare(JsonNode recorded) {
    ObjectNode row = ((ObjectNode) recorded).deepCopy();
    if (!row.has("schema_str")) {
      JsonNode input = recorded.at("/responses_create_params/input");
      String schema = "{}";
      if (input.size() >= 2) {
        try {
          Json.parse(input.get(1).get("content").asString());
          schema = input.get(1).get("content").asString();
        } catch (RuntimeException e) {
          // the schema is prose in this prompt
        }
      }
      row.put("schema_str", schema);
      row.put("schema_type", "json");
    }
    return row;
  }

  private JsonNode verify(String type, String answer, String extra) {
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"schema_str\": "
        + Json.write(Json.toTree(SCHEMA)) + ", \"schema_type\": \"" + type + "\"" + extra + ", \"response\": {\"output\": "
        + "[{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
        + Json.write(Json.toTree(answer)) + "}]}]}}"), Map.of()).json();
  }

  @Test
  void everyPayloadFormatIsReadAndValidated() {
    assertThat(verify("json", "{\"name\": \"Ada\", \"age\": 36, \"tags\": [\"math\"]}", "").get("reward").asDouble())
        .isEqualTo(1.0);
    assertThat(verify("yaml", "name: Ada\nage: 36\ntags: [math]\n", "").get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify("toml", "name = \"Ada\"\nage = 36\ntags = [\"math\"]\n", "").get("reward").asDouble())
        .isEqualTo(1.0);
    assertThat(verify("xml", "<person><name>Ada</name><age>36</age><tags><tag>math</tag></tags></person>", "")
        .get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void strictifyMakesEveryPropertyRequiredAndNoOtherAllowed() {
    JsonNode missing = verify("json", "{\"name\": \"Ada\", \"age\": 36}", "");
    assertThat(missing.get("reward").asDouble()).isZero();
    assertThat(missing.get("validation_result").asString()).isEqualTo("schema_error");
    assertThat(verify("json", "{\"name\": \"Ada\", \"age\": 36, \"tags\": [], \"extra\": 1}", "").get("reward")
        .asDouble()).isZero();
    assertThat(Schemas.strictify(Json.parse("{\"anyOf\": [{\"properties\": {\"a\": {}}}]}")))
        .as("lists are not walked").isEqualTo(Json.parse("{\"anyOf\": [{\"properties\": {\"a\": {}}}]}"));
  }

  @Test
  void aFencedAnswerIsAParseError() {
    JsonNode fenced = verify("json", "```json\n{\"name\": \"Ada\", \"age\": 36, \"tags\": []}\n```", "");
    assertThat(fenced.get("reward").asDouble()).isZero();
    assertThat(fenced.get("validation_result").asString()).isEqualTo("parse_error");
  }

  @Test
  void csvRowsAreCoercedToTheColumnTypes() {
    String schema = "{\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {\"name\": {\"type\": "
        + "\"string\"}, \"age\": {\"type\": \"integer\"}, \"member\": {\"type\": \"boolean\"}}}}";
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"schema_str\": " + Json.write(Json.toTree(schema)) + ", \"schema_type\": \"csv\", \"response\": {\"output\": "
        + "[{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
        + "\"name,age,member\\n\\\"Lovelace, Ada\\\",36,true\\nBob,7,0\\n\"}]}]}}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).as(verdict.toString()).isEqualTo(1.0);
  }

  @Test
  void toolCallModeValidatesThePayloadOfTheOneCall() {
    String call = "{\"type\": \"function_call\", \"call_id\": \"c\", \"name\": \"response_tool_2\", \"arguments\": "
        + Json.write(Json.toTree("{\"extraction\": {\"name\": \"Ada\", \"age\": 36, \"tags\": []}}")) + "}";
    String row = "{\"responses_create_params\": {\"input\": \"q\"}, \"schema_str\": " + Json.write(Json.toTree(SCHEMA))
        + ", \"response_mode\": \"tool_call\", \"tool_name\": \"response_tool_2\", \"tool_payload_key\": \"extraction\", "
        + "\"response\": {\"output\": [" + call + "]}}";
    assertThat(harness().post("/verify", Json.parse(row), Map.of()).json().get("reward").asDouble()).isEqualTo(1.0);
    String wrongTool = row.replace("\"tool_name\": \"response_tool_2\"", "\"tool_name\": \"response_tool_8\"");
    assertThat(harness().post("/verify", Json.parse(wrongTool), Map.of()).json().get("validation_result").asString())
        .isEqualTo("wrong_tool");
  }
}
