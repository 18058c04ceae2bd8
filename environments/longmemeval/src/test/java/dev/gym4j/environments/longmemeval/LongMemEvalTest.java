package dev.gym4j.environments.longmemeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.JudgedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's longmemeval rollouts (resources_servers/longmemeval/data/example_rollouts.jsonl) with the recorded
 * judge replies ({@code judge_raw}) replayed, by the scripted judge and by replay_model. Rules from
 * resources_servers/longmemeval/app.py. NeMo Gym records the judge's reply but not its prompt:
 * data/example_judge_prompts.jsonl holds the prompts NeMo Gym's code builds for those rows, made once with
 * Python (build_judge_prompt with the recorded answer), compared here byte for byte.
 */
class LongMemEvalTest extends JudgedRolloutsTest {
  @Override
  protected String environment() {
    return "longmemeval";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return List.of(Answer.text(recorded.get("judge_raw").asString()));
  }

  @Override
  protected List<String> recordedFields() {
    return List.of("question_id", "question_type", "abstention", "judge_label", "judge_raw", "judge_error",
        "empty_response", "generation");
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Override
  protected JudgedCase judgedCase() {
    ObjectNode request = verifyRequest("{\"verifier_metadata\": {\"question_id\": \"q1\", \"question_type\": "
        + "\"multi-session\", \"question\": \"Where did I move?\", \"answer\": \"Lisbon\"}}", "You moved to Lisbon.");
    return new JudgedCase(request, Answer.text("yes"), Answer.text("   "));
  }

  @Test
  void theFilledPromptIsTheOneNemoGymsCodeBuildsForEachRecordedRow() {
    for (JsonNode verdict : verifyWithNemoGymsJudgePrompts(RESPONSES_JUDGE_PROMPT, row -> true)) {
      assertThat(verdict.at("/judge_evaluations/0/responses_create_params/max_output_tokens").asInt()).isEqualTo(64);
    }
  }

  @Test
  void thinkingIsStrippedAsNemoGymStripsIt() {
    assertThat(LongMemEval.stripThink("a <think>b</think> c")).isEqualTo("a  c");
    assertThat(LongMemEval.stripThink("answer <think>unfinished")).isEqualTo("answer");
    assertThat(LongMemEval.stripThink("reasoning</think> answer")).isEqualTo("answer");
    assertThat(LongMemEval.stripThink("plain")).isEqualTo("plain");
    assertThat(LongMemEval.fill("Q: {} A: {} R: {}", "{x}", "{}", "r")).isEqualTo("Q: {x} A: {} R: r");
  }

  @Test
  void badMetadataAndUnknownTypesScoreZeroWithoutAJudge() {
    int before = harness().model().calls();
    JsonNode bad = harness().post("/verify", verifyRequest("{\"verifier_metadata\": {}}", "Lisbon"), Map.of()).json();
    assertThat(bad.get("reward").asDouble()).isZero();
    assertThat(bad.get("judge_error").asString()).isEqualTo(LongMemEval.BAD_METADATA);
    JsonNode unknown = harness().post("/verify", verifyRequest("{\"verifier_metadata\": {\"question_type\": \"x\", "
        + "\"question\": \"q\"}}", "Lisbon"), Map.of()).json();
    assertThat(unknown.get("judge_error").asString()).isEqualTo(LongMemEval.UNKNOWN_QUESTION_TYPE);
    JsonNode empty = harness().post("/verify", verifyRequest("{\"verifier_metadata\": {\"question_type\": "
        + "\"multi-session\", \"question\": \"q\"}}", "<think>only reasoning</think>"), Map.of()).json();
    assertThat(empty.get("empty_response").asBoolean()).isTrue();
    assertThat(harness().model().calls()).isEqualTo(before);
  }

  @Test
  void aggregateMetricsLeaveOutUnknownTypesAndCountEveryMarker() {
    ObjectNode body = Json.object();
    body.withArray("verify_responses").addObject().put("_ng_task_index", 0).put("reward", 1.0)
        .put("question_type", "multi-session").put("abstention", true);
    body.withArray("verify_responses").addObject().put("_ng_task_index", 1).put("reward", 0.0)
        .put("question_type", "x").put("judge_error", "unknown_question_type");
    body.withArray("verify_responses").addObject().put("_ng_task_index", 2).put("reward", 0.0)
        .put("question_type", "multi-session").put("judge_error", "bad_metadata");
    JsonNode m = harness().post("/aggregate_metrics", body, Map.of()).json().get("agent_metrics");
    assertThat(m.get("accuracy").asDouble()).isCloseTo(0.5, within(1e-12));
    assertThat(m.get("accuracy_strict").asDouble()).isCloseTo(1.0 / 3, within(1e-12));
    assertThat(m.get("n_excluded").asInt()).isEqualTo(1);
    assertThat(m.get("n_bad_metadata").asInt()).isEqualTo(1);
    assertThat(m.get("question_type/multi-session/count").asInt()).isEqualTo(2);
    assertThat(m.get("abstention/accuracy").asDouble()).isEqualTo(1.0);
  }
}
