package dev.gym4j.environments.single_step_tool_use_with_argument_comparison;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SingleStepToolUseTest extends RecordedRolloutsTest {
  private final ArgumentComparator comparator = new ArgumentComparator(0.1, 1e-6);

  @Override
  protected String environment() {
    return "single_step_tool_use_with_argument_comparison";
  }

  private Category compare(String expected, String actual) {
    return comparator.compare(Json.parse(expected), Json.parse(actual));
  }

  @Test
  void argumentsCompareWithPythonTypes() {
    assertThat(compare("{\"n\": 1}", "{\"n\": true}")).as("bool is an int in Python").isNull();
    assertThat(compare("{\"x\": 1.5}", "{\"x\": 2}")).isEqualTo(Category.ARGUMENT_VALUE_TYPE_DIFFERENT);
    assertThat(compare("{\"x\": 1.5}", "{\"x\": 1.5000001}")).isNull();
    assertThat(compare("{\"x\": 1}", "{\"x\": 1, \"y\": 2}")).isEqualTo(Category.ARGUMENT_OBJECT_KEYS_DIFFERENT);
    assertThat(compare("{\"goal\": \"a\", \"x\": 1}", "{\"goal\": 5, \"x\": 1}")).as("goal is not compared").isNull();
    assertThat(compare("[1, 2]", "[1]")).isEqualTo(Category.ARGUMENT_LIST_LENGTH_DIFFERENT);
  }

  @Test
  void stringsOfOneWordMatchExactlyLongerOnesByWordOverlap() {
    assertThat(compare("\"Paris\"", "\"paris\"")).isEqualTo(Category.ARGUMENT_VALUE_DIFFERENT);
    assertThat(compare("\"book a table for two\"", "\"Book a TABLE please\"")).isNull();
    assertThat(compare("\"book a table for two\"", "\"cancel my flight now\"")).isEqualTo(Category.ARGUMENT_VALUE_DIFFERENT);
  }

  private JsonNode verify(String expected, String output) {
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"expected_action\": "
        + expected + ", \"response\": {\"output\": [" + output + "]}}"), Map.of()).json();
  }

  private static String call(String name, String arguments) {
    return "{\"type\": \"function_call\", \"call_id\": \"c\", \"name\": \"" + name + "\", \"arguments\": "
        + Json.write(Json.toTree(arguments)) + "}";
  }

  @Test
  void actionsAreComparedByKind() {
    String expectedCall = "{\"type\": \"function_call\", \"name\": \"f\", \"arguments\": \"{\\\"id\\\": 7}\"}";
    assertThat(verify(expectedCall, call("f", "{\"id\": 7}")).get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify(expectedCall, call("g", "{\"id\": 7}")).get("category").asString())
        .isEqualTo(Category.UNEXPECTED_TOOL.text);
    assertThat(verify(expectedCall, call("f", "{\"id\": 7") ).get("category").asString())
        .isEqualTo(Category.ARGUMENTS_DECODE_ERROR.text);
    assertThat(verify(expectedCall, call("f", "{\"id\": 7}") + "," + call("f", "{\"id\": 7}")).get("category")
        .asString()).isEqualTo(Category.MULTIPLE_TOOL_CALLS_FOUND.text);
    assertThat(verify(expectedCall, "").get("category").asString()).isEqualTo(Category.NO_ACTION_FOUND.text);
  }

  @Test
  void batchesNeedEveryExpectedCallMatchedOnce() {
    String batch = "{\"type\": \"function_call_batch\", \"calls\": [{\"name\": \"f\", \"arguments\": \"{\\\"id\\\": 1}\"},"
        + " {\"name\": \"f\", \"arguments\": \"{\\\"id\\\": 2}\"}]}";
    assertThat(verify(batch, call("f", "{\"id\": 2}") + "," + call("f", "{\"id\": 1}") + "," + call("h", "{}"))
        .get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify(batch, call("f", "{\"id\": 1}") + "," + call("f", "{\"id\": 1}")).get("reward").asDouble())
        .isZero();
  }
}
