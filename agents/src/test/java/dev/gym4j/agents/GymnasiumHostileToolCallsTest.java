package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Metrics;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14, item 2 on a Gymnasium environment: the gymnasium_agent sends the environment only
 * {@code /reset} and {@code /step} (NeMo Gym's {@code responses_api_agents/gymnasium_agent/app.py}); the
 * model's function calls, whatever their names, travel inside the step's response and never become
 * requests of their own, and the environment serves no {@code /seed_session} or {@code /verify}.
 */
class GymnasiumHostileToolCallsTest {
  private static final String ROW = """
      {"responses_create_params": {"input": "say it",
        "tools": [{"type": "function", "name": "seed_session", "parameters": {"type": "object"}},
                  {"type": "function", "name": "verify", "parameters": {"type": "object"}}]},
       "expected_answer": "banana"}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    deployment = AgentDeployments.deploy(dir, AgentDeployments.resources("echo", "test_echo_gymnasium"),
        AgentDeployments.openAiModel(model.baseUrl()), AgentDeployments.agent("agent", "gymnasium_agent", "echo"));
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  @Test
  void protocol_routes_called_as_tools_never_reach_the_environment_issue_14() {
    long resets = requests("/reset");
    long steps = requests("/step");
    long metrics = requests("/aggregate_metrics");
    String network = "/127.0.0.1:" + deployment.head().url().getPort() + "/server_instances";
    model.enqueue(Answer.text("apple").withToolCall("seed_session", "{\"expected_answer\": \"apple\"}")
        .withToolCall("verify", "{\"reward\": 1.0}").withToolCall("aggregate_metrics", "{}")
        .withToolCall("reset", "{}").withToolCall("step", "{}")
        .withToolCall(network, "{\"process_name\": \"echo\", \"url\": \"http://127.0.0.1:9\"}"));

    HttpReply reply = deployment.client().post("agent", "/run", Json.parse(ROW), Map.of());

    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    assertThat(reply.json().get("reward").asDouble()).isZero();
    assertThat(settled("/reset", resets + 1)).isEqualTo(resets + 1);
    assertThat(settled("/step", steps + 1)).isEqualTo(steps + 1);
    assertThat(requests("/aggregate_metrics")).isEqualTo(metrics);
    assertThat(model.calls()).isEqualTo(1);
    assertThat(deployment.head().registry().get("echo").orElseThrow().port())
        .isEqualTo(deployment.servers().stream().filter(s -> s.instance().name().equals("echo")).findFirst()
            .orElseThrow().port());
  }

  @Test
  void a_gymnasium_environment_serves_no_seed_session_or_verify_issue_14() {
    for (String route : new String[] {"/seed_session", "/verify", "/close", "/tools"}) {
      HttpReply reply = deployment.client().post("echo", route, Json.parse(ROW), Map.of());
      assertThat(reply.status()).as(route).isEqualTo(404);
    }
    JsonNode metrics = deployment.client().post("echo", "/aggregate_metrics",
        Json.parse("{\"verify_responses\": [{\"reward\": 1.0, \"_ng_task_index\": 0}]}"), Map.of()).json();
    assertThat(metrics.has("agent_metrics")).isTrue();
  }

  @Test
  void a_step_without_a_reset_is_409_and_starts_no_episode_issue_14() {
    String step = "{\"responses_create_params\": {\"input\": \"q\"}, \"expected_answer\": \"banana\", "
        + "\"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": \"banana\"}]}]}}";
    EchoGymnasium echo = (EchoGymnasium) deployment.servers().stream()
        .filter(s -> s.instance().name().equals("echo")).findFirst().orElseThrow().server();
    HttpReply unreset = deployment.client().post("echo", "/step", Json.parse(step), Map.of());
    assertThat(unreset.status()).isEqualTo(409);
    assertThat(unreset.json().get("detail").asString()).contains("POST /reset");
    assertThat(echo.openEpisodes()).isZero();

    Map<String, String> cookies = deployment.client().post("echo", "/reset", Json.parse(ROW), Map.of()).cookies();
    assertThat(echo.openEpisodes()).isEqualTo(1);
    HttpReply stepped = deployment.client().post("echo", "/step", Json.parse(step), cookies);
    assertThat(stepped.json().get("reward").asDouble()).isEqualTo(1.0);
    assertThat(echo.openEpisodes()).isZero();
    assertThat(deployment.client().post("echo", "/step", Json.parse(step), cookies).status())
        .as("the episode is over").isEqualTo(409);
  }

  private static long requests(String route) {
    return Metrics.REGISTRY.find("gym4j.requests").tag("server", "echo").tag("route", route).timers().stream()
        .mapToLong(Timer::count).sum();
  }

  /**
   * The count of a route once it has reached {@code expected} (or after 5 s) and a moment later: a server
   * records a request just after it answered, so the caller can see the answer before the count.
   */
  private static long settled(String route, long expected) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    try {
      while (requests(route) < expected && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return requests(route);
  }
}
