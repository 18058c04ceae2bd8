package dev.gym4j.environments.aalcr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.JudgedRolloutsTest;
import dev.gym4j.wire.OpenAIShapes;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's aalcr rollouts (resources_servers/aalcr/data/example_rollouts.jsonl) with the recorded judge
 * responses ({@code judge_response}) replayed.
 */
class AalcrTest extends JudgedRolloutsTest {
  @Override
  protected String environment() {
    return "aalcr";
  }

  @Override
  protected List<Answer> judgeAnswers(JsonNode recorded) {
    JsonNode output = recorded.path("judge_response").path("output");
    return output.isArray() ? List.of(Answer.output((ArrayNode) output)) : List.of();
  }

  private static ObjectNode row(String answer) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": "
        + "\"docs\"}]}, \"question\": \"Which?\", \"answer\": \"The council\", \"input_tokens_band\": \"<80k\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": "
        + "\"output_text\", \"text\": " + Json.write(answer) + "}]}]}}");
  }

  @Override
  protected JudgedCase judgedCase() {
    return new JudgedCase(row("The council"), Answer.text("CORRECT"),
        Answer.text("Correct."));
  }

  @Override
  protected List<String> recordedFields() {
    return List.of("invalid_judge_response");
  }

  @Override
  protected String exchangeField() {
    return "judge_response";
  }

  @Test
  void theBandRewardsAndTheJudgeExchangeMatchTheRecordings() {
    for (JsonNode row : Json.readLines(fixture("example_rollouts.jsonl"))) {
      judgeAnswers(row).forEach(harness().model()::enqueue);
      JsonNode verdict = harness().verify(row);
      for (String band : List.of("reward_lt_80k", "reward_80k_100k", "reward_100k_110k", "reward_110k_128k",
          "reward_128k_plus")) {
        assertThat(verdict.path(band).isNumber() ? verdict.get(band).asDouble() : null).as(band)
            .isEqualTo(row.get(band).isNumber() ? row.get(band).asDouble() : null);
      }
      assertThat(verdict.get("invalid_judge_response")).isEqualTo(row.get("invalid_judge_response"));
      // the judge's answer comes through a model server, whose answers are made valid by OpenAI's schema
      // (models/README.md): the recorded items with their required fields filled (logprobs [] for null)
      ArrayNode recorded = Json.array();
      row.at("/judge_response/output").forEach(item -> recorded.add(OpenAIShapes.item(item)));
      assertThat(verdict.at("/judge_response/output")).isEqualTo(recorded);
    }
  }

  @Test
  void anEmptyAnswerScoresZeroWithoutAJudge() {
    int before = harness().model().calls();
    JsonNode verdict = harness().post("/verify", row("  "), Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.get("invalid_model_response").asBoolean()).isTrue();
    assertThat(verdict.get("reward_lt_80k").asDouble()).isZero();
    assertThat(harness().model().calls()).isEqualTo(before);
  }

  @Test
  void anUnknownBandIsA422NamingIt() {
    ObjectNode body = row("x");
    body.put("input_tokens_band", "huge");
    HttpReply reply = harness().post("/verify", body, Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("input_tokens_band");
  }
}
