package dev.gym4j.environments.structeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Against NeMo Gym's resources_servers/structeval/app.py (main, 2026-08-22) and both of its recorded
 * rollout files; expected values below are what Python's codecs, csv, pyexpat and xmltodict give.
 */
class StructevalTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "structeval";
  }

  @Override
  protected List<String> rolloutFiles() {
    return List.of("example_rollouts.jsonl", "structeval_nonrenderable_example_rollouts.jsonl");
  }

  @Override
  protected String taskFile(String rolloutFile) {
    return rolloutFile.startsWith("structeval_nonrenderable") ? "structeval_nonrenderable_example.jsonl"
        : "example.jsonl";
  }

  @Override
  protected List<String> verifyFields() {
    return Structeval.FIELDS;
  }

  @Test
  void expatMessagesAndPositions() {
    assertExpat("<|BEGIN", "not well-formed (invalid token): line 1, column 1");
    assertExpat("<a>\n  <|x</a>", "not well-formed (invalid token): line 2, column 3");
    assertExpat("<a>< b/></a>", "not well-formed (invalid token): line 1, column 4");
    assertExpat("<a>x</b>", "mismatched tag: line 1, column 6");
    assertExpat("<a>", "no element found: line 1, column 3");
    assertExpat("text", "syntax error: line 1, column 0");
    assertExpat("<a/><b/>", "junk after document element: line 1, column 4");
    assertExpat("<a>&foo;</a>", "undefined entity: line 1, column 3");
    assertExpat("<a>\n\n <b>\n</a>", "mismatched tag: line 4, column 2");
    assertExpat("<a b=1/>", "not well-formed (invalid token): line 1, column 5");
    assertExpat("<a>x &amp y</a>", "not well-formed (invalid token): line 1, column 9");
  }

  @Test
  void xmlAsXmltodictBuildsIt() {
    var parsed = XmlToDict.parse("<r a=\"1\"><i>x</i><i/><j>t<k/>u</j> tail </r>");
    assertThat(Json.toTree(parsed)).isEqualTo(Json.parse(
        "{\"r\": {\"@a\": \"1\", \"i\": [\"x\", null], \"j\": {\"k\": null, \"#text\": \"tu\"}, \"#text\": \"tail\"}}"));
  }

  @Test
  void unicodeEscapeAsPythonsCodec() {
    assertThat(Code.unicodeEscape("é\\n")).isEqualTo("Ã©\n");
    assertThat(Code.unicodeEscape("a\\u00e9b")).isEqualTo("aéb");
    assertThat(Code.unicodeEscape("x\\qy")).isEqualTo("x\\qy");
    assertThat(Code.unicodeEscape("bad \\x4")).isNull();
    assertThat(Code.unicodeEscape("line\\\nnext")).isEqualTo("linenext");
    assertThat(Code.unicodeEscape("\\N{BULLET}")).isEqualTo("•");
  }

  @Test
  void codeBlocksFencesFirstThenBeginCode() {
    assertThat(Code.extract("<|BEGIN_CODE|>\n{\"a\": 1}\n<|END_CODE|>")).isEqualTo("{\"a\": 1}");
    assertThat(Code.extract("<|begin_code|> x")).isEqualTo("x");
    assertThat(Code.extract("<|BEGIN_CODE|>a<|END_CODE|> ```json\n{}\n``` ")).isEqualTo("{}");
    assertThat(Code.extract("```json {} ```")).isEqualTo("```json {} ```");
  }

  @Test
  void csvAsDictReader() {
    Map<String, Object> csv = Content.Csv.dictReader("h1,h2\n1,2,3\n\n4");
    assertThat(csv.get("csv_headers")).isEqualTo(List.of("h1", "h2"));
    List<?> rows = (List<?>) csv.get("csv_rows");
    assertThat(rows).hasSize(2);
    Map<?, ?> first = (Map<?, ?>) rows.get(0);
    assertThat(first.get("h1")).isEqualTo("1");
    assertThat(first.get(null)).isEqualTo(List.of("3"));
    assertThat(((Map<?, ?>) rows.get(1)).get("h2")).isNull();
    assertThat(Content.Csv.records("\"ab\"cd,e").getFirst()).containsExactly("abcd", "e");
    assertThat(Content.Csv.records("a,\"b").getFirst()).containsExactly("a", "b");
    assertThat(Content.parse("x\ry\n", "csv").errorMessage()).startsWith("Error: new-line character seen");
  }

  @Test
  void pathsWithWildcardsIndicesAttributesAndCsvHeaders() {
    Object data = Content.parse("{\"a\": {\"b.c\": [1, {\"d\": 2}]}, \"id\": 3}", "json").value();
    assertThat(Paths.exists(data, "a.`b.c`[1].d")).isTrue();
    assertThat(Paths.exists(data, "a.`b.c`.*.d")).isTrue();
    assertThat(Paths.exists(data, "a.`b.c`[2]")).isFalse();
    assertThat(Paths.exists(data, "@id")).isTrue();
    assertThat(Paths.exists(Content.parse("x,y\n1,2", "csv").value(), "csv::y")).isTrue();
    assertThatThrownBy(() -> Paths.tokens("a[1")).isInstanceOf(dev.gym4j.json.FieldError.class)
        .hasMessageContaining("unclosed '['");
  }

  @Test
  void emptyAndFalsyResults() {
    assertThat(Content.parse("{}", "json").errorMessage()).isEqualTo("Parsed result is empty");
    assertThat(Content.parse("0", "json").errorType()).isEqualTo("parse_error");
    assertThat(Content.parse("a: 1", "yaml").ok()).isTrue();
    assertThat(Content.parse("a = 1", "toml").ok()).isTrue();
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"task_id\": \"1\", \"task_name\": \"t\", \"input_type\": \"Text\", \"output_type\": \"JSON\", "
        + "\"raw_output_metric\": [\"a\"], \"response\": {\"output\": []}}"), Map.of()).json();
    assertThat(verdict.get("error_type").asString()).isEqualTo("empty_response");
    assertThat(verdict.get("rendering").asBoolean()).isFalse();
  }

  private static void assertExpat(String xml, String message) {
    assertThatThrownBy(() -> XmlToDict.parse(xml)).as(xml).hasMessage(message);
  }
}
