package dev.gym4j.environments.math_with_autograder;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.RecordedRolloutsTest;
import dev.gym4j.testkit.Replay;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's math_with_autograder rollouts (resources_servers/math_with_autograder/data/example_rollouts.jsonl):
 * five empty answers the library rejects, graded \boxed{Incorrect} by the recorded autograder, replayed.
 */
class MathWithAutograderTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "math_with_autograder";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    return Replay.judgeAnswers(recorded);
  }

  private static ObjectNode row(String expected, String modelText) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"question\": \"Find all f.\", "
        + "\"expected_answer\": " + Json.write(expected) + ", \"response\": {\"output\": [{\"type\": \"message\", "
        + "\"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": " + Json.write(modelText)
        + "}]}]}}");
  }

  @Test
  void theAutograderSeesTheRawBoxedAnswerOnceAndItsLabelDecides() {
    int before = harness().model().calls();
    harness().model().enqueue(Answer.text("<thinking>same family</thinking>\n\\boxed{Correct}"));
    String boxed = "g(x)=2x^3+C \\text{ or } g(x)=-2x^3+C, C\\in\\mathbb{R}";
    JsonNode verdict = harness().post("/verify", row("g(x)=\\pm 2x^3+C", "So \\boxed{" + boxed + "}"), Map.of())
        .json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("library_reward").asDouble()).isZero();
    assertThat(harness().model().calls() - before).isEqualTo(1);
    String prompt = verdict.at("/judge_evaluations/0/responses_create_params/input/0/content").asString();
    assertThat(prompt).contains("Model Solution: " + boxed + "\n", "Golden Answer: g(x)=\\pm 2x^3+C",
        "Problem: Find all f.");
  }

  @Test
  void aLibraryMatchNeedsNoJudge() {
    int before = harness().model().calls();
    JsonNode verdict = harness().post("/verify", row("4", "\\boxed{4}"), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("judge_evaluations").isNull()).isTrue();
    assertThat(harness().model().calls()).isEqualTo(before);
  }

  @Test
  void anAutograderWithoutALabelFailsTheRolloutNotAZero() {
    harness().model().enqueue(Answer.text("Probably fine."));
    HttpReply reply = harness().post("/verify", row("5", "\\boxed{6}"), Map.of());
    assertThat(reply.status()).isEqualTo(502);
    assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("judge_unparseable");
  }

  @Test
  void theLastBoxIsFoundAsNemoSkillsFindsIt() {
    assertThat(MathWithAutograder.searchBoxed("\\boxed{1} then \\boxed{\\{1,2\\}}")).isEqualTo("\\{1,2\\}");
    assertThat(MathWithAutograder.searchBoxed("\\fbox{7}")).isEqualTo("7");
    assertThat(MathWithAutograder.searchBoxed("\\boxed{open")).isNull();
    assertThat(MathWithAutograder.searchBoxed("no box")).isNull();
  }
}
