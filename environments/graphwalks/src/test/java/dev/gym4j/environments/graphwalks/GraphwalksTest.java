package dev.gym4j.environments.graphwalks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/graphwalks/app.py (main, 2026-08-22) and its recorded rollouts. */
class GraphwalksTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "graphwalks";
  }

  @Override
  protected List<String> verifyFields() {
    return Graphwalks.FIELDS;
  }

  @Test
  void theLastNonEmptyLineMustHoldTheList() {
    assertThat(NodeList.parse("Final Answer: [a, b]\n\n  \n", false)).isEqualTo(new NodeList(List.of("a", "b"), false));
    assertThat(NodeList.parse("Final Answer: [a]\nthat's all", false).parseFailed()).isTrue();
    assertThat(NodeList.parse("Final Answer: [ ]", false)).isEqualTo(new NodeList(List.of(), false));
    assertThat(NodeList.parse("", false).parseFailed()).isTrue();
    // quotes stay in graphwalks and go in lc_niah
    assertThat(NodeList.parse("Final Answer: [\"a\", 'b']", false).nodes()).containsExactly("\"a\"", "'b'");
    assertThat(NodeList.parse("Final Answer: [\"a\", 'b']", true).nodes()).containsExactly("a", "b");
    // Python's '.' matches a carriage return, and the greedy group runs to the last bracket
    assertThat(NodeList.parse("Final Answer: [a,\r b] [c]", false).nodes()).containsExactly("a", "b] [c");
  }

  @Test
  void f1OverSetsWithPythonsReadingOfTheExpectedAnswer() {
    Set<String> expected = NodeList.expected("[\"a\", \"b\", \"c\"]");
    assertThat(new NodeList(List.of("a", "a", "d"), false).f1(expected)).isEqualTo(0.4);
    assertThat(new NodeList(List.of(), false).f1(NodeList.expected("[]"))).isEqualTo(1.0);
    assertThat(new NodeList(List.of(), true).f1(NodeList.expected("[]"))).isZero();
    assertThat(NodeList.expected("not json")).isEmpty();
    assertThat(NodeList.expected("\"ab\"")).containsExactlyInAnyOrder("a", "b");
    assertThat(NodeList.expected("[1, \"1\"]")).hasSize(2).contains("1");
  }

  @Test
  void aMissingProblemTypeIsA422AndAbsentOptionalFieldsAreNull() {
    JsonNode row = Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"expected_answer\": \"[]\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": \"Final Answer: []\"}]}]}}");
    HttpReply missing = harness().post("/verify", row, Map.of());
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.text()).contains("problem_type");
    ((tools.jackson.databind.node.ObjectNode) row).put("problem_type", "bfs");
    JsonNode verdict = harness().post("/verify", row, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("n_tokens").isNull()).isTrue();
    assertThat(verdict.get("prompt_chars").isNull()).isTrue();
  }
}
