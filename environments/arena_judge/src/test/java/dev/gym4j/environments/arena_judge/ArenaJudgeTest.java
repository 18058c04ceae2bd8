package dev.gym4j.environments.arena_judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.JudgedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's arena_judge rollouts (resources_servers/arena_judge/data/example_rollouts.jsonl) re-verified with the
 * recorded judgements (judgement_gen_base, judgement_base_gen) and replayed with replay_model answering both
 * judge calls from them; the Arena-Elo metrics compared with the numbers NeMo Gym's own code
 * (resources_servers/arena_judge/app.py, _compute_arena_elo_metrics / _aggregate_arena_elo with numpy 2.4.6,
 * pandas 3.0.6, scikit-learn 1.9.1) gives for the recorded rows and for four sets of verdicts
 * (src/test/resources/nemo_gym_elo.jsonl). Rules from resources_servers/arena_judge/app.py.
 */
class ArenaJudgeTest extends JudgedRolloutsTest {
  @Override
  protected String environment() {
    return "arena_judge";
  }

  @Override
  protected List<String> recordedFields() {
    return List.of("verdict_gen_base", "verdict_base_gen", "category", "invalid_gen_base", "invalid_base_gen",
        "judgement_gen_base", "judgement_base_gen");
  }

  /** The recorded judgements, gen-base (the model as assistant A) first. */
  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return List.of(Answer.text(recorded.get("judgement_gen_base").asString()),
        Answer.text(recorded.get("judgement_base_gen").asString()));
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Override
  protected JudgedCase judgedCase() {
    ObjectNode request = verifyRequest("{\"question\": \"What is 2+2?\", \"baseline_answer\": \"4\", "
        + "\"category\": \"hard_prompt\"}", "2 + 2 = 4, since adding two and two gives four.");
    return new JudgedCase(request, Answer.text("Both are right. My final verdict is: [[A>B]]"),
        Answer.text("Both answers are fine."));
  }

  @Test
  void bothCallsCarryTheCategoryPromptWithThePositionsSwapped() throws Exception {
    JsonNode row = recordedRollouts().stream().filter(r -> r.get("category").asString().equals("creative_writing"))
        .findFirst().orElseThrow();
    judgeAnswers(row).forEach(harness().model()::enqueue);
    JsonNode verdict = harness().verify(row);
    JsonNode prompt = dev.gym4j.config.Yaml.read(Path.of("prompts/arena_creative.yaml"));
    String candidate = ArenaJudge.outputText(row.at("/response/output"));
    String question = row.get("question").asString();
    String baseline = row.get("baseline_answer").asString();
    JsonNode first = verdict.at("/judge_evaluations/0/chat_completion_create_params");
    JsonNode second = verdict.at("/judge_evaluations/1/chat_completion_create_params");
    assertThat(first.at("/messages/0/content").asString()).isEqualTo(prompt.get("system").asString());
    assertThat(first.at("/messages/1/content").asString()).isEqualTo(prompt.get("user").asString()
        .replace("{question}", question).replace("{answer_1}", candidate).replace("{answer_2}", baseline));
    assertThat(second.at("/messages/1/content").asString()).isEqualTo(prompt.get("user").asString()
        .replace("{question}", question).replace("{answer_1}", baseline).replace("{answer_2}", candidate));
    assertThat(first.get("max_tokens").asInt()).isEqualTo(4096);
    assertThat(first.get("temperature").asDouble()).isZero();
  }

  @Test
  void aVerdictIsTheOneLabelAllMatchesAgreeOn() {
    assertThat(ArenaJudge.verdict("My final verdict is tie: [[A=B]]")).contains("A=B");
    assertThat(ArenaJudge.verdict("[[B>>A]] ... so again [[B>>A]]")).contains("B>>A");
    assertThat(ArenaJudge.verdict("[[A>B]] or maybe [[A>>B]]")).isEmpty();
    assertThat(ArenaJudge.verdict("[[A<B]]")).isEmpty();
    assertThat(ArenaJudge.verdict("Assistant A is better: A>B")).isEmpty();
    assertThat(ArenaJudge.verdict("")).isEmpty();
  }

  @Test
  void anUnknownCategoryFallsBackToHardPromptAndALossScoresZero() {
    ObjectNode request = verifyRequest("{\"question\": \"q\", \"baseline_answer\": \"b\", \"category\": \"math\"}",
        "a");
    harness().model().enqueue(Answer.text("[[B>>A]]"));
    harness().model().enqueue(Answer.text("[[A>B]]"));
    JsonNode verdict = harness().post("/verify", request, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("category").asString()).isEqualTo("hard_prompt");
    assertThat(verdict.get("verdict_gen_base").asString()).isEqualTo("B>>A");
    assertThat(verdict.get("verdict_base_gen").asString()).isEqualTo("A>B");
    assertThat(verdict.at("/judge_evaluations/0/chat_completion_create_params/messages/0/content").asString())
        .startsWith("Please act as an impartial judge");
  }

