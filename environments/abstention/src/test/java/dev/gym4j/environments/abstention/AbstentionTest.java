package dev.gym4j.environments.abstention;

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
 * NeMo Gym's abstention rollouts (resources_servers/abstention/data/example_rollouts.jsonl) with the recorded
 * judge texts ({@code judge_output}; none for the \boxed{[IDK]} row, which needs no judge) replayed.
 */
class AbstentionTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "abstention";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    JsonNode judged = recorded.path("judge_output");
    return judged.isString() ? List.of(Answer.text(judged.stringValue())) : List.of();
  }

  private static ObjectNode row(String answer) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": "
        + "\"q\"}]}, \"question\": \"Who?\", \"answer\": \"Carl Ginet\", \"response\": {\"output\": [{\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
        + Json.write(answer) + "}]}]}}");
  }

  @Test
  void theVerdictFieldsMatchTheRecordings() {
    for (JsonNode row : Json.readLines(fixture("example_rollouts.jsonl"))) {
      judgeAnswers(row).forEach(harness().model()::enqueue);
      JsonNode verdict = harness().verify(row);
      for (String field : List.of("extracted_answer", "ground_truth", "verdict", "judge_output", "is_correct",
          "is_abstain", "is_incorrect", "omniscience_index")) {
        assertThat(verdict.get(field)).as(field).isEqualTo(row.get(field));
      }
    }
  }

  @Test
  void notAttemptedIsAnAbstentionAndTheAbstentionTokenNeedsNoJudge() {
    harness().model().enqueue(Answer.text("C"));
    JsonNode judged = harness().post("/verify", row("I am not sure, maybe \\boxed{Goldman}"), Map.of()).json();
    assertThat(judged.get("reward").asDouble()).isEqualTo(0.5);
    assertThat(judged.get("verdict").asString()).isEqualTo("abstain");

    int before = harness().model().calls();
    JsonNode abstained = harness().post("/verify", row("<think>no idea</think>\\boxed{ [idk] }"), Map.of()).json();
    assertThat(abstained.get("reward").asDouble()).isEqualTo(0.5);
    assertThat(abstained.get("judge_output").isNull()).isTrue();
    assertThat(harness().model().calls()).isEqualTo(before);
  }

  @Test
  void aJudgeWithoutAGradeFailsTheRolloutNotAZero() {
    harness().model().enqueue(Answer.text("no grade here"));
    HttpReply reply = harness().post("/verify", row("\\boxed{Goldman}"), Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("judge_unparseable");
  }
}
