package dev.gym4j.environments.litmus_agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * Against NeMo Gym's resources_servers/litmus_agent/app.py (main, 2026-08-22) and its recorded rollouts; the
 * expected values below are what that app.py's functions give for the same inputs. The Python tool is on
 * (sandbox_provider set), so the conformance runs also show it never touches a verdict.
 */
class LitmusAgentTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "litmus_agent";
  }

  @Override
  protected String[] overrides() {
    return new String[] {"++litmus_agent.resources_servers.litmus_agent.sandbox_provider.bubblewrap=true",
        "++litmus_agent.resources_servers.litmus_agent.code_exec_timeout_s=5"};
  }

  @Override
  protected List<String> verifyFields() {
    return LitmusAgent.FIELDS;
  }

  /**
   * Line 1 is a legacy row (no answer_type, property_type "fragment"). It was recorded when such rows took their
   * type's default rule (isclose); main's _resolve_verification_policy scores legacy discrete properties by
   * rounded exact match, so the rule it writes is "exact". The reward (1.0 for "((1))") is the same.
   */
  @Override
  protected JsonNode expectedField(String file, int line, String field, JsonNode recorded) {
    if (line == 1 && field.equals("resolved_reward_rule")) {
      return StringNode.valueOf("exact");
    }
    return super.expectedField(file, line, field, recorded);
  }

  @Test
  void answerFormatsFindTheLastMatch() {
    assertThat(Answers.capture("((2)) then ((3))", Answers.pattern(null, null, false))).isEqualTo("3");
    assertThat(Answers.capture("x \\boxed{ 18.02 g } y", Answers.pattern(null, "fmt_07", false))).isEqualTo("18.02 g");
    assertThat(Answers.capture("\\boxed{4}", Answers.pattern(null, null, true))).isEqualTo("4");
    assertThat(Answers.capture("Final Answer: 12\nmore", Answers.pattern(null, "fmt_30", false))).isEqualTo("12");
    assertThat(Answers.capture("<final_answer>\n yes \n</final_answer>", Answers.pattern(null, "fmt_15", false)))
        .isEqualTo("yes");
    assertThat(Answers.capture("value=7 and value=9", Answers.pattern("value=(?P<v>\\d)", null, false)))
        .isEqualTo("9");
    assertThat(Answers.capture("nothing", Answers.pattern(null, "fmt_05", false))).isNull();
  }

  @Test
  void valuesAreReadByAnswerType() {
    assertThat(Answers.read("18.02 g/mol", "float")).isEqualTo(18.02);
    assertThat(Answers.read("about 3, no, 1e2", "float")).isEqualTo(100.0);
    assertThat(Answers.read("1_000", "float")).isEqualTo(1000.0);
    assertThat(Answers.read("none", "float")).isNull();
    assertThat(Answers.read("Yes", "bool")).isEqualTo(1.0);
    assertThat(Answers.read("absent", "bool")).isEqualTo(0.0);
    assertThat(Answers.read("2", "bool")).isEqualTo(1.0);
    assertThat(Answers.read("maybe", "bool")).isNull();
    assertThat(Answers.read("Carboxylic  Acid", "string")).isEqualTo("Carboxylic  Acid");
    assertThat(Answers.normalize("  Carboxylic \n Acid ")).isEqualTo("carboxylic acid");
    assertThat(LitmusAgent.isClose(1.0, 1.0 + 1e-7, 1e-6, 1e-6)).isTrue();
    assertThat(LitmusAgent.isClose(1000.0, 1000.01, 1e-6, 1e-6)).isFalse();
    assertThat(LitmusAgent.isClose(Double.POSITIVE_INFINITY, 1e308, 1e-6, 1e-6)).isFalse();
  }

  @Test
  void rulesByRowAndByType() {
    assertThat(verify("\"answer_type\": \"float\", \"expected_answer\": 3, \"match\": {\"rule\": \"exact\"}",
        "((2.5))").get("reward").asDouble()).as("round(2.5) is 2, half to even").isZero();
    assertThat(verify("\"answer_type\": \"float\", \"expected_answer\": \"3\", \"match\": {\"rule\": \"exact\"}",
        "((3.4))").get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify("\"answer_type\": \"float\", \"expected_answer\": 100, \"match\": {\"rule\": \"rel_window\", "
        + "\"rel_tol\": 0.05}", "((104))").get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verify("\"answer_type\": \"float\", \"expected_answer\": 100, \"match\": {\"rule\": \"abs_window\", "
        + "\"abs_tol\": 3}", "((104))").get("reward").asDouble()).isZero();
    JsonNode string = verify("\"answer_type\": \"string\", \"expected_answer\": 2.0", "((2.0))");
    assertThat(string.get("reward").asDouble()).as("str(2.0) is '2.0'").isEqualTo(1.0);
    assertThat(string.get("abs_error").isNull()).isTrue();
    JsonNode legacy = verify("\"property_type\": \"bool\", \"expected_answer\": \"1\"", "((2))");
    assertThat(legacy.get("reward").asDouble()).as("legacy bool stays numeric: 2 is not 1").isZero();
    assertThat(legacy.get("resolved_answer_type").asString()).isEqualTo("bool");
    assertThat(legacy.get("resolved_reward_rule").asString()).isEqualTo("exact");
    JsonNode count = verify("\"property_type\": \"count\", \"expected_answer\": \"5\"", "((7))");
    assertThat(count.get("abs_error").asDouble()).isEqualTo(2.0);
    assertThat(count.get("answer_type").isNull()).as("the request's defaults are echoed").isTrue();
    assertThat(count.get("use_box_format").asBoolean()).isFalse();
    JsonNode none = verify("\"answer_type\": \"float\", \"expected_answer\": \"5\", \"match\": {\"rule\": \"nope\"}",
        "no answer");
    assertThat(none.get("reward").asDouble()).as("without a prediction the rule is never looked up").isZero();
    assertThat(none.get("predicted_value").isNull()).isTrue();
  }

  @Test
  void misconfiguredRowsAreA422NamingTheField() {
    Map<String, String> cases = Map.of(
        "\"answer_type\": \"integer\", \"expected_answer\": \"1\"", "answer_type",
        "\"expected_answer\": \"1\"", "answer_type",
        "\"answer_type\": \"float\", \"expected_answer\": \"1\", \"answer_format\": \"fmt_99\"", "answer_format",
        "\"answer_type\": \"float\", \"expected_answer\": \"1\", \"output_regex\": \"(a)(b)\"", "output_regex",
        "\"answer_type\": \"float\", \"expected_answer\": \"1\", \"match\": {\"abs_tol\": 1}", "rule",
        "\"answer_type\": \"float\", \"expected_answer\": \"1\", \"match\": {\"rule\": \"fuzzy\"}", "rule",
        "\"answer_type\": \"float\", \"expected_answer\": \"one\"", "expected_answer");
    cases.forEach((fields, named) -> {
      var reply = harness().post("/verify", request(fields, "((1))"), Map.of());
      assertThat(reply.status()).as(fields).isEqualTo(422);
      assertThat(reply.text()).as(fields).contains(named).doesNotContain("Exception");
    });
  }

  @Test
  void thePythonToolKeepsStatePerRolloutInTheSandboxAndNeverScores() {
    Map<String, String> one = harness().post("/seed_session", Json.parse("{}"), Map.of()).cookies();
    Map<String, String> two = harness().post("/seed_session", Json.parse("{}"), Map.of()).cookies();
    var first = harness().post("/stateful_python_code_exec", Json.parse("{\"code\": \"x = 6 * 7\"}"), one);
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.text()).isEmpty();
    assertThat(harness().post("/stateful_python_code_exec", Json.parse("{\"code\": \"print(x)\"}"), one).text())
        .isEqualTo("42\n");
    assertThat(harness().post("/stateful_python_code_exec", Json.parse("{\"code\": \"print(x)\"}"), two).text())
        .contains("name 'x' is not defined");
    String network = harness().post("/stateful_python_code_exec", Json.parse("{\"code\": \"import socket\\n"
        + "socket.create_connection(('1.1.1.1', 53), timeout=2)\"}"), two).text();
    assertThat(network).as("no network in the sandbox").containsAnyOf("Network is unreachable", "Errno");
    var hang = harness().post("/stateful_python_code_exec", Json.parse("{\"code\": \"while True: pass\"}"), two);
    assertThat(hang.status()).isEqualTo(200);
    assertThat(hang.text()).contains("timed-out");
    // the verdict reads only the response: a tool printing the answer changes nothing
    harness().post("/stateful_python_code_exec", Json.parse("{\"code\": \"print('((3))')\"}"), one);
    var verdict = harness().post("/verify", request("\"answer_type\": \"float\", \"expected_answer\": \"3\"",
        "I do not know"), one);
    assertThat(verdict.json().get("reward").asDouble()).isZero();
  }

  private JsonNode verify(String fields, String text) {
    var reply = harness().post("/verify", request(fields, text), Map.of());
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }

  private static JsonNode request(String fields, String text) {
    return Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, " + fields + ", \"response\": {\"output\": "
        + "[{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
        + Json.write(text) + "}]}]}}");
  }
}
