package dev.gym4j.environments.imo_proofbench_judge;

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
 * NeMo Gym's imo_proofbench_judge rollouts (resources_servers/imo_proofbench_judge/data/example_rollouts.jsonl:
 * three judged, two without a box and so graded No without a judge) with the recorded judge texts
 * ({@code judge_output}) replayed, by the scripted judge and by replay_model. Rules from
 * resources_servers/imo_proofbench_judge/app.py and tests/test_app.py. NeMo Gym's recordings keep the judge's
 * text, not its prompt: data/example_judge_prompts.jsonl holds the prompts NeMo Gym's code builds for those
 * rows, made once with Python (yaml.safe_load(prompts/judge.yaml)["user"].format(...) with the recorded
 * extracted_answer), compared here byte for byte.
 */
class ImoProofBenchJudgeTest extends JudgedRolloutsTest {
  @Override
  protected String environment() {
    return "imo_proofbench_judge";
  }

  /** Only rows that reached the judge (a recorded points block) have a judge answer to replay. */
  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return recorded.get("judge_points").isNull() ? List.of()
        : List.of(Answer.text(recorded.get("judge_output").asString()));
  }

  @Override
  protected List<String> recordedFields() {
    return List.of("extracted_answer", "judge_output", "judge_points", "judge_correct", "symbolic_correct",
        "any_correct", "no_judge_score");
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Override
  protected JudgedCase judgedCase() {
    ObjectNode request = verifyRequest("{\"problem\": \"Prove 1+1=2.\", \"reference_solution\": \"Peano.\", "
        + "\"rubric\": \"7 pts\", \"expected_answer\": \" \"}", "By Peano. \\boxed{proof complete}");
    return new JudgedCase(request, Answer.text("Sound.\n<points>7 out of 7</points>"),
        Answer.text("I cannot decide."));
  }

  @Test
  void theFilledPromptIsTheOneNemoGymsCodeBuildsForEachJudgedRow() {
    assertThat(verifyWithNemoGymsJudgePrompts(CHAT_JUDGE_PROMPT, row -> !row.get("judge_points").isNull())).hasSize(3);
  }

  @Test
  void verdictsAreReadWithSkillsPriority() {
    // resources_servers/imo_proofbench_judge/tests/test_app.py
    assertThat(ImoProofBenchJudge.verdict("**Judgement**: **Yes** <points>1 out of 7</points>")).contains(true);
    assertThat(ImoProofBenchJudge.verdict("Judgement: no")).contains(false);
    assertThat(ImoProofBenchJudge.verdict("\\boxed{ Correct }")).contains(true);
    assertThat(ImoProofBenchJudge.verdict("<points>6 out of 7</points>")).contains(true);
    assertThat(ImoProofBenchJudge.verdict("<points>5 out of 7</points>")).contains(false);
    assertThat(ImoProofBenchJudge.verdict("Judgement: maybe")).isEmpty();
    assertThat(ImoProofBenchJudge.verdict("")).isEmpty();
    assertThat(ImoProofBenchJudge.searchBoxed("\\boxed{1} then \\boxed{\\frac{a}{b}}")).isEqualTo("\\frac{a}{b}");
    assertThat(ImoProofBenchJudge.searchBoxed("\\boxed{unbalanced")).isNull();
    assertThat(ImoProofBenchJudge.searchBoxed("no box")).isNull();
  }

  @Test
  void aSymbolicallyEqualBoxIsCorrectWithoutAJudge() {
    int before = harness().model().calls();
    ObjectNode request = verifyRequest("{\"expected_answer\": \"$\\\\frac{1}{2}$\"}", "so \\boxed{0.5}.");
    JsonNode verdict = harness().post("/verify", request, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("symbolic_correct").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("judge_output").asString()).isEqualTo(ImoProofBenchJudge.IDENTICAL);
    assertThat(harness().model().calls()).isEqualTo(before);
  }

  @Test
  void aggregateMetricsCountAnyCorrectAndJudgeScoresPerCategory() {
    ObjectNode body = Json.object();
    body.withArray("verify_responses").addObject().put("_ng_task_index", 0).put("reward", 1.0)
        .put("judge_correct", 1.0).put("judge_points", 7).put("category", "Algebra").put("level", "IMO-easy")
        .put("extracted_answer", "x");
    body.withArray("verify_responses").addObject().put("_ng_task_index", 1).put("reward", 0.0)
        .put("judge_correct", 0.0).put("judge_points", 1).put("category", "Geometry").put("level", "IMO-easy")
        .put("extracted_answer", "y");
    JsonNode m = harness().post("/aggregate_metrics", body, Map.of()).json().get("agent_metrics");
    assertThat(m.get("pass@1/any_correct").asDouble()).isCloseTo(50.0, within(1e-9));
    assertThat(m.get("pass@1/judge_score_7").asDouble()).isCloseTo(50.0, within(1e-9));
    assertThat(m.get("Algebra/pass@1/any_correct").asDouble()).isCloseTo(100.0, within(1e-9));
  }
}
