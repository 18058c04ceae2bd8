package dev.gym4j.environments.bird_sql;

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
 * Against NeMo Gym's resources_servers/bird_sql/app.py and eval_utils.py (main, 2026-08-22) and its recorded
 * rollouts, run on the fixture database (the recorded rewards came from BIRD dev's full california_schools;
 * NeMo Gym's own code gives the same five verdicts on the fixture). The recording predates the verify fields,
 * so only their presence is checked there; their values are checked below.
 */
class BirdSqlTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "bird_sql";
  }

  @Override
  protected List<String> verifyFields() {
    return BirdSql.FIELDS;
  }

  private static ObjectNode row(String answer, String gold) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"question\": \"q\", "
        + "\"gt_sql\": " + Json.write(gold) + ", \"db_id\": \"california_schools\", \"difficulty\": \"simple\", "
        + "\"id\": \"7\", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": " + Json.write(answer) + "}]}]}}");
  }

  @Test
  void theLastSqlBlockIsTakenAsNemoGymTakesIt() {
    // app.py extract_sql_from_response / has_sql_codeblock
    assertThat(BirdSql.sqlBlocks("```sql\nSELECT 1\n``` then ```sql\nSELECT 2\n```")).hasSize(2);
    assertThat(BirdSql.sqlBlocks("```sql\n123\n``` x ```")).containsExactly("\n123\n``` x ");
    assertThat(BirdSql.sqlBlocks("```sql 1 2 3")).isEmpty();
    assertThat(BirdSql.clean("**Query**\nSELECT a /* note */ FROM t\n")).isEqualTo("SELECT a FROM t");
    assertThat(BirdSql.clean("\n**Query**\nSELECT a")).as("the header only at the very start").isEqualTo("**Query** SELECT a");
    assertThat(BirdSql.clean("SELECT a -- first\nFROM t")).as("`--` eats to the end of the text").isEqualTo("SELECT a");
  }

  @Test
  void resultSetsCompareAsPythonSetsOfTuples() {
    // eval_utils.py result_sets_match: set(gold) == set(pred)
    assertThat(BirdSql.sameRows(List.of(List.of(1L), List.of(2L)), List.of(List.of(2.0), List.of(1L), List.of(1L))))
        .isTrue();
    assertThat(BirdSql.sameRows(List.of(Arrays.asList((Object) null)), List.of(List.of(0L)))).isFalse();
    assertThat(BirdSql.sameRows(List.of(List.of("1")), List.of(List.of(1L)))).isFalse();
    assertThat(BirdSql.sameRows(List.of(List.of(0.1 + 0.2)), List.of(List.of(0.3)))).as("floats exactly").isFalse();
  }

  @Test
  void fieldsAreNemoGyms() {
    JsonNode verdict = harness().post("/verify", row("```sql\nSELECT `County Name` FROM frpm LIMIT 1\n```",
        "SELECT 'Alameda'"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("failure_reason").asString()).isEqualTo("none");
    assertThat(verdict.get("id").asInt()).as("NeMo Gym's Optional[int] id").isEqualTo(7);
    assertThat(verdict.get("had_codeblock").asBoolean()).isTrue();

    JsonNode none = harness().post("/verify", row("I don't know.", "SELECT 2"), Map.of()).json();
    assertThat(none.get("extracted_sql").asString()).isEqualTo("SELECT 1");
    assertThat(none.get("failure_reason").asString()).isEqualTo("no_sql_extracted");

    JsonNode broken = harness().post("/verify", row("```sql\nSELECT nope FROM nowhere\n```", "SELECT 2"), Map.of())
        .json();
    assertThat(broken.get("failure_reason").asString()).isEqualTo("execution_error");
    assertThat(broken.get("reward").asDouble()).isZero();
  }

  @Test
  void aMissingDatabaseIsAFailureAndAFailingGoldQueryA422() {
    ObjectNode elsewhere = row("```sql\nSELECT 1\n```", "SELECT 1");
    elsewhere.put("db_id", "formula_1");
    HttpReply missing = harness().post("/verify", elsewhere, Map.of());
    assertThat(missing.status()).isEqualTo(503);
    assertThat(missing.text()).contains("formula_1").contains("README");

    ObjectNode escape = row("```sql\nSELECT 1\n```", "SELECT 1");
    escape.put("db_id", "../../etc");
    assertThat(harness().post("/verify", escape, Map.of()).status()).isEqualTo(503);

    HttpReply badGold = harness().post("/verify", row("```sql\nSELECT 1\n```", "SELECT * FROM missing"), Map.of());
    assertThat(badGold.status()).isEqualTo(422);
    assertThat(badGold.text()).contains("gt_sql").doesNotContain("java.");
  }
}
