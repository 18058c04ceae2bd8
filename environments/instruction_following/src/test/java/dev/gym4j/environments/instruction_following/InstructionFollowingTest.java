package dev.gym4j.environments.instruction_following;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class InstructionFollowingTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "instruction_following";
  }

  @Test
  void everyInstructionGetsTheRecordedVerdict() {
    for (JsonNode row : Json.readLines(fixture("example_rollouts.jsonl"))) {
      JsonNode verdict = harness().verify(row);
      assertThat(verdict.get("follow_instruction_list")).as(row.get("instruction_id_list").toString())
          .isEqualTo(row.get("follow_instruction_list"));
      assertThat(verdict.get("follow_all_instructions")).isEqualTo(row.get("follow_all_instructions"));
    }
  }

  private static ObjectNode request(String ids, String kwargs, String text) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"instruction_id_list\": " + ids
        + ", \"kwargs\": " + kwargs + ", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(text) + "}]}]}}");
  }

  @Test
  void fractionModeUnderVerifierMetadataScoresTheShareFollowed() {
    ObjectNode row = (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"verifier_metadata\": {\"instruction_id_list\": [\"punctuation:no_comma\", \"startend:quotation\", "
        + "\"keywords:palindrome\"], \"kwargs\": [null, {}, {\"unused\": null}], \"grading_mode\": \"fraction\"}, "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": \"\\\"no commas here\\\"\"}]}]}}");
    JsonNode verdict = harness().post("/verify", row, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isCloseTo(2.0 / 3, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(verdict.get("follow_instruction_list").toString()).isEqualTo("[true,true,false]");
  }

  @Test
  void looseResultsForgiveAPreambleAndMarkdown() {
    JsonNode verdict = harness().post("/verify", request("[\"startend:quotation\"]", "[null]",
        "Sure, here it is:\n\"quoted answer\""), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("follow_instruction_list_loose").get(0).asBoolean()).isTrue();
  }

  @Test
  void anUnknownIdIsNotFollowedButBadKwargsAreA422NamingTheKwarg() {
    JsonNode unknown = harness().post("/verify", request("[\"keywords:key_sentences\", \"punctuation:no_comma\"]",
        "[{}, {}]", "fine"), Map.of()).json();
    assertThat(unknown.get("follow_instruction_list").toString()).isEqualTo("[false,true]");
    HttpReply missing = harness().post("/verify", request("[\"length_constraints:number_words\"]",
        "[{\"relation\": \"at least\"}]", "a few words"), Map.of());
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.text()).contains("num_words").contains("kwargs");
    HttpReply relation = harness().post("/verify", request("[\"length_constraints:number_words\"]",
        "[{\"num_words\": 3, \"relation\": \"at most\"}]", "a few words"), Map.of());
    assertThat(relation.status()).isEqualTo(422);
    assertThat(relation.text()).contains("relation");
    HttpReply noIds = harness().post("/verify", (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": "
        + "\"q\"}, \"response\": {\"output\": []}}"), Map.of());
    assertThat(noIds.status()).isEqualTo(422);
    assertThat(noIds.text()).contains("instruction_id_list");
  }

  @Test
  void theTextIsTheLastItemsFirstPart() {
    ObjectNode row = request("[\"punctuation:no_comma\"]", "[null]", "first, with a comma");
    ((tools.jackson.databind.node.ArrayNode) row.get("response").get("output")).add(Json.parse(
        "{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
            + "\"last without\"}, {\"type\": \"output_text\", \"text\": \"second, part\"}]}"));
    assertThat(harness().post("/verify", row, Map.of()).json().get("reward").asDouble()).isEqualTo(1.0);
    ((tools.jackson.databind.node.ArrayNode) row.get("response").get("output")).add(Json.parse(
        "{\"type\": \"reasoning\", \"id\": \"r\", \"summary\": []}"));
    JsonNode empty = harness().post("/verify", row, Map.of()).json();
    assertThat(empty.get("reward").asDouble()).as("the last item has no content: the text is empty")
        .isEqualTo(1.0);
  }
}
