package dev.gym4j.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.server.RunningServer;
import dev.gym4j.testing.SlowMetricsEnvironment;
import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 31, defect 2: {@code POST /aggregate_metrics} cost about n³ in the rollouts of one task (8,000 rows: 54.7 s of
 * CPU; a 4 MiB body pinned both cores for minutes), went on after its caller left, and a 31 MiB body of empty rows
 * ran out of memory. Now: linear work, a bound on rows (413) and on time (422), and a caller that leaves stops it.
 * Real servers over real sockets; the timeouts below are deadlines on the test, not measurements.
 */
class AggregateMetricsRouteTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path dir;
  Deployment deployment;
  HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeEach
  void start() {
    SlowMetricsEnvironment.reset();
    deployment = Deployment.start(TestConfigs.load(dir, """
        counter:
          resources_servers:
            test_counter: {domain: other}
        small:
          resources_servers:
            test_counter: {domain: other, aggregate_metrics_max_rows: 10}
        hurried:
          resources_servers:
            test_slow_metrics: {domain: other, aggregate_metrics_timeout_seconds: 0.5}
        patient:
          resources_servers:
            test_slow_metrics: {domain: other}
        """), Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    deployment.close();
  }

  private URI url(String instance) {
    return deployment.servers().stream().filter(s -> s.instance().name().equals(instance)).findFirst()
        .map(RunningServer::url).orElseThrow().resolve("/aggregate_metrics");
  }

  private HttpResponse<String> post(String instance, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(url(instance)).timeout(Duration.ofMinutes(2))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {"verify_responses": [...]} of {@code n} rollouts of task 0, one in {@code every} correct. */
  private static String oneTask(int n, int every) {
    StringBuilder body = new StringBuilder("{\"verify_responses\": [");
    for (int i = 0; i < n; i++) {
      body.append(i == 0 ? "" : ",").append("{\"_ng_task_index\": 0, \"_ng_rollout_index\": ").append(i)
          .append(", \"reward\": ").append(i % every == 0 ? 1 : 0).append('}');
    }
    return body.append("]}").toString();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void twenty_thousand_rollouts_of_one_task_get_every_pass_at_k() throws Exception {
    // before: about n³, some 14 minutes of CPU for 20,000 rows (8,000 took 54.7 s)
    HttpResponse<String> reply = post("counter", oneTask(20_000, 4));
    assertThat(reply.statusCode()).isEqualTo(200);
    JsonNode metrics = Json.parse(reply.body()).get("agent_metrics");
    assertThat(metrics.get("pass@1/accuracy").asDouble()).isCloseTo(25.0, within(1e-9));
    // 1 − C(15000, 2)/C(20000, 2)
    assertThat(metrics.get("pass@2/accuracy").asDouble())
        .isCloseTo(100 * (1 - (15000.0 * 14999) / (20000.0 * 19999)), within(1e-9));
    assertThat(metrics.get("pass@20000/accuracy").asDouble()).isEqualTo(100.0);
    assertThat(metrics.get("pass@1[avg-of-20000]/accuracy").asDouble()).isCloseTo(25.0, within(1e-9));
    assertThat(metrics.get("per_sample_aggregate").get("accuracy")).hasSize(20_000);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void rows_past_the_limit_are_a_413_before_the_body_is_built() throws Exception {
    HttpResponse<String> reply = post("small", oneTask(11, 2));
    assertThat(reply.statusCode()).isEqualTo(413);
    assertThat(Json.parse(reply.body()).get("detail").asString())
        .contains("more than 10 rows", "aggregate_metrics_max_rows");
    assertThat(post("small", oneTask(10, 2)).statusCode()).isEqualTo(200);
    // 3 million empty rows, 9 MB: before, a tree of 3 million objects and then the n³ work; now refused at the
    // default limit of 100,000 rows
    String empties = "{\"verify_responses\": [" + "{},".repeat(3_000_000) + "{}]}";
    HttpResponse<String> huge = post("counter", empties);
    assertThat(huge.statusCode()).isEqualTo(413);
    assertThat(huge.body()).contains("more than 100000 rows").doesNotContain("Exception", "tools.jackson");
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void work_past_the_time_limit_is_stopped_and_answered_422() throws Exception {
    HttpResponse<String> reply = post("hurried", oneTask(2_000, 3));
    assertThat(reply.statusCode()).isEqualTo(422);
    assertThat(Json.parse(reply.body()).get("detail").asString())
        .contains("took longer than 0.5 s", "aggregate_metrics_timeout_seconds");
    assertThat(SlowMetricsEnvironment.STOPPED.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    // the server answers the next request at once: nothing is left running
    assertThat(post("counter", oneTask(10, 2)).statusCode()).isEqualTo(200);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void a_caller_that_leaves_stops_the_work() throws Exception {
    URI url = url("patient");
    byte[] body = oneTask(2_000, 3).getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket(url.getHost(), url.getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /aggregate_metrics HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      assertThat(SlowMetricsEnvironment.STARTED.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }
    // the time limit is 60 s: stopped well before it, the work ended because its caller left
    assertThat(SlowMetricsEnvironment.STOPPED.await(WAIT.toSeconds(), TimeUnit.SECONDS))
        .as("the metrics work stopped after the caller left").isTrue();
  }
}
