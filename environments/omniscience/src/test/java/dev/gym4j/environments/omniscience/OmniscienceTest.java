package dev.gym4j.environments.omniscience;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's omniscience rollouts (resources_servers/omniscience/data/example_rollouts.jsonl) with the
 * recorded judge texts ({@code judge_output}) replayed.
 */
class OmniscienceTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "omniscience";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return List.of(Answer.text(recorded.get("judge_output").asString()));
  }

  private static ObjectNode row(String answer) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": "
        + "\"q\"}]}, \"question\": \"When?\", \"expected_answer\": \"1991\", \"response\": {\"output\": [{\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
        + Json.write(answer) + "}]}]}}");
  }

  @Test
  void theAnswerShownToTheJudgeAndTheVerdictFieldsMatchTheRecordings() {
    for (JsonNode row : EnvironmentRows.of(this)) {
      List.of(Answer.text(row.get("judge_output").asString())).forEach(harness().model()::enqueue);
      JsonNode verdict = harness().verify(row);
      for (String field : List.of("verdict", "is_correct", "is_incorrect", "is_partial", "is_not_attempted",
          "omniscience_index", "is_hallucination")) {
        assertThat(verdict.get(field)).as(field).isEqualTo(row.get(field));
      }
      // line 3 was cut at max_output_tokens mid-reasoning, with no <think> tag in its text: it was recorded
      // with an empty answer, which current NeMo Gym (app.py: only an unclosed <think> empties it) would not give
      if (!row.at("/response/incomplete_details/reason").asString("").equals("max_output_tokens")) {
        assertThat(verdict.get("extracted_answer")).isEqualTo(row.get("extracted_answer"));
      }
    }
  }

  @Test
  void reasoningIsRemovedAndUnfinishedReasoningLeavesNoAnswer() {
    assertThat(Omniscience.withoutThinking("<think>hmm</think> 1991")).isEqualTo("1991");
    assertThat(Omniscience.withoutThinking("hmm</think>1991")).isEqualTo("1991");
    harness().model().enqueue(Answer.text("D"));
    JsonNode verdict = harness().post("/verify", row("<think>let me think about 1991"), Map.of()).json();
    assertThat(verdict.get("extracted_answer").asString()).isEmpty();
    assertThat(verdict.get("verdict").asString()).isEqualTo("not_attempted");
  }

  @Test
  void gradesAreReadAsNemoGymReadsThem() {
    assertThat(Omniscience.grade(" C ")).contains("C");
    assertThat(Omniscience.grade("reasoning...\nD")).contains("D");
    assertThat(Omniscience.grade("Clearly wrong")).contains("C");
    assertThat(Omniscience.grade("no grade here")).isEmpty();
  }

  @Test
  void aJudgeWithoutAGradeFailsTheRolloutNotAZero() {
    harness().model().enqueue(Answer.text("no grade here"));
    HttpReply reply = harness().post("/verify", row("1991"), Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("judge_unparseable");
  }

  /** The recorded rollouts (their rows carry every task field). */
  static final class EnvironmentRows {
    static List<JsonNode> of(OmniscienceTest test) {
      return Json.readLines(fixture("example_rollouts.jsonl"));
    }
  }
}
