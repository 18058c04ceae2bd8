package dev.gym4j.environments.multichallenge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
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
 * multichallenge against recordings gym4j made once: NeMo Gym ships no rollouts for it
 * (resources_servers/multichallenge/data/example_rollouts.jsonl repeats its task rows), so
 * data/example_rollouts.jsonl gives NeMo Gym's first three tasks a written answer and written judge answers,
 * with every field computed in Python by NeMo Gym's rules (resources_servers/multichallenge/app.py:
 * str.format of its template, the later label wins, a YES/NO last line, the mean). The rest of NeMo Gym's rows
 * repeat the third task's input, which replay could not tell apart. The judge answers replay from
 * rubric_evaluations[].judge_response, by the scripted judge and by replay_model.
 */
class MultiChallengeTest extends JudgedRolloutsTest {
  @Override
  protected String environment() {
    return "multichallenge";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    List<Answer> answers = new ArrayList<>();
    recorded.get("rubric_evaluations").forEach(e -> answers.add(Answer.text(e.get("judge_response").asString())));
    return answers;
  }

  @Override
  protected String exchangeField() {
    return "rubric_evaluations";
  }

  @Override
  protected List<String> recordedFields() {
    return List.of("context", "generated_response", "rubric_evaluations", "aggregation_mode", "num_passed",
        "num_total");
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Override
  protected JudgedCase judgedCase() {
    ObjectNode request = verifyRequest("{\"context\": \"[USER]: hi\", \"rubric\": [{\"question\": \"Polite?\", "
        + "\"pass_criteria\": \"YES\"}]}", "Hello there!");
    return new JudgedCase(request, Answer.text("Polite.\n[[YES]]"), Answer.text("Unclear."));
  }

  @Test
  void theLaterLabelWinsAndALastLineDecidesWithoutLabels() {
    assertThat(MultiChallenge.verdict("[[YES]] ... no, [[NO]]", "[[YES]]", "[[NO]]")).contains("NO");
    assertThat(MultiChallenge.verdict("[[NO]] then [[YES]]", "[[YES]]", "[[NO]]")).contains("YES");
    assertThat(MultiChallenge.verdict("reasoning\nyes", "[[YES]]", "[[NO]]")).contains("YES");
    assertThat(MultiChallenge.verdict("reasoning\nNot sure", "[[YES]]", "[[NO]]")).contains("NO");
    assertThat(MultiChallenge.verdict("unclear", "[[YES]]", "[[NO]]")).isEmpty();
    // NeMo Gym looks for the letters anywhere in the last line: "cannot" says NO
    assertThat(MultiChallenge.verdict("I cannot tell", "[[YES]]", "[[NO]]")).contains("NO");
  }

  @Test
  void aNoCriterionPassesOnNoAndWeightsCountInWeightedMode() {
    ObjectNode request = verifyRequest("{\"context\": \"c\", \"rubric\": [{\"question\": \"Rude?\", "
        + "\"pass_criteria\": \"NO\", \"weight\": 3}, {\"question\": \"Long?\", \"pass_criteria\": \"YES\"}]}", "Hi");
    try (EnvironmentHarness weighted = EnvironmentHarness.start(environment(),
        "++multichallenge.resources_servers.multichallenge.aggregation_mode=weighted")) {
      weighted.model().enqueue(Answer.text("[[NO]]"));
      weighted.model().enqueue(Answer.text("[[NO]]"));
      JsonNode verdict = weighted.post("/verify", request, Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).isEqualTo(0.75);
      assertThat(verdict.at("/rubric_evaluations/0/score").asDouble()).isEqualTo(1.0);
      assertThat(verdict.get("aggregation_mode").asString()).isEqualTo("weighted");
    }
  }

  @Test
  void theContextIsBuiltFromMetadataMessagesWhenTheRowHasNone() {
    JsonNode messages = Json.parse("[{\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"thinking\", "
        + "\"content\": \"x\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}]");
    assertThat(MultiChallenge.contextOf(messages)).isEqualTo("[USER]: Hi\n\n[ASSISTANT]: Hello");
  }
}
