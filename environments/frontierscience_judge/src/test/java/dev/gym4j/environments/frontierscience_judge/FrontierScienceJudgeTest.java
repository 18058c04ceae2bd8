package dev.gym4j.environments.frontierscience_judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.JudgedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's frontierscience_judge rollouts (resources_servers/frontierscience_judge/data/example_rollouts.jsonl,
 * olympiad mode) with the recorded judge texts ({@code judge_output}) replayed on /v1/chat/completions, by the
 * scripted judge and by replay_model. Rules from resources_servers/frontierscience_judge/app.py and its
 * tests/test_app.py. NeMo Gym's recordings keep the judge's text but not its prompt, so
 * data/example_judge_prompts.jsonl holds the prompts NeMo Gym's code builds for those rows, made once with
 * Python (yaml.safe_load(prompts/judge.yaml)["user"].format(...)) and compared here byte for byte.
 */
class FrontierScienceJudgeTest extends JudgedRolloutsTest {
  private static final String SERVER = "++frontierscience_judge.resources_servers.frontierscience_judge.";

  @Override
  protected String environment() {
    return "frontierscience_judge";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return List.of(Answer.text(recorded.get("judge_output").asString()));
  }

  @Override
  protected List<String> recordedFields() {
    return List.of("extracted_answer", "expected_answer", "verdict", "judge_output");
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Override
  protected JudgedCase judgedCase() {
    ObjectNode request = verifyRequest("{\"question\": \"Formula of water?\", \"expected_answer\": \"H2O\", "
        + "\"subject\": \"chemistry\"}", "HO2");
    return new JudgedCase(request, Answer.text("Not equivalent.\nJudgement: NO"), Answer.text("Hard to say."));
  }

  @Test
  void theFilledPromptIsTheOneNemoGymsCodeBuildsForEachRecordedRow() {
    verifyWithNemoGymsJudgePrompts(CHAT_JUDGE_PROMPT, row -> true);
  }

  @Test
  void judgementsAndRubricScoresAreReadAsNemoGymReadsThem() {
    // resources_servers/frontierscience_judge/tests/test_app.py
    assertThat(FrontierScienceJudge.judgement("Judgement: yes\nmore\nJudgement: NO")).isEqualTo("NO");
    assertThat(FrontierScienceJudge.judgement("no verdict")).isNull();
    assertThat(FrontierScienceJudge.rubricScore("Score: 7/10", 10)).isEqualTo(7.0);
    assertThat(FrontierScienceJudge.rubricScore("Score: 3 out of 5", 10)).isEqualTo(6.0);
    assertThat(FrontierScienceJudge.rubricScore("FINAL_SCORE[8] / MAX_POSSIBLE_SCORE[10]", 10)).isEqualTo(8.0);
    assertThat(FrontierScienceJudge.rubricScore("Score: 6.5\nThe end", 10)).isEqualTo(6.5);
    assertThat(FrontierScienceJudge.rubricScore("Score: 2/10\nFinal score: 9/10", 10)).isEqualTo(9.0);
    assertThat(FrontierScienceJudge.rubricScore("Score: 5/0", 10)).isNull();
    assertThat(FrontierScienceJudge.rubricScore("7/10 points", 10)).isNull();
    assertThat(dev.gym4j.judge.TextPicks.withoutThinking("<think>a</think>B <thinking>c</thinking>C")).isEqualTo("B C");
    assertThat(dev.gym4j.judge.TextPicks.withoutThinking("left open</think> answer")).isEqualTo("answer");
  }

  @Test
  void aTraceThatNeverClosedIsNoAnswer() {
    harness().model().enqueue(Answer.text("Judgement: NO"));
    ObjectNode request = verifyRequest("{\"question\": \"q\", \"expected_answer\": \"H2O\"}", "<think>H2O is");
    JsonNode verdict = harness().post("/verify", request, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("extracted_answer").isNull()).isTrue();
    assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/messages/0/content").asString())
        .contains("The attempted answer: \n***");
  }

  @Test
  void researchModeScoresTheRubricAndFallsBackOnTheJudgement() {
    try (EnvironmentHarness research = EnvironmentHarness.start(environment(), SERVER + "judge_mode=research",
        SERVER + "judge_prompt_path=prompts/research_judge.yaml")) {
      ObjectNode request = verifyRequest("{\"question\": \"Design a catalyst.\", \"rubric\": \"3 pts: names Pt\"}",
          "Use platinum.");
      research.model().enqueue(Answer.text("Names Pt.\nScore: 8/10\nJudgement: NO"));
      JsonNode verdict = research.post("/verify", request, Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
      assertThat(verdict.get("rubric_score").asDouble()).isEqualTo(8.0);
      assertThat(verdict.get("rubric_score_normalized").asDouble()).isCloseTo(0.8, within(1e-12));
      assertThat(verdict.get("verdict").asString()).isEqualTo("NO");
      assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/messages/0/content").asString())
          .contains("The grading rubric:\n3 pts: names Pt\n");

      research.model().enqueue(Answer.text("No score given.\nJudgement: YES"));
      JsonNode fallback = research.post("/verify", request, Map.of()).json();
      assertThat(fallback.get("reward").asDouble()).isEqualTo(1.0);
      assertThat(fallback.get("invalid_judge_response").asBoolean()).isTrue();
      assertThat(fallback.get("rubric_score").isNull()).isTrue();

      research.model().enqueue(Answer.text("Score: 6/10"));
      JsonNode below = research.post("/verify", request, Map.of()).json();
      assertThat(below.get("reward").asDouble()).isZero();
      assertThat(below.get("verdict").asString()).isEqualTo("NO");
    }
  }

  @Test
  void aggregateMetricsArePassAtKPerSubject() {
    ObjectNode body = Json.object();
    String[] subjects = {"chemistry", "physics", "physics"};
    for (int i = 0; i < subjects.length; i++) {
      body.withArray("verify_responses").addObject().put("_ng_task_index", i).put("reward", i == 2 ? 0.0 : 1.0)
          .put("subject", subjects[i]).put("extracted_answer", "a" + i);
    }
    JsonNode m = harness().post("/aggregate_metrics", body, Map.of()).json().get("agent_metrics");
    assertThat(m.get("pass@1/accuracy").asDouble()).isCloseTo(200.0 / 3, within(1e-9));
    assertThat(m.get("physics/pass@1/accuracy").asDouble()).isCloseTo(50.0, within(1e-9));
  }
}
