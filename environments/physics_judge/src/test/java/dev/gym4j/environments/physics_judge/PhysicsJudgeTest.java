package dev.gym4j.environments.physics_judge;

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
 * NeMo Gym's physics_judge rollouts (resources_servers/physics_judge/data/example_rollouts.jsonl): all five
 * pass the library check, so no judge is asked; the judge's own path is tested with a scripted judge.
 */
class PhysicsJudgeTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "physics_judge";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return Replay.judgeAnswers(recorded);
  }

  private static ObjectNode row(String expected, String modelText) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"question\": \"How fast?\", "
        + "\"expected_answer\": " + Json.write(expected) + ", \"response\": {\"output\": [{\"type\": \"message\", "
        + "\"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(modelText)
        + "}]}]}}");
  }

  @Test
  void theJudgeSeesTheWholeOutputOnChatCompletionsAndItsVerdictIsTheReward() {
    harness().model().enqueue(Answer.text("Same speed. [CORRECT]"));
    JsonNode verdict = harness().post("/verify", row("v_0 e^{-kt}", "It halves every ln2/k: \\boxed{v(t)}"),
        Map.of()).json();
    assertThat(verdict.get("library_reward").asDouble()).isZero();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(harness().model().received().getLast().path()).isEqualTo("/v1/chat/completions");
    assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/messages/0/content").asString())
        .contains("Output: It halves every ln2/k: \\boxed{v(t)}", "Correct answer: v_0 e^{-kt}");
  }

  @Test
  void verdictsAreReadAsNemoSkillsReadsThem() {
    // resources_servers/physics_judge/app.py: [correct] anywhere, any case, wins
    assertThat(PhysicsJudge.verdict("[Incorrect] at first, then [Correct]")).contains(true);
    assertThat(PhysicsJudge.verdict("so: [incorrect]")).contains(false);
    assertThat(PhysicsJudge.verdict("correct")).isEmpty();
  }

  @Test
  void aJudgeWithoutAVerdictFailsTheRolloutNotAZero() {
    harness().model().enqueue(Answer.text("Looks fine."));
    HttpReply reply = harness().post("/verify", row("3", "\\boxed{4}"), Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("judge_unparseable");
  }
}
