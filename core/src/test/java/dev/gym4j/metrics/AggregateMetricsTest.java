package dev.gym4j.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

class AggregateMetricsTest {

  @Test
  void passAtKIsTheUnbiasedCombinatorialEstimator() {
    assertThat(AggregateMetrics.unbiasedPassAtK(4, 0, 1)).isZero();
    assertThat(AggregateMetrics.unbiasedPassAtK(4, 4, 4)).isEqualTo(1.0);
    assertThat(AggregateMetrics.unbiasedPassAtK(4, 1, 1)).isCloseTo(0.25, within(1e-12));
    // 1 - C(3,2)/C(4,2) = 1 - 3/6
    assertThat(AggregateMetrics.unbiasedPassAtK(4, 1, 2)).isCloseTo(0.5, within(1e-12));
    // 1 - C(8,4)/C(10,4) = 1 - 70/210
    assertThat(AggregateMetrics.unbiasedPassAtK(10, 2, 4)).isCloseTo(2.0 / 3.0, within(1e-12));
    assertThat(AggregateMetrics.unbiasedPassAtK(200, 3, 100)).isBetween(0.87, 0.88);
  }

  @Test
  void metricsOfATwoTaskRunAreComputedPerAgent() {
    List<JsonNode> rows = new ArrayList<>();
    double[][] rewards = {{1, 0, 0, 0}, {1, 1, 1, 1}};
    for (int task = 0; task < 2; task++) {
      for (int rollout = 0; rollout < 4; rollout++) {
        rows.add(Json.parse("{\"agent_ref\": {\"name\": \"a\"}, \"_ng_task_index\": " + task
            + ", \"_ng_rollout_index\": " + rollout + ", \"reward\": " + rewards[task][rollout]
            + ", \"solved\": " + (rewards[task][rollout] == 1) + ", \"_private\": 5, \"response\": {\"usage\": "
            + "{\"input_tokens\": 10, \"output_tokens\": " + (rollout + 1) + ", \"total_tokens\": 11}}}"));
      }
    }
    ArrayNode result = AggregateMetrics.compute(rows);
    assertThat(result).hasSize(1);
    JsonNode metrics = result.get(0).get("agent_metrics");
    assertThat(metrics.get("mean/reward").asDouble()).isEqualTo(5.0 / 8);
    assertThat(metrics.get("median/reward").asDouble()).isEqualTo(1.0);
    assertThat(metrics.get("mean/solved").asDouble()).isEqualTo(5.0 / 8);
    assertThat(metrics.get("mean/output_tokens").asDouble()).isEqualTo(2.5);
    assertThat(metrics.has("mean/_private")).isFalse();
    // nemo_gym/reward_profile.py, compute_pass_majority_metrics with its default score accuracy = reward
    assertThat(metrics.get("pass@1/accuracy").asDouble()).isCloseTo(100 * (0.25 + 1.0) / 2, within(1e-9));
    assertThat(metrics.get("pass@2/accuracy").asDouble()).isCloseTo(100 * (0.5 + 1.0) / 2, within(1e-9));
    assertThat(metrics.get("pass@3/accuracy").asDouble()).isCloseTo(100 * (0.75 + 1.0) / 2, within(1e-9));
    assertThat(metrics.get("pass@4/accuracy").asDouble()).isCloseTo(100.0, within(1e-9));
    assertThat(metrics.has("pass@5/accuracy")).isFalse();
    assertThat(metrics.get("pass@1[avg-of-2]/accuracy").asDouble()).isCloseTo(75.0, within(1e-9));
    assertThat(metrics.get("per_sample_aggregate").get("accuracy")).hasSize(4);
    assertThat(metrics.get("pass@1[avg-of-2]/accuracy/std_dev_across_runs").asDouble())
        .isCloseTo(Math.sqrt(1250), within(1e-9));
    assertThat(metrics.get("pass@1[avg-of-2]/accuracy/std_err_across_runs").asDouble()).isCloseTo(25.0, within(1e-9));
    assertThat(metrics.has("majority@1/accuracy")).as("no extracted_answer, no majority").isFalse();
    JsonNode key = result.get(0).get("key_metrics");
    assertThat(key.has("mean/reward")).isTrue();
    assertThat(key.has("mean/output_tokens")).isTrue();
    assertThat(key.get("pass@4/accuracy").asDouble()).isEqualTo(100.0);
    assertThat(key.has("pass@1[avg-of-4]/accuracy")).isTrue();
    assertThat(result.get(0).get("group_level_metrics")).hasSize(2);
    assertThat(result.get(0).at("/group_level_metrics/0/mean~1reward").asDouble()).isEqualTo(0.25);
    assertThat(metrics.get("std/reward").asDouble()).isCloseTo(Math.sqrt((3 * 0.390625 + 5 * 0.140625) / 7), within(1e-12));
  }

