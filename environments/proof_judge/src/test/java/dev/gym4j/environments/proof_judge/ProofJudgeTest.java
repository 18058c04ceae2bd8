package dev.gym4j.environments.proof_judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

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
 * NeMo Gym's proof_judge rollouts (resources_servers/proof_judge/data/example_rollouts.jsonl, alpha 1, beta 0),
 * kept as the fidelity fixture {@code data/example_rollouts_nemo_gym.jsonl}. NeMo Gym keeps no judge text for this
 * environment, only the reward, which with beta 0 is the verifier's score: the scripted verifier answers with that
 * score. What is checked is ours: all five real model texts pass the format rules and reach the verifier exactly
 * once, and its score becomes the reward.
 *
 * <p>{@code data/example_rollouts.jsonl} is gym4j's recording (what {@code gym4j eval} replays, and what the
 * inherited conformance tests read): NeMo Gym's five model texts run through the live loop with that scripted
 * verifier, as the environment answered, judge exchanges included, so that replay_model can answer the judge.
 */
class ProofJudgeTest extends JudgedRolloutsTest {
  private static final String SERVER = "++proof_judge.resources_servers.proof_judge.";

  @Override
  protected String environment() {
    return "proof_judge";
  }

  /** NeMo Gym's fidelity fixture: its recorded rollouts, without judge exchanges. */
  private static final String NEMO_GYM = "example_rollouts_nemo_gym.jsonl";

  /** gym4j's recordings carry the judge's answers; NeMo Gym's get the scripted verifier's. */
  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return recorded.has("judge_evaluations") ? Replay.judgeAnswers(recorded)
        : List.of(Answer.text("The proof holds up.\n\n\\boxed{" + recorded.get("reward").asDouble() + "}"));
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  private List<JsonNode> nemoGymRollouts() {
    return EnvironmentHarness.joined(Json.readLines(fixture(NEMO_GYM)),
        Json.readLines(fixture("example_rollouts_materialized_inputs.jsonl")));
  }

  @Test
  void gym4jsRecordingIsNemoGymsModelTextsRunWithTheScriptedVerifier() {
    List<JsonNode> nemoGym = nemoGymRollouts();
    List<JsonNode> made = ScriptedRecordings.record(harness(), nemoGym.stream().map(row -> new ScriptedRecordings
        .Script(row, new Recording("nemo_gym", row).turns(), judgeAnswers(row))).toList());
    for (int i = 0; i < made.size(); i++) {
      assertThat(made.get(i).get("reward").asDouble()).isEqualTo(nemoGym.get(i).get("reward").asDouble());
      assertThat(made.get(i).get("judge_evaluations")).hasSize(1);
    }
    ScriptedRecordings.check(fixture("example_rollouts.jsonl"), made);
  }

  private static ObjectNode row(String text) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"problem\": \"Prove 1+1=2.\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": " + Json.write(text) + "}]}]}}");
  }

  @Override
  protected JudgedCase judgedCase() {
    return new JudgedCase(row("## Solution\nBy Peano.\n## Self Evaluation\n\\boxed{1}"), Answer.text("\\boxed{1}"),
        Answer.text("Mostly right, I would say 0.8."));
  }

  @Test
  void eachRecordedResponseReachesTheVerifierOnceWithItsProof() {
    for (JsonNode row : nemoGymRollouts()) {
      int before = harness().model().calls();
      judgeAnswers(row).forEach(harness().model()::enqueue);
      JsonNode verdict = harness().verify(row);
      assertThat(harness().model().calls() - before).isEqualTo(1);
      assertThat(verdict.get("s_prime").isNumber()).isTrue();
      String prompt = verdict.at("/judge_evaluations/0/responses_create_params/input/0/content").asString();
      assertThat(prompt).contains(row.get("problem").asString()).doesNotContain("## Self Evaluation");
    }
  }

  @Test
  void responsesOutOfFormatScoreZeroWithoutAJudge() {
    int before = harness().model().calls();
    assertThat(harness().post("/verify", row("Trivially true."), Map.of()).json().get("reason").asString())
        .isEqualTo("missing_solution_header");
    assertThat(harness().post("/verify", row("## Solution\nBy Peano."), Map.of()).json().get("reason").asString())
        .isEqualTo("missing_self_eval_header");
    assertThat(harness().post("/verify", row("## Solution\nBy Peano.\n## Self Evaluation\nfine \\boxed{0.7}"),
        Map.of()).json().get("reason").asString()).isEqualTo("invalid_boxed_score");
    assertThat(harness().model().calls()).isEqualTo(before);
  }

  @Test
  void theMetaVerifierWeighsTheSelfEvaluation() {
    try (EnvironmentHarness both = EnvironmentHarness.start(environment(), SERVER + "beta=1.0", SERVER + "alpha=0.5")) {
      both.model().enqueue(Answer.text("\\boxed{0.5}"), Answer.text("\\boxed{1}"));
      JsonNode verdict = both.post("/verify", row("<think>hmm</think>## Solution\nBy Peano.\n## Self Evaluation\n"
          + "Some gaps. \\boxed{1}"), Map.of()).json();
      // alpha * r_y + beta * (1 - |s' - r_y|) * r_meta = 0.5 * 0.5 + 1 * (1 - 0.5) * 1
      assertThat(verdict.get("reward").asDouble()).isEqualTo(0.75);
      assertThat(verdict.get("judge_evaluations")).hasSize(2);
    }
  }

  @Test
  void scoresAreReadAsNemoGymReadsThem() {
    assertThat(ProofJudging.boxedScore("\\boxed{1} then \\boxed{ 0.5 }")).contains(0.5);
    assertThat(ProofJudging.boxedScore("\\boxed{0.7}")).isEmpty();
    assertThat(ProofJudging.boxedScore("\\boxed{1")).isEmpty();
  }
}
