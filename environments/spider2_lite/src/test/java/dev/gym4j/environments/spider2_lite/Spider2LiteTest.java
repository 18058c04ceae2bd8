package dev.gym4j.environments.spider2_lite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/spider2_lite/app.py and eval_utils.py (main, 2026-08-22) and its recorded
 * rollouts, run on the fixture databases (the recorded rewards came from Spider 2.0-Lite's databases; NeMo Gym's
 * own code gives the same five verdicts, and extracts the same five queries, on the fixtures).
 */
class Spider2LiteTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "spider2_lite";
  }

  @Override
  protected List<String> verifyFields() {
    return Spider2Lite.FIELDS;
  }

  private static ObjectNode row(String answer, String gold) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"instance_id\": \"x1\", "
        + "\"db_id\": \"IPL\", \"question\": \"q\", \"gold_sql\": " + Json.write(gold) + ", \"ignore_order\": true, "
        + "\"condition_cols\": [], \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(answer) + "}]}]}}");
  }

  @Test
  void queriesAreExtractedAsNemoGymExtractsThem() {
    // app.py extract_sql_from_response
    assertThat(Spider2Lite.extractSql("```SQL\n SELECT 1 \n``` and ```sql\nSELECT 2;\n```")).isEqualTo("SELECT 2;");
    assertThat(Spider2Lite.extractSql("```\nnot sql\n```\n```\nwith x as (select 1) select * from x\n```"))
        .isEqualTo("with x as (select 1) select * from x");
    assertThat(Spider2Lite.extractSql("Start with the table; then SELECT a FROM t;;")).as("'with ' counts")
        .isEqualTo("with the table; then SELECT a FROM t;");
    assertThat(Spider2Lite.extractSql("no query here")).isNull();
  }

  @Test
  void columnsCompareAsSpiderComparesThem() {
    // eval_utils.py compare_result_sets: gold columns among predicted ones, numbers within 0.01, strings coerced
    List<List<Object>> gold = List.of(List.of("Asha", "2021"), List.of("Ben", "3.5"));
    assertThat(ResultSets.matches(gold, List.of(List.of(2021L, "Asha", 9L), List.of(3.504, "Ben", 1L)), List.of(), true))
        .isTrue();
    assertThat(ResultSets.matches(gold, List.of(List.of(2021L, "Asha"), List.of(3.6, "Ben")), List.of(), true)).isFalse();
    assertThat(ResultSets.matches(gold, List.of(List.of("Ben", 3.5), List.of("Asha", 2021L)), List.of(), false))
        .as("order kept").isFalse();
    assertThat(ResultSets.matches(gold, List.of(List.of("Ben", 1L), List.of("Asha", 1L)), List.of(0), true))
        .as("condition_cols: only column 0").isTrue();
    assertThat(ResultSets.matches(List.of(Arrays.asList((Object) null)), List.of(List.of(0L)), List.of(), true))
        .as("null is 0").isTrue();
    assertThat(ResultSets.matches(List.of(), List.of(), List.of(), true)).isTrue();
    assertThat(ResultSets.matchesAny(List.of(List.of(List.of(1L)), List.of(List.of(2L))), List.of(List.of(2L)),
        null, true)).as("any gold set").isTrue();
  }

  @Test
  void goldResultSetsStandInForGoldSql() {
    ObjectNode body = row("```sql\nSELECT player_name FROM player WHERE player_id = 1\n```", "");
    body.remove("gold_sql");
    body.set("gold_result", Json.parse("[[[\"Nobody\"]], [[\"Asha Rao\"]]]"));
    JsonNode verdict = harness().post("/verify", body, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("failure_reason").asString()).isEqualTo("none");

    body.remove("gold_result");
    HttpReply neither = harness().post("/verify", body, Map.of());
    assertThat(neither.status()).isEqualTo(422);
    assertThat(neither.text()).contains("gold_sql");
  }

  @Test
  void failuresAreNamed() {
    JsonNode none = harness().post("/verify", row("I cannot tell.", "SELECT 1"), Map.of()).json();
    assertThat(none.get("failure_reason").asString()).isEqualTo("no_sql_extracted");
    assertThat(none.get("extracted_sql").isNull()).isTrue();

    JsonNode write = harness().post("/verify", row("```sql\nDELETE FROM player\n```", "SELECT 1"), Map.of()).json();
    assertThat(write.get("failure_reason").asString()).isEqualTo("execution_error");
    JsonNode still = harness().post("/verify", row("```sql\nSELECT count(*) FROM player\n```",
        "SELECT 3"), Map.of()).json();
    assertThat(still.get("reward").asDouble()).as("the DELETE changed nothing").isEqualTo(1.0);

    ObjectNode elsewhere = row("```sql\nSELECT 1\n```", "SELECT 1");
    elsewhere.put("db_id", "Baseball");
    HttpReply missing = harness().post("/verify", elsewhere, Map.of());
    assertThat(missing.status()).isEqualTo(503);
    assertThat(missing.text()).contains("Baseball").contains("README");

    ObjectNode escape = row("```sql\nSELECT 1\n```", "SELECT 1");
    escape.put("db_id", "../IPL");
    assertThat(harness().post("/verify", escape, Map.of()).status()).isEqualTo(503);
  }
}
