package dev.gym4j.environments.simpleqa;

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
 * NeMo Gym's simpleqa rollouts (resources_servers/simpleqa/data/example_rollouts.jsonl) with the recorded
 * judge texts ({@code judge_output}) replayed on /v1/chat/completions.
 */
class SimpleQaTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "simpleqa";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return List.of(Answer.text(recorded.get("judge_output").asString()));
  }

  /**
   * Every recorded judge text begins "After reviewing…": NeMo Gym main's parse_judge_grade takes that first
   * "A", so it grades all five correct; lines 4 and 5 were recorded 0 by an older parser (INDEX.md).
   */
  @Override
  protected double expectedReward(String file, int line, JsonNode recorded) {
    return 1.0;
  }

  private static ObjectNode row(String answer) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": "
        + "\"Capital of France?\"}]}, \"question\": \"Capital of France?\", \"expected_answer\": \"Paris\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": " + Json.write(answer) + "}]}]}}");
  }

  @Test
  void gradesAreReadAsNemoGymReadsThem() {
    // resources_servers/simpleqa/tests/test_app.py
    assertThat(SimpleQa.grade("  B  ")).contains("B");
    assertThat(SimpleQa.grade("Some reasoning\nA")).contains("A");
    assertThat(SimpleQa.grade("The grade is A based on analysis")).contains("A");
    assertThat(SimpleQa.grade("C, NOT_ATTEMPTED")).contains("C");
    assertThat(SimpleQa.grade("no clear grade here")).isEmpty();
  }

  @Test
  void theVerdictTiersAndTheJudgeExchangeAreInTheVerifyResponse() {
    harness().model().enqueue(Answer.text("B"));
    JsonNode verdict = harness().post("/verify", row("Lyon"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("verdict").asString()).isEqualTo("incorrect");
    assertThat(verdict.get("is_incorrect").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("extracted_answer").asString()).isEqualTo("Lyon");
    assertThat(verdict.get("judge_output").asString()).isEqualTo("B");
    assertThat(harness().model().received().getLast().path()).isEqualTo("/v1/chat/completions");
    assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/max_tokens").asInt()).isEqualTo(2048);
    assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/messages/0/content").asString())
        .contains("Predicted answer: Lyon", "Gold target: Paris");
  }

  @Test
  void aJudgeWithoutAGradeFailsTheRolloutNotAZero() {
    harness().model().enqueue(Answer.text("no clear grade here"));
    HttpReply reply = harness().post("/verify", row("Paris"), Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("judge_unparseable");
  }
}
