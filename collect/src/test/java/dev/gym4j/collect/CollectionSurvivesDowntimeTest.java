package dev.gym4j.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.head.HeadDirectory;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14 item 4: every server of the deployment (head, agent, environment, model server) is stopped in the
 * middle of a collection and started again on the same ports a few seconds later, as a {@code kill -9} and
 * restart of {@code gym4j run} would. The rollouts that could not reach the servers wait for them instead of
 * using their attempts, and the collection ends complete.
 */
class CollectionSurvivesDowntimeTest {
  private static final int REPEATS = 16;

  @TempDir
  Path dir;

  @Test
  void servers_stopped_mid_collection_and_restarted_lose_no_rollout_issue_14() throws Exception {
    try (ScriptedUpstream model = ScriptedUpstream.start()) {
      model.otherwise(Behaviours.callToolThenAnswer(
          Answer.toolCall("get_weather", "{\"city\": \"Paris\"}").after(Duration.ofMillis(20)), "It is cold.")
          .andThen(answer -> answer.after(Duration.ofMillis(20))));
      GlobalConfig config = config(model);
      URI head = URI.create("http://127.0.0.1:" + config.headPort());
      CollectOptions options = new CollectOptions(WeatherDeployment.AGENT, WeatherDeployment.EXAMPLE,
          dir.resolve("run.jsonl"), REPEATS, 8, 0, false, null, 3).withRetries(new CollectOptions.Retries(
              Duration.ofMillis(50), Duration.ofMillis(300), Duration.ofMinutes(5), Duration.ofMinutes(1)));
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      Deployment first = Deployment.start(config, Implementations.load(), Set.of());
      ClientSettings settings = ClientSettings.defaults().withRequestTimeout(Duration.ofMinutes(1))
          .withRetries(2, Duration.ofMillis(20), Duration.ofMillis(50));
      CompletableFuture<RolloutCollector.Summary> collection;
      try (ServerClient client = new ServerClient(new HeadDirectory(head), settings)) {
        collection = CompletableFuture.supplyAsync(() -> new RolloutCollector(options, client,
            new PrintStream(log, true, StandardCharsets.UTF_8), false).collect());
        waitForLines(options.output(), 10);
        // when: every server goes away mid-collection, and comes back on the same ports 2 s later
        first.close();
        Thread.sleep(2000);
        int landedDuringOutage = Json.readLines(options.output()).size();
        try (Deployment second = Deployment.start(config, Implementations.load(), Set.of())) {
          RolloutCollector.Summary summary = collection.get(2, TimeUnit.MINUTES);
          // then: every rollout landed once, and no attempt was spent on the outage
          assertThat(landedDuringOutage).as("the outage came before the end").isLessThan(5 * REPEATS);
          assertThat(summary.missing()).isZero();
          assertThat(summary.succeeded()).isEqualTo(5 * REPEATS);
        }
      }
    }
    List<JsonNode> rows = Json.readLines(dir.resolve("run.jsonl"));
    Set<String> keys = new HashSet<>();
    rows.forEach(row -> assertThat(keys.add(TaskRows.key(row))).as("each rollout lands once").isTrue());
    assertThat(keys).hasSize(5 * REPEATS);
    Path failures = dir.resolve("run_failures.jsonl");
    List<JsonNode> failed = Files.exists(failures) ? Json.readLines(failures) : List.of();
    assertThat(failed).noneMatch(row -> row.path("_ng_failure_class").asString().equals("agent_unreachable"));
  }

  /** The weather deployment on ports chosen now, so that a restart comes back on the same ones. */
  private static GlobalConfig config(ScriptedUpstream model) throws IOException {
    return new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
        "+config_paths=[models/configs/vllm_model.yaml,environments/example_single_tool_call/config.yaml]",
        "++head_server.port=" + freePort(), "+policy_base_url=" + model.baseUrl(), "+policy_api_key=x",
        "+policy_model_name=m",
        "++example_single_tool_call.resources_servers.example_single_tool_call.port=" + freePort(),
        "++example_single_tool_call_simple_agent.responses_api_agents.simple_agent.port=" + freePort(),
        "++policy_model.responses_api_models.vllm_model.port=" + freePort()));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void waitForLines(Path file, int lines) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!Files.exists(file) || Files.readAllLines(file).size() < lines) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the collection did not get going");
      }
      Thread.sleep(5);
    }
  }
}
