package dev.gym4j.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class RolloutCollectorTest {
  @TempDir
  Path dir;

  private CollectOptions options(int repeats, int limit, boolean resume, int maxAttempts) {
    return new CollectOptions(WeatherDeployment.AGENT, WeatherDeployment.EXAMPLE, dir.resolve("out/run.jsonl"), repeats,
        4, limit, resume, null, maxAttempts);
  }

  @Test
  void theWeatherEnvironmentReachesRewardOneEndToEnd() throws IOException {
    try (WeatherDeployment weather = new WeatherDeployment()) {
      RolloutCollector.Summary summary = weather.collect(options(2, 0, false, 3));
      assertThat(summary.total()).isEqualTo(10);
      assertThat(summary.succeeded()).isEqualTo(10);
      assertThat(summary.failed()).isZero();
    }
    List<JsonNode> rows = Json.readLines(dir.resolve("out/run.jsonl"));
    assertThat(rows).hasSize(10);
    Set<String> keys = new HashSet<>();
    for (JsonNode row : rows) {
      assertThat(row.get("reward").asDouble()).isEqualTo(1.0);
      assertThat(row.at("/agent_ref/name").asString()).isEqualTo(WeatherDeployment.AGENT);
      keys.add(TaskRows.key(row));
      Response response = Response.of(row.get("response"));
      assertThat(response.output()).extracting(Item::type)
          .containsExactly("reasoning", "function_call", "function_call_output", "message");
      assertThat(response.output().stream().filter(Item::hasTokenInfo)).hasSize(2);
    }
    assertThat(keys).hasSize(10).contains("0:0", "0:1", "4:1");
    assertThat(Json.readLines(dir.resolve("out/run_materialized_inputs.jsonl"))).hasSize(10);
    JsonNode metrics = Json.parse(Files.readString(dir.resolve("out/run_aggregate_metrics.json"))).get(0);
    assertThat(metrics.at("/agent_metrics/mean~1reward").asDouble()).isEqualTo(1.0);
    assertThat(metrics.at("/agent_metrics/pass@2~1accuracy").asDouble()).isEqualTo(100.0);
    assertThat(metrics.at("/agent_metrics/num_tasks").asInt()).isEqualTo(5);
  }

  @Test
  void resumeRunsOnlyWhatIsMissingAndCutsATornLine() throws IOException {
    try (WeatherDeployment weather = new WeatherDeployment()) {
      weather.collect(options(2, 0, false, 3));
      Path output = dir.resolve("out/run.jsonl");
      List<String> lines = new ArrayList<>(Files.readAllLines(output));
      // keep 6 rollouts and half of a seventh, as a kill in the middle of a write would
      Files.writeString(output, String.join("\n", lines.subList(0, 6)) + "\n" + lines.get(6).substring(0, 40));
      int callsBefore = weather.model.calls();
      RolloutCollector.Summary summary = weather.collect(options(2, 0, true, 3));
      assertThat(summary.alreadyDone()).isEqualTo(6);
      assertThat(summary.succeeded()).isEqualTo(4);
      assertThat(weather.model.calls() - callsBefore).isEqualTo(8);
      List<JsonNode> rows = Json.readLines(output);
      assertThat(rows).hasSize(10);
      assertThat(rows.stream().map(TaskRows::key).distinct()).hasSize(10);
    }
  }

  @Test
  void injectedUpstreamFailuresEndEveryRolloutInTheOutputOrTheFailuresFileNeverWithAMadeUpReward() {
    Random random = new Random(42);
    try (WeatherDeployment weather = new WeatherDeployment("+client_request_timeout_seconds=1",
        "++example_single_tool_call_simple_agent.responses_api_agents.simple_agent.rollout_timeout_seconds=5")) {
      weather.model.otherwise(request -> {
        double roll;
        synchronized (random) {
          roll = random.nextDouble();
        }
        if (request.toString().contains("humidity in sf")) {
          // one task's upstream is always down, so some rollouts fail both attempts whatever the rolls give
          return Answer.error(503, "{\"error\": \"engine down\"}");
        } else if (roll < 0.05) {
          return Answer.error(429, "{\"error\": \"rate limited\"}");
        } else if (roll < 0.10) {
          return Answer.error(500, "{\"error\": \"engine failure\"}");
        } else if (roll < 0.15) {
          return Answer.drop();
        } else if (roll < 0.20) {
          return Answer.text("too late").after(Duration.ofSeconds(3));
        }
        return WeatherDeployment.weatherTurn(request);
      });
      RolloutCollector.Summary summary = weather.collect(options(10, 0, false, 2));
      assertThat(summary.succeeded() + summary.failed()).isEqualTo(50);
      assertThat(summary.failed()).as("the 10 rollouts of the task whose upstream is down fail twice").isGreaterThanOrEqualTo(10);
    }
    List<JsonNode> rows = Json.readLines(dir.resolve("out/run.jsonl"));
    List<JsonNode> failures = Json.readLines(dir.resolve("out/run_failures.jsonl"));
    Set<String> succeeded = new HashSet<>();
    for (JsonNode row : rows) {
      assertThat(row.get("reward").asDouble()).isEqualTo(1.0);
      assertThat(row.has("_ng_failure_class")).isFalse();
      assertThat(succeeded.add(TaskRows.key(row))).as("each rollout lands once").isTrue();
    }
    java.util.Map<String, Integer> attempts = new java.util.HashMap<>();
    for (JsonNode failure : failures) {
      assertThat(failure.has("reward")).isFalse();
      assertThat(failure.get("_ng_failure_class").asString()).isIn("model_error", "timeout", "resources_error");
      attempts.merge(TaskRows.key(failure), 1, Integer::sum);
    }
    Set<String> givenUp = new HashSet<>();
    attempts.forEach((key, count) -> {
      assertThat(count).isBetween(1, 2);
      if (count == 2) {
        givenUp.add(key);
      }
    });
    assertThat(givenUp).doesNotContainAnyElementsOf(succeeded);
    Set<String> all = new HashSet<>(succeeded);
    all.addAll(givenUp);
    assertThat(all).as("every rollout ends in the output or the failures file").hasSize(50);
    attempts.keySet().forEach(key -> assertThat(succeeded.contains(key) || givenUp.contains(key)).isTrue());
  }

  @Test
  void aBadInputLineIsNamed() throws IOException {
    Path input = dir.resolve("bad.jsonl");
    Files.writeString(input, "{\"responses_create_params\": {\"input\": \"ok\"}}\n{\"responses_create_params\": {}}\n");
    CollectOptions options = new CollectOptions("agent", input, dir.resolve("o.jsonl"), 1, 1, 0, false, null, 3);
    assertThatThrownBy(() -> TaskRows.expand(options)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("line 2").hasMessageContaining("responses_create_params.input");
    Files.writeString(input, "{\"responses_create_params\": {\"input\": \"ok\"}}\n", StandardOpenOption.TRUNCATE_EXISTING);
    CollectOptions noAgent = new CollectOptions(null, input, dir.resolve("o.jsonl"), 1, 1, 0, false, null, 3);
    assertThatThrownBy(() -> TaskRows.expand(noAgent)).hasMessageContaining("has no agent_ref");
  }

  @Test
  void identicalLinesShareATaskAndOverridesReplaceTopLevelParams() throws IOException {
    Path input = dir.resolve("in.jsonl");
    String line = "{\"responses_create_params\": {\"input\": \"q\", \"reasoning\": {\"effort\": \"low\", \"summary\": \"auto\"}}}";
    Files.writeString(input, line + "\n" + line + "\n{\"responses_create_params\": {\"input\": \"other\"}, \"_ng_task_index\": 7}\n");
    var override = (tools.jackson.databind.node.ObjectNode) Json.parse("{\"reasoning\": {\"effort\": \"high\"}, \"temperature\": 0.6}");
    List<tools.jackson.databind.node.ObjectNode> rows = TaskRows.expand(
        new CollectOptions("a", input, dir.resolve("o.jsonl"), 2, 1, 0, false, override, 3));
    assertThat(rows).extracting(TaskRows::key).containsExactly("0:0", "0:1", "0:2", "0:3", "7:0", "7:1");
    assertThat(rows.getFirst().get("responses_create_params")).isEqualTo(Json.parse(
        "{\"input\": \"q\", \"reasoning\": {\"effort\": \"high\"}, \"temperature\": 0.6}"));
  }
}
