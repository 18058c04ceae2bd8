package dev.gym4j.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import java.nio.file.Path;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, item 12: tool arguments are checked as strict JSON Schema would check them against the schema
 * we publish, never coerced: {@code 1.9} or {@code "5"} for an integer is refused, and so is a number past
 * the Java type's range. Before, {@code 1.9} became 1 and {@code "5"} became 5. NeMo Gym (pydantic, lax
 * mode) accepts {@code "5"}; we refuse it on purpose.
 */
class ToolArgumentsTest {
  enum Unit { CELSIUS, FAHRENHEIT }

  record Nested(int depth) {}

  record Arguments(int count, long total, double ratio, boolean flag, String name, Unit unit, List<Integer> ids,
      Map<String, Long> weights, Nested nested, Optional<Integer> limit) {}

  /** A stand-in environment with one tool over every kind of argument. */
  static final class Tools {
    @Tool
    public String call(Arguments arguments) {
      return "ok";
    }
  }

  private static final ToolMethod TOOL = ToolMethod.of(Tools.class).getFirst();
  private static final String VALID = """
      {"count": 5, "total": 9223372036854775807, "ratio": 0.5, "flag": true, "name": "x", "unit": "CELSIUS",
       "ids": [1, 2], "weights": {"a": 3}, "nested": {"depth": 1}}""";

  private static Arguments bind(String field, String json) {
    var body = (tools.jackson.databind.node.ObjectNode) Json.parse(VALID);
    if (field != null) {
      body.set(field, Json.parse(json));
    }
    return (Arguments) TOOL.bindArguments(body);
  }

  private static void refused(String field, String json, List<Object> location, String type) {
    assertThatThrownBy(() -> bind(field, json)).as(field + "=" + json).isInstanceOfSatisfying(FieldError.class, e -> {
      assertThat(e.location()).isEqualTo(location);
      assertThat(e.type()).isEqualTo(type);
      assertThat(e.getMessage()).doesNotContain("java.", "Exception");
    });
  }

  @Test
  void well_typed_arguments_bind() {
    Arguments arguments = bind(null, null);
    assertThat(arguments.count()).isEqualTo(5);
    assertThat(arguments.total()).isEqualTo(Long.MAX_VALUE);
    assertThat(arguments.limit()).isEmpty();
    assertThat(bind("count", "5.0").count()).as("JSON Schema's integer includes 5.0").isEqualTo(5);
    assertThat(bind("count", "1e2").count()).isEqualTo(100);
    assertThat(bind("limit", "7").limit()).contains(7);
  }

  @Test
  void an_integer_is_never_coerced_issue_14() {
    refused("count", "1.9", List.of("count"), "int_from_float");
    refused("count", "\"5\"", List.of("count"), "int_type");
    refused("count", "true", List.of("count"), "int_type");
    refused("ids", "[1, 2.5]", List.of("ids", 1), "int_from_float");
    refused("nested", "{\"depth\": \"1\"}", List.of("nested", "depth"), "int_type");
    refused("limit", "\"3\"", List.of("limit"), "int_type");
  }

  @Test
  void a_number_past_the_type_range_is_refused_issue_14() {
    refused("count", "2147483648", List.of("count"), "int_overflow");
    refused("total", "9223372036854775808", List.of("total"), "int_overflow");
    refused("total", "-9223372036854775809", List.of("total"), "int_overflow");
    refused("weights", "{\"a\": 1e19}", List.of("weights", "a"), "int_overflow");
    refused("count", "1e999999999", List.of("count"), "int_overflow");
    refused("ratio", "1e999999999", List.of("ratio"), "finite_number");
  }

  @Test
  void over_http_a_coercible_argument_is_a_422_and_changes_nothing_issue_14(@TempDir Path dir) {
    try (Deployment deployment = Deployment.start(TestConfigs.load(dir,
        "counter:\n  resources_servers:\n    test_counter: {domain: other}\n"), Implementations.load(), Set.of())) {
      var client = deployment.client();
      Map<String, String> session = client.post("counter", "/seed_session", Json.parse("{\"initial_count\": 3}"),
          Map.of()).cookies();
      for (String count : List.of("1.9", "\"5\"", "2147483648", "1e999999999")) {
        HttpReply reply = client.post("counter", "/increment_counter", Json.parse("{\"count\": " + count + "}"), session);
        assertThat(reply.status()).as(count).isEqualTo(422);
        assertThat(reply.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"count\"]");
        assertThat(reply.text()).doesNotContain("java.", "Exception");
      }
      HttpReply read = client.post("counter", "/get_counter_value", Json.object(), session);
      assertThat(read.json().get("count").asInt()).as("before the fix 1.9 added 1").isEqualTo(3);
    }
  }

  @Test
  void strings_booleans_enums_and_containers_are_not_coerced_either() {
    refused("name", "5", List.of("name"), "string_type");
    refused("flag", "\"true\"", List.of("flag"), "bool_type");
    refused("flag", "1", List.of("flag"), "bool_type");
    refused("ratio", "\"0.5\"", List.of("ratio"), "float_type");
    refused("unit", "\"KELVIN\"", List.of("unit"), "enum");
    refused("ids", "\"1,2\"", List.of("ids"), "list_type");
    refused("weights", "[]", List.of("weights"), "dict_type");
    refused("nested", "null", List.of("nested"), "missing");
  }
}