  /** NeMo Gym's rule under judge_unparseable: zero: an unreadable base-gen verdict leaves a gen-base win at 1. */
  @Test
  void underZeroAnUnreadableSwappedVerdictIsInvalidAndTheWinStands() {
    try (EnvironmentHarness lenient = EnvironmentHarness.start(environment(), zeroOverrides())) {
      lenient.model().enqueue(Answer.text("My final verdict: [[A>>B]]"));
      lenient.model().enqueue(Answer.text("I cannot decide."));
      JsonNode verdict = lenient.post("/verify", judgedCase().request(), Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
      assertThat(verdict.get("verdict_gen_base").asString()).isEqualTo("A>>B");
      assertThat(verdict.get("verdict_base_gen").isNull()).isTrue();
      assertThat(verdict.get("invalid_base_gen").asBoolean()).isTrue();
      assertThat(verdict.get("invalid_gen_base").asBoolean()).isFalse();
      assertThat(verdict.get("judgement_base_gen").asString()).isEqualTo("I cannot decide.");
    }
  }

  private String[] zeroOverrides() {
    List<String> all = new ArrayList<>(List.of(overrides()));
    all.add("++arena_judge.resources_servers.arena_judge.judge_unparseable=zero");
    return all.toArray(String[]::new);
  }

  @Test
  void theSanitizerReplacesLoneSurrogatesAsNemoGymDoes() {
    // NeMo Gym's sanitize_generation gives 'a\ufffd\ufffd\ufffdb\x00c😀d\ufffd\ufffd\ufffd' for this text
    assertThat(ArenaJudge.sanitized("a\ud800b\u0000c\uD83D\uDE00d\udc00"))
        .isEqualTo("a\ufffd\ufffd\ufffdb\u0000c\uD83D\uDE00d\ufffd\ufffd\ufffd");
  }

  @Test
  void theBootstrapDrawsAreNumpys() {
    // np.random.seed(42); np.random.choice(7, size=10, replace=True)
    ArenaElo.Mt19937 random = new ArenaElo.Mt19937(42);
    List<Integer> draws = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      draws.add(random.below(7));
    }
    assertThat(draws).containsExactly(6, 3, 4, 6, 2, 4, 4, 6, 1, 2);
    // np.random.seed(42); DataFrame of 13 rows .sample(frac=1.0, replace=True)
    ArenaElo.Mt19937 sample = new ArenaElo.Mt19937(42);
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < 13; i++) {
      rows.add(sample.below(13));
    }
    assertThat(rows).containsExactly(6, 3, 12, 10, 7, 12, 4, 6, 9, 2, 6, 10, 10);
    // np.random.seed(7); np.random.randint(0, 1000, size=5)
    ArenaElo.Mt19937 seven = new ArenaElo.Mt19937(7);
    assertThat(List.of(seven.below(1000), seven.below(1000), seven.below(1000), seven.below(1000),
        seven.below(1000))).containsExactly(175, 196, 537, 502, 579);
  }

  @Test
  void theNewtonFitIsTheMaximumLikelihoodWinRate() {
    // two players, one feature value: the fitted win probability is the share of wins (ties half)
    List<ArenaElo.Winner> battles = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      battles.add(ArenaElo.Winner.CANDIDATE);
    }
    battles.add(ArenaElo.Winner.TIE);
    battles.add(ArenaElo.Winner.BASELINE);
    battles.add(ArenaElo.Winner.BASELINE);
    double elo = ArenaElo.fit(battles);
    assertThat(1 / (1 + Math.pow(10, (1000 - elo) / 400))).isCloseTo(7.5 / 10, org.assertj.core.data.Offset
        .offset(1e-12));
  }

  /** Our Arena-Elo equals NeMo Gym's, number for number, for its recorded rows and four more sets of verdicts. */
  @Test
  void theEloMetricsAreNemoGyms() throws Exception {
    List<String> lines = Files.readAllLines(Path.of("src/test/resources/nemo_gym_elo.jsonl"));
    for (String line : lines) {
      JsonNode reference = Json.parse(line);
      JsonNode expected = reference.get("expected");
      if (reference.has("source")) {
        List<List<JsonNode>> tasks = new ArrayList<>();
        for (JsonNode row : recordedRollouts()) {
          tasks.add(List.of(row));
        }
        tasks.sort(java.util.Comparator.comparingInt(t -> t.get(0).get("_ng_task_index").asInt()));
        assertSameNumbers(ArenaJudge.eloMetrics(tasks, 100, 42), expected, line);
      } else {
        List<String[]> scores = new ArrayList<>();
        for (JsonNode pair : reference.get("scores")) {
          scores.add(new String[] {pair.get(0).asString(null), pair.get(1).asString(null)});
        }
        ArenaElo.Result ours = ArenaElo.of(scores, 100, 42);
        ObjectNode actual = Json.object().put("score", ours.score()).put("ci_lower", ours.ciLower())
            .put("ci_upper", ours.ciUpper()).put("invalid_scores", ours.invalidScores()).put("n", ours.n());
        assertSameNumbers(actual, expected, line);
      }
    }
  }

  /** The same names with the same values (Python wrote 85.0 and 0 where Java may keep other number types). */
  private static void assertSameNumbers(JsonNode actual, JsonNode expected, String what) {
    assertThat(actual.propertyNames()).as(what).containsExactlyInAnyOrderElementsOf(expected.propertyNames());
    for (String name : expected.propertyNames()) {
      assertThat(actual.get(name).asDouble()).as("%s in %s", name, what).isEqualTo(expected.get(name).asDouble());
    }
  }

  @Test
  void aggregateMetricsCarryTheEloAndThePerVerdictScores() {
    ArrayNode responses = Json.array();
    recordedRollouts().forEach(row -> responses.add(row));
    ObjectNode body = Json.object();
    body.set("verify_responses", responses);
    JsonNode metrics = harness().post("/aggregate_metrics", body, Map.of()).json();
    assertThat(metrics.toString()).contains("arena_elo/score");
    JsonNode agent = metrics.path("agent_metrics");
    assertThat(agent.get("arena_elo/score").asDouble()).isEqualTo(47.22);
    assertThat(agent.get("arena_elo/creative_writing/n").asInt()).isEqualTo(2);
    assertThat(agent.get("pass@1/wins").asDouble()).isEqualTo(40.0);
    assertThat(metrics.at("/key_metrics/arena_elo~1ci_upper").asDouble()).isEqualTo(19.45);
  }
}
