package dev.gym4j.environments.inverse_if;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.JudgedRolloutsTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's inverse_if rollouts (resources_servers/inverse_if/data/example_rollouts.jsonl, three criteria each)
 * with the recorded judge texts (rubric_evaluations[].judge_response) replayed, by the scripted judge and by
 * replay_model; every recorded rubric evaluation, its filled judge prompt included, is reproduced exactly.
 * Rules from resources_servers/inverse_if/app.py and tests/test_inverse_if.py.
 */
class InverseIfTest extends JudgedRolloutsTest {
  private static final String SERVER = "++inverse_if.resources_servers.inverse_if.";

  @Override
  protected String environment() {
    return "inverse_if";
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

  /** rubric_evaluations holds each criterion's filled judge prompt, judge text, verdict and explanation. */
  @Override
  protected List<String> recordedFields() {
    return List.of("prompt", "generated_response", "reference_response", "rubric_evaluations", "aggregation_mode",
        "num_passed", "num_total");
  }

  @Override
  protected boolean judgeReplayedFromRecordings() {
    return true;
  }

  @Override
  protected JudgedCase judgedCase() {
    ObjectNode request = verifyRequest("{\"prompt\": \"Say hi in French.\", \"reference_response\": \"Bonjour\", "
        + "\"rubric\": [{\"id\": \"C1\", \"criteria\": \"Is it French?\"}]}", "Bonjour !");
    return new JudgedCase(request, Answer.text("```json\n{\"result\": \"PASS\", \"explanation\": \"French.\"}\n```"),
        Answer.text("I cannot tell."));
  }

  @Test
  void verdictsAreReadAsNemoGymReadsThem() {
    // resources_servers/inverse_if/tests/test_inverse_if.py
    assertThat(InverseIf.verdict("```json\n{\"result\": \"pass\", \"explanation\": \"ok\"}\n```"))
        .contains(new InverseIf.Verdict("PASS", "ok"));
    assertThat(InverseIf.verdict("Verdict {\"result\": \"FAIL\", \"explanation\": \"no\"} end"))
        .contains(new InverseIf.Verdict("FAIL", "no"));
    assertThat(InverseIf.verdict("Reasoning.\nOverall: PASS")).contains(new InverseIf.Verdict("PASS", ""));
    assertThat(InverseIf.verdict("<think>FAIL maybe</think>Looks fine, PASS")).contains(new InverseIf.Verdict("PASS", ""));
    assertThat(InverseIf.verdict("no verdict here")).isEmpty();
  }

  @Test
  void criteriaAreAggregatedByTheConfiguredMode() {
    ObjectNode request = verifyRequest("{\"prompt\": \"p\", \"rubric\": [{\"id\": \"C1\", \"criteria\": \"a\"}, "
        + "{\"id\": \"C2\", \"criteria\": \"b\"}]}", "answer");
    harness().model().enqueue(Answer.text("PASS"));
    harness().model().enqueue(Answer.text("FAIL"));
    JsonNode mean = harness().post("/verify", request, Map.of()).json();
    assertThat(mean.get("reward").asDouble()).isEqualTo(0.5);
    assertThat(mean.get("num_passed").asInt()).isEqualTo(1);
    assertThat(mean.at("/rubric_evaluations/1/verdict").asString()).isEqualTo("FAIL");
    try (EnvironmentHarness all = EnvironmentHarness.start(environment(), SERVER + "aggregation_mode=all")) {
      all.model().enqueue(Answer.text("PASS"));
      all.model().enqueue(Answer.text("FAIL"));
      assertThat(all.post("/verify", request, Map.of()).json().get("reward").asDouble()).isZero();
    }
  }

  @Test
  void underJudgeUnparseableZeroOnlyTheUnreadCriterionFails() {
    ObjectNode request = verifyRequest("{\"prompt\": \"p\", \"rubric\": [{\"id\": \"C1\", \"criteria\": \"a\"}, "
        + "{\"id\": \"C2\", \"criteria\": \"b\"}]}", "answer");
    try (EnvironmentHarness zero = EnvironmentHarness.start(environment(), SERVER + "judge_unparseable=zero")) {
      zero.model().enqueue(Answer.text("PASS"));
      zero.model().enqueue(Answer.text("no idea"));
      JsonNode verdict = zero.post("/verify", request, Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).isEqualTo(0.5);
      assertThat(verdict.at("/rubric_evaluations/1/verdict").asString()).isEqualTo("FAIL");
    }
  }

  @Test
  void aTaskTemplateWithAnUnknownPlaceholderIsA4xxNamingTheField() {
    ObjectNode request = verifyRequest("{\"prompt\": \"p\", \"judge_prompt_template\": \"{prompt} {secret}\", "
        + "\"rubric\": [{\"id\": \"C1\", \"criteria\": \"a\"}]}", "answer");
    int before = harness().model().calls();
    HttpReply reply = harness().post("/verify", request, Map.of());
    assertThat(reply.status()).isBetween(400, 499);
    assertThat(reply.text()).contains("judge_prompt_template").doesNotContain("Exception");
    assertThat(harness().model().calls()).isEqualTo(before);
  }
}
