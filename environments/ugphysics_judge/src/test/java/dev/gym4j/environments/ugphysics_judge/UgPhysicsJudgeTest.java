package dev.gym4j.environments.ugphysics_judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.RecordedRolloutsTest;
import dev.gym4j.testkit.Replay;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's ugphysics_judge rollouts (resources_servers/ugphysics_judge/data/example_rollouts.jsonl): all
 * five pass the library check (extracted_verdict TRUE), so no judge is asked; the judge's own path is tested
 * with a scripted judge.
 */
class UgPhysicsJudgeTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "ugphysics_judge";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return Replay.judgeAnswers(recorded);
  }

  private static ObjectNode row(String expected, String modelText) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"question\": \"How hot?\", "
        + "\"solution\": \"By the ideal gas law.\", \"subject\": \"Thermodynamics\", \"expected_answer\": "
        + Json.write(expected) + ", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", "
        + "\"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(modelText) + "}]}]}}");
  }

  @Test
  void theRecordedVerdictLabelsComeOutToo() {
    for (JsonNode row : Json.readLines(fixture("example_rollouts.jsonl"))) {
      assertThat(harness().verify(row).get("extracted_verdict").asString())
          .isEqualTo(row.get("extracted_verdict").asString());
    }
  }

  @Test
  void theJudgeSeesTheReferenceSolutionAndItsJudgementIsTheReward() {
    harness().model().enqueue(Answer.text("Off by a factor.\n## Equivalence Judgement\nFALSE\nnot TRUE"));
    JsonNode verdict = harness().post("/verify", row("300 K", "\\boxed{600 K}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("extracted_verdict").asString()).isEqualTo("FALSE");
    assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/messages/0/content").asString())
        .contains("Reference solution: By the ideal gas law.", "Student's answer: \\boxed{600 K}");
  }

  @Test
  void judgementsAreReadAsNemoGymReadsThem() {
    assertThat(UgPhysicsJudge.judgement("## Equivalence Judgement\n  true")).contains(true);
    assertThat(UgPhysicsJudge.judgement("maybe TRUE, on reflection False.")).contains(false);
    assertThat(UgPhysicsJudge.judgement("TRUEISH")).isEmpty();
  }

  @Test
  void aJudgeWithoutAJudgementFailsTheRolloutNotAZero() {
    harness().model().enqueue(Answer.text("Hard to say."));
    HttpReply reply = harness().post("/verify", row("3", "\\boxed{4}"), Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("judge_unparseable");
  }
}