  @Test
  void meanRewardOfNeMoGymFixturesMatchesAHandComputation() {
    for (String environment : List.of("math_with_judge", "mcqa", "example_tool_call_multireward", "instruction_following")) {
      for (Path file : Fixtures.rolloutFiles().stream()
          .filter(f -> f.getParent().equals(Fixtures.environment(environment))).toList()) {
        List<JsonNode> rows = Json.readLines(file);
        double sum = 0;
        for (JsonNode row : rows) {
          sum += row.get("reward").asDouble();
        }
        ArrayNode metrics = AggregateMetrics.compute(rows);
        double mean = 0;
        int count = 0;
        for (JsonNode agent : metrics) {
          int n = agent.at("/agent_metrics/num_rollouts").asInt();
          mean += agent.at("/agent_metrics/mean~1reward").asDouble() * n;
          count += n;
        }
        assertThat(count).isEqualTo(rows.size());
        assertThat(mean / count).as(file.toString()).isCloseTo(sum / rows.size(), within(1e-12));
      }
    }
  }

  @Test
  void pass_at_k_is_not_reported_for_rewards_other_than_zero_or_one_issue_16() {
    List<JsonNode> rows = new ArrayList<>();
    double[] rewards = {-1, 0, 1, 1};
    for (int i = 0; i < rewards.length; i++) {
      rows.add(Json.parse("{\"agent_ref\": {\"name\": \"blackjack\"}, \"_ng_task_index\": 0, \"_ng_rollout_index\": "
          + i + ", \"reward\": " + rewards[i] + "}"));
    }
    JsonNode metrics = AggregateMetrics.compute(rows).get(0).get("agent_metrics");
    assertThat(metrics.get("mean/reward").asDouble()).isEqualTo(0.25);
    assertThat(metrics.propertyNames()).noneMatch(name -> name.startsWith("pass@") || name.startsWith("majority@"));
  }

  @Test
  void majority_at_k_and_no_answer_where_an_answer_is_extracted() {
    String[][] answers = {{"\"A\"", "\"A\"", "\"B\""}, {"null", "\"C\"", "\"C\""}};
    int[][] rewards = {{1, 1, 0}, {0, 0, 0}};
    List<JsonNode> rows = new ArrayList<>();
    for (int task = 0; task < 2; task++) {
      for (int i = 0; i < 3; i++) {
        rows.add(Json.parse("{\"_ng_task_index\": " + task + ", \"_ng_rollout_index\": " + i + ", \"reward\": "
            + rewards[task][i] + ", \"extracted_answer\": " + answers[task][i] + "}"));
      }
    }
    JsonNode metrics = AggregateMetrics.compute(rows).get(0).get("agent_metrics");
    assertThat(metrics.get("majority@3/accuracy").asDouble()).isCloseTo(50.0, within(1e-9));
    assertThat(metrics.get("majority@1/accuracy").asDouble()).isCloseTo(50.0, within(1e-9));
    assertThat(metrics.get("pass@1[avg-of-3]/no_answer").asDouble()).isCloseTo(100 * (0 + 1.0 / 3) / 2, within(1e-9));
    assertThat(metrics.get("majority@3/no_answer").asDouble()).isCloseTo(0.0, within(1e-9));
  }
}
