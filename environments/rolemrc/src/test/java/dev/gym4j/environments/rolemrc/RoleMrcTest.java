package dev.gym4j.environments.rolemrc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.gym4j.client.HttpReply;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/rolemrc/app.py (main, 2026-08-22) and its recorded rollouts, and
 * src/test/resources/nemo_gym_cases.jsonl: words with what NLTK's PorterStemmer (3.9, the stemmer rouge_score
 * uses) makes of them, and sentence pairs with sacrebleu 2.6's sentence_bleu and 13a tokens.
 *
 * <p>Lines 1-3 of the recording were written by an older rolemrc that rounded every score to four decimals;
 * the current code does not round, so there the test checks that our values round to the recorded ones. METEOR
 * (recorded on every line) is not computed by gym4j (README), so it is not among the checked fields.
 */
class RoleMrcTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "rolemrc";
  }

  @Override
  protected List<String> verifyFields() {
    return RoleMrc.REFERENCE_FIELDS;
  }

  private static boolean rounded(int line) {
    return line <= 3;
  }

  @Override
  protected JsonNode expectedField(String file, int line, String field, JsonNode recorded) {
    return rounded(line) && recorded.path(field).isNumber() ? MissingNode.getInstance() : recorded.path(field);
  }

  @Override
  protected double expectedReward(String file, int line, JsonNode recorded) {
    if (rounded(line)) {
      // the unrounded ROUGE-L of the recorded answer, which rounds to the recorded 4-decimal reward
      String answer = recorded.at("/response/output/0/content/0/text").asString();
      return Rouge.scores(recorded.get("reference").asString(), RoleMrc.stripThink(answer)).get("rougeL");
    }
    return super.expectedReward(file, line, recorded);
  }

  @Test
  void theOlderRecordingsRoundToOurScores() {
    List<JsonNode> rows = recordedRollouts();
    for (int i = 0; i < 3; i++) {
      JsonNode row = rows.get(i);
      ObjectNode task = ((ObjectNode) row).deepCopy();
      task.remove(List.of("rouge1", "rouge2", "rougeL", "rougeLsum", "bleu", "meteor", "reward"));
      JsonNode verdict = harness().verify(task);
      for (String field : List.of("rouge1", "rouge2", "rougeL", "rougeLsum", "bleu")) {
        double ours = BigDecimal.valueOf(verdict.get(field).asDouble()).setScale(4, RoundingMode.HALF_EVEN)
            .doubleValue();
        assertThat(ours).as("line %d %s", i + 1, field).isEqualTo(row.get(field).asDouble());
      }
    }
  }

  private static List<JsonNode> cases(String kind) {
    return Json.readLines(Path.of("src/test/resources/nemo_gym_cases.jsonl")).stream()
        .filter(line -> line.get("kind").asString().equals(kind)).toList();
  }

  @TestFactory
  Stream<DynamicTest> theStemmerIsNltks() {
    return cases("stem").stream().map(c -> DynamicTest.dynamicTest(c.get("input").asString(), () ->
        assertThat(PorterStemmer.stem(c.get("input").asString())).isEqualTo(c.get("expected").asString())));
  }

  @TestFactory
  Stream<DynamicTest> sentenceBleuIsSacrebleus() {
    return cases("bleu").stream().map(c -> DynamicTest.dynamicTest(c.get("hypothesis").asString(), () -> {
      assertThat(String.join(" ", SentenceBleu.tokenize13a(c.get("hypothesis").asString())))
          .isEqualTo(c.get("tokens").asString());
      assertThat(SentenceBleu.score(c.get("hypothesis").asString(), c.get("reference").asString()))
          .isCloseTo(c.get("expected").asDouble(), within(1e-9));
    }));
  }

  @Test
  void rougeAsRougeScoreComputesIt() {
    // rouge_score: stemmed tokens ("cats" and "cat" agree), LCS for rougeL, union LCS over lines for rougeLsum
    Map<String, Double> same = Rouge.scores("The cats sat.", "the cat sat");
    assertThat(same.get("rouge1")).isEqualTo(1.0);
    Map<String, Double> lines = Rouge.scores("a b c\nd e", "a c\nd x e");
    assertThat(lines.get("rougeLsum")).isCloseTo(2 * (4.0 / 5) * (4.0 / 5) / (8.0 / 5), within(1e-12));
    assertThat(Rouge.scores("", "anything").get("rougeL")).isZero();
  }

  @Test
  void theJudgeScoresEachAspectTheTaskCallsFor() {
    try (EnvironmentHarness judged = EnvironmentHarness.start(environment(),
        "++rolemrc.resources_servers.rolemrc.mode=judge",
        "++rolemrc.resources_servers.rolemrc.judge_model_server={type: responses_api_models, name: policy_model}",
        "++rolemrc.resources_servers.rolemrc.judge_responses_create_params={input: []}")) {
      ObjectNode row = (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"system\", "
          + "\"content\": \"You are a smith. You must end with 'Indeed.'\"}, {\"role\": \"user\", \"content\": "
          + "\"Passage: x. Question?\"}]}, \"reference\": \"r\", \"task\": "
          + "\"role_related_mrc_answer_with_narration\", \"response\": {\"output\": [{\"type\": \"message\", "
          + "\"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": \"<think>hm</think>Aye.\"}]}]}}");
      judged.model().enqueue(Answer.text("Score: 1"), Answer.text("I would say 0.4"));
      JsonNode verdict = judged.post("/verify", row, Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).isEqualTo(0.5);
      assertThat(verdict.get("aspect_knowledge_range").asDouble()).isEqualTo(1.0);
      assertThat(verdict.get("aspect_style_compliance").asDouble()).isZero();
      assertThat(verdict.get("n_aspects").asInt()).isEqualTo(2);
      assertThat(verdict.get("generation").asString()).isEqualTo("Aye.");
      String prompt = verdict.at("/judge_evaluations/0/responses_create_params/input/0/content").asString();
      assertThat(prompt).contains("System Instruction: \"You are a smith.").contains("\"Aye.\"")
          .contains("**within** the character's knowledge range");

      row.put("task", "role_related_mrc_answer_no_narration-special-content");
      judged.model().enqueue(Answer.text("no number here"));
      JsonNode nested = judged.post("/verify", row, Map.of()).json();
      assertThat(nested.get("bad_aspects").get(0).asString()).isEqualTo("nested_instruction");
      assertThat(nested.at("/judge_evaluations/0/responses_create_params/input/0/content").asString())
          .contains("(**end with 'Indeed.'**)");

      judged.model().enqueue(Answer.error(503, "judge down"), Answer.error(503, "judge down"),
          Answer.error(503, "judge down"), Answer.error(503, "judge down"));
      HttpReply down = judged.post("/verify", row, Map.of());
      assertThat(down.status()).as("a judge failure fails the rollout").isGreaterThanOrEqualTo(500);
    }
  }

  @Test
  void nestedContentIsTheSecondSentenceWithoutItsLead() {
    assertThat(RoleMrc.nestedContent("You are a bard. You love to rhyme every line.")).isEqualTo("rhyme every line");
    assertThat(RoleMrc.nestedContent("One sentence only.")).isEqualTo("One sentence only");
    assertThat(RoleMrc.dimension("role_related_mrc_refused_no_narration-2ndrefused")).isEqualTo("multi_turn");
  }
}
