package dev.gym4j.environments.proof_verification;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.model.Recording;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.JudgedRolloutsTest;
import dev.gym4j.testkit.Replay;
import dev.gym4j.testkit.ScriptedRecordings;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's proof_verification rollouts (resources_servers/proof_verification/data/example_rollouts.jsonl,
 * task fields from its materialized inputs), kept as the fidelity fixture
 * {@code data/example_rollouts_nemo_gym.jsonl}. NeMo Gym keeps no meta-verifier text, only the reward
 * {@code r_score * r_meta}: the scripted meta-verifier answers 1 where the reward is above 0 (so our
 * r_score, from the real model text and the row's truth, must equal the recorded reward) and 0 where it is 0.
 *
 * <p>{@code data/example_rollouts.jsonl} is gym4j's recording (what {@code gym4j eval} replays, and what the
 * inherited conformance tests read): NeMo Gym's five model texts run through the live loop with that scripted
 * meta-verifier, as the environment answered, judge exchanges included, so that replay_model can answer the judge.
 */
class ProofVerificationTest extends JudgedRolloutsTest {
  @Override
  protected String environment() {
    return "proof_verification";
  }

  @Override
  protected String taskFile() {
    return "example_rollouts_materialized_inputs.jsonl";
  }

  /** NeMo Gym's fidelity fixture: its recorded rollouts, without judge exchanges. */
  private static final String NEMO_GYM = "example_rollouts_nemo_gym.jsonl";

  /** gym4j's recordings carry the judge's answers; NeMo Gym's get the scripted meta-verifier's. */
  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return recorded.has("judge_evaluations") ? Replay.judgeAnswers(recorded)
        : List.of(Answer.text("\\boxed{" + (recorded.get("reward").asDouble() > 0 ? 1 : 0) + "}"));
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Test
  void gym4jsRecordingIsNemoGymsModelTextsRunWithTheScriptedMetaVerifier() {
    List<JsonNode> nemoGym = EnvironmentHarness.joined(Json.readLines(fixture(NEMO_GYM)),
        Json.readLines(fixture(taskFile())));
    List<JsonNode> made = ScriptedRecordings.record(harness(), nemoGym.stream().map(row -> new ScriptedRecordings
        .Script(row, new Recording("nemo_gym", row).turns(), judgeAnswers(row))).toList());
    for (int i = 0; i < made.size(); i++) {
      assertThat(made.get(i).get("reward").asDouble()).isEqualTo(nemoGym.get(i).get("reward").asDouble());
      assertThat(made.get(i).get("judge_evaluations")).hasSize(1);
    }
    ScriptedRecordings.check(fixture("example_rollouts.jsonl"), made);
  }

  private static ObjectNode row(String text, double truth) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"problem\": \"P\", "
        + "\"proof\": \"By induction.\", \"ground_truth_judgement\": \"Sound.\", \"ground_truth_verify_score\": "
        + truth + ", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": " + Json.write(text) + "}]}]}}");
  }

  @Override
  protected JudgedCase judgedCase() {
    return new JudgedCase(row("Minor gap. \\boxed{0.5}", 1.0), Answer.text("\\boxed{1}"),
        Answer.text("fair enough"));
  }

  @Test
  void theAgreementWithTheTruthIsWeighedByTheMetaVerifier() {
    harness().model().enqueue(Answer.text("Mostly accurate. \\boxed{0.5}"));
    JsonNode verdict = harness().post("/verify", row("<think>x</think>Minor gap. \\boxed{0.5}", 1.0), Map.of()).json();
    assertThat(verdict.get("r_score").asDouble()).isEqualTo(0.5);
    assertThat(verdict.get("reward").asDouble()).isEqualTo(0.25);
    assertThat(verdict.at("/judge_evaluations/0/responses_create_params/input/0/content").asString())
        .contains("## Expert evaluation\nSound.", "## Candidate evaluation\nMinor gap. \\boxed{0.5}");
  }

  @Test
  void aResponseWithoutAScoreIsZeroWithoutAJudgeAndAMissingTruthIsA422() {
    int before = harness().model().calls();
    assertThat(harness().post("/verify", row("Looks fine.", 1.0), Map.of()).json().get("reason").asString())
        .isEqualTo("invalid_boxed_score");
    assertThat(harness().model().calls()).isEqualTo(before);
    ObjectNode body = row("\\boxed{1}", 1.0);
    body.remove("ground_truth_verify_score");
    HttpReply reply = harness().post("/verify", body, Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("ground_truth_verify_score");
  }

}
