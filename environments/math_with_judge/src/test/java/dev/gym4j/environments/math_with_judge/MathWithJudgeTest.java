package dev.gym4j.environments.math_with_judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class MathWithJudgeTest extends RecordedRolloutsTest {
  private static final String SERVER = "++math_with_judge.resources_servers.math_with_judge.";
  private EnvironmentHarness judged;

  @Override
  protected String environment() {
    return "math_with_judge";
  }

  @BeforeAll
  void startJudged() {
    judged = EnvironmentHarness.start(environment(), SERVER + "should_use_judge=true");
  }

  @AfterAll
  void stopJudged() {
    judged.close();
  }

  /** The recorded rollouts with their task rows (which hold the question). */
  private static List<JsonNode> recorded() {
    return EnvironmentHarness.joined(Json.readLines(fixture("example_rollouts.jsonl")),
        Json.readLines(fixture("example.jsonl")));
  }

  private static ObjectNode request(String expected, String modelText) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"question\": \"What is it?\", "
        + "\"expected_answer\": " + Json.write(expected) + ", \"response\": {\"output\": [{\"type\": \"message\", "
        + "\"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(modelText)
        + "}]}]}}");
  }

  private static String judgeText(JsonNode evaluation) {
    JsonNode output = evaluation.get("response").get("output");
    JsonNode content = output.get(output.size() - 1).get("content");
    return content.get(content.size() - 1).get("text").asString();
  }

  @Test
  void theLibraryVerdictAndExtractedAnswerMatchTheRecordings() {
    for (JsonNode row : recorded()) {
      JsonNode verdict = harness().verify(row);
      assertThat(verdict.get("library_reward").asDouble()).as(row.get("expected_answer").asString())
          .isEqualTo(row.get("library_reward").asDouble());
      assertThat(verdict.get("judge_evaluations").isNull()).isTrue();
    }
    // the reported answer is the value found, as math-verify reports it
    assertThat(recorded().stream().map(row -> harness().verify(row).get("extracted_answer").asString()).toList())
        .contains("83/499", "32", "sqrt(2)", "-4");
  }

  @Test
  void theRecordedJudgeVerdictsReplayOffline() {
    JsonNode row = recorded().getFirst();
    String recordedJudge = judgeText(row.get("judge_evaluations").get(0));
    judged.model().enqueue(Answer.text(recordedJudge));
    JsonNode verdict = judged.verify(row);
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("library_reward").asDouble()).isZero();
    assertThat(verdict.get("judge_evaluations")).hasSize(1);
    assertThat(judgeText(verdict.get("judge_evaluations").get(0))).isEqualTo(recordedJudge);
  }

  @Test
  void theJudgeMustAgreeInBothOrders() {
    int before = judged.model().calls();
    judged.model().enqueue(Answer.text("Same value. [[A=B]]"), Answer.text("Also same: [[A=B]] not [[A!=B]]"));
    JsonNode verdict = judged.post("/verify", request("one half", "It is \\boxed{\\frac{1}{2}}"), Map.of()).json();
    assertThat(verdict.get("library_reward").asDouble()).isZero();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("judge_evaluations")).hasSize(2);
    List<String> prompts = judged.model().received().subList(before, before + 2).stream()
        .map(call -> call.body().toString()).toList();
    assertThat(prompts.get(0).indexOf("one half")).isLessThan(prompts.get(0).indexOf("\\\\frac{1}{2}"));
    assertThat(prompts.get(1).indexOf("\\\\frac{1}{2}")).isLessThan(prompts.get(1).indexOf("one half"));

    judged.model().enqueue(Answer.text("[[A=B]]"), Answer.text("on reflection [[A!=B]], though [[A=B]] later"));
    assertThat(judged.post("/verify", request("one half", "\\boxed{0.4}"), Map.of()).json().get("reward").asDouble())
        .isZero();
  }

  @Test
  void aJudgeWithoutAVerdictOrWithAnErrorFailsTheRolloutInsteadOfScoringZero() {
    judged.model().enqueue(Answer.text("They look about the same to me."));
    HttpReply unlabelled = judged.post("/verify", request("one half", "\\boxed{2}"), Map.of());
    assertThat(unlabelled.status()).isEqualTo(502);
    assertThat(unlabelled.text()).contains("neither [[A=B]] nor [[A!=B]]");

    judged.model().enqueue(Answer.error(400, "{\"error\": {\"message\": \"bad request\", \"type\": "
        + "\"invalid_request_error\"}}"));
    HttpReply failed = judged.post("/verify", request("one half", "\\boxed{2}"), Map.of());
    assertThat(failed.status()).isEqualTo(502);
    assertThat(failed.text()).contains("judge model answered");
  }

  @Test
  void anUnboxedAnswerIsReadAsNemoGymMainReadsIt() {
    // NeMo Gym main (resources_servers/math_with_judge/app.py) has no box rule: math-verify reads the whole text
    for (String[] pair : new String[][] {{"7425000", "7,425,000"}, {"1000.99", "$1,000.99"}, {"-5", "-5"},
        {"5", "The answer is 5"}, {"$-5$", "so we get $-5$"}}) {
      JsonNode verdict = harness().post("/verify", request(pair[0], pair[1]), Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).as(pair[1]).isEqualTo(1.0);
      assertThat(verdict.get("library_verdict").asString()).isEqualTo("match");
    }
    assertThat(harness().post("/verify", request("5", "The answer is 6"), Map.of()).json().get("reward")
        .asDouble()).isZero();
  }

  @Test
  void withoutABoxTheJudgeSeesTheWholeText() {
    int before = judged.model().calls();
    judged.model().enqueue(Answer.text("[[A!=B]]"));
    JsonNode verdict = judged.post("/verify", request("one half", "It is a half"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(judged.model().calls()).isEqualTo(before + 1);
    assertThat(judged.model().received().get(before).body().toString()).contains("It is a half");
  }

  @Test
  void theBoxRuleIsOptIn() {
    try (EnvironmentHarness boxed = EnvironmentHarness.start(environment(), SERVER + "require_box=true")) {
      JsonNode verdict = boxed.post("/verify", request("5", "The answer is 5"), Map.of()).json();
      assertThat(verdict.get("reward").asDouble()).isZero();
      assertThat(verdict.get("library_verdict").asString()).isEqualTo("no_box");
      assertThat(boxed.post("/verify", request("5", "so \\boxed{5}"), Map.of()).json()
          .get("reward").asDouble()).isEqualTo(1.0);
    }
  }

  @Test
  void aLibraryCheckOutOfTimeIsATimeoutFailureNotAZero() {
    try (EnvironmentHarness hurried = EnvironmentHarness.start(environment(),
        SERVER + "library_verifier_timeout_seconds=0.001")) {
      String huge = "Answer: " + "1 + 1 = 2, ".repeat(300_000) + "\\boxed{2}";
      HttpReply reply = hurried.post("/verify", request("3", huge), Map.of());
      assertThat(reply.status()).isEqualTo(504);
      assertThat(reply.cookies().keySet()).doesNotContain(ServerClient.UPSTREAM_FAILURE_HEADER);
      assertThat(reply.text()).contains("undecided");
    }
  }

  @Test
  void aMissingExpectedAnswerIsA422NamingIt() {
    ObjectNode body = request("1", "\\boxed{1}");
    body.remove("expected_answer");
    HttpReply reply = harness().post("/verify", body, Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("expected_answer");
  }
}
