package dev.gym4j.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.metrics.AggregateMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The viewer's JSON API over real files and a real server. File layout as NeMo Gym's nemo_gym/rollout_collection.py
 * writes it (rollouts, {@code <stem>_failures.jsonl} with {@code _ng_failure_class}, {@code <stem>_aggregate_metrics.json});
 * metrics as nemo_gym/reward_profile.py computes them (through our AggregateMetrics).
 */
class ViewerApiTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path dir;

  private Viewer viewer;

  @AfterEach
  void stop() {
    if (viewer != null) {
      viewer.close();
    }
  }

  @Test
  void pagesThroughAllRowsInFileOrder() throws Exception {
    start(sample("a.jsonl", 30, 4, 1));
    List<Integer> seen = new ArrayList<>();
    for (int offset = 0; offset < 120; offset += 50) {
      JsonNode page = get("/api/rows?file=0&limit=50&offset=" + offset);
      assertThat(page.path("total").asInt()).isEqualTo(120);
      page.path("rows").forEach(row -> seen.add(row.path("row").asInt()));
    }
    assertThat(seen).hasSize(120).isSorted().doesNotHaveDuplicates();
    assertThat(get("/api/rows?file=0&offset=100&limit=50").path("rows")).hasSize(20);
  }

  @Test
  void filtersByRewardTaskToolFailureClassAndText() throws Exception {
    Path file = sample("a.jsonl", 30, 4, 1);
    SampleRollouts.writeFailures(file, 6);
    start(file);
    assertThat(get("/api/rows?file=0&min=1&limit=500").path("rows")).isNotEmpty()
        .allSatisfy(row -> assertThat(row.path("reward").asDouble()).isEqualTo(1.0));
    assertThat(get("/api/rows?file=0&task=%233").path("rows")).hasSize(4)
        .allSatisfy(row -> assertThat(row.path("task").asString()).isEqualTo("#3"));
    JsonNode timeouts = get("/api/rows?file=0&failure=timeout");
    assertThat(timeouts.path("total").asInt()).isEqualTo(2);
    assertThat(timeouts.path("rows")).allSatisfy(row -> assertThat(row.path("reward").isNull()).isTrue());
    assertThat(get("/api/rows?file=0&failure=none").path("total").asInt()).isEqualTo(120);
    assertThat(get("/api/rows?file=0&tool=get_weather").path("total").asInt()).isEqualTo(120);
    assertThat(get("/api/rows?file=0&tool=no_such_tool").path("total").asInt()).isZero();
    // task t asks about the city t % 5; Tokyo is city 1: tasks 1, 6, …, 26 with 4 rollouts each
    assertThat(get("/api/rows?file=0&q=tOKYo").path("total").asInt()).isEqualTo(6 * 4);
  }

  @Test
  void sortsByAnyColumnEitherWay() throws Exception {
    start(sample("a.jsonl", 20, 3, 2));
    List<Integer> tokens = new ArrayList<>();
    get("/api/rows?file=0&sort=output_tokens&dir=desc&limit=500").path("rows")
        .forEach(row -> tokens.add(row.path("output_tokens").asInt()));
    assertThat(tokens).hasSize(60).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    List<Double> rewards = new ArrayList<>();
    get("/api/rows?file=0&sort=reward&limit=500").path("rows").forEach(r -> rewards.add(r.path("reward").asDouble()));
    assertThat(rewards).isSorted();
    assertThat(status("/api/rows?file=0&sort=secret_field")).isEqualTo(400);
  }

  @Test
  void groupsTheRepeatsOfEachTaskAndMarksZeroVariance() throws Exception {
    Path file = sample("a.jsonl", 25, 4, 3);
    start(file);
    JsonNode groups = get("/api/groups?file=0&limit=500");
    assertThat(groups.path("total").asInt()).isEqualTo(25);
    int zero = 0;
    for (List<JsonNode> task : byTask(Json.readLines(file))) {
      double first = task.getFirst().path("reward").asDouble();
      zero += task.stream().allMatch(r -> r.path("reward").asDouble() == first) ? 1 : 0;
    }
    assertThat(zero).isPositive();
    assertThat(groups.path("zero_variance_groups").asInt()).isEqualTo(zero);
    JsonNode task3 = get("/api/groups?file=0&limit=500").path("groups").get(3);
    assertThat(task3.path("task").asString()).isEqualTo("#3");
    assertThat(task3.path("rollouts")).hasSize(4);
  }

  @Test
  void overviewMetricsAreThoseOfTheWholeRowsForNemoGymFiles() throws Exception {
    // NeMo Gym's recorded rollouts: mcqa's rows carry no _ng_task_index, so tasks are told apart by prompt
    for (String name : List.of("mcqa_rollouts.jsonl", "math_with_judge_rollouts.jsonl",
        "example_tool_call_multireward_rollouts.jsonl")) {
      Path file = Path.of("data", name);
      start(file);
      JsonNode overview = get("/api/overview?file=0");
      JsonNode expected = AggregateMetrics.compute(Json.readLines(file));
      // compared as text: the same numbers may come back as other node types (int or long) over the wire
      assertThat(overview.path("metrics").get(0).path("agent_metrics").toString())
          .isEqualTo(expected.get(0).path("agent_metrics").toString());
      assertThat(overview.path("file").path("rows").asInt()).isEqualTo(Json.readLines(file).size());
      viewer.close();
      viewer = null;
    }
  }

  @Test
  void overviewReportsPassAtKHistogramsAndFailures() throws Exception {
    Path file = sample("a.jsonl", 10, 4, 4);
    SampleRollouts.writeFailures(file, 3);
    start(file);
    JsonNode overview = get("/api/overview?file=0");
    assertThat(overview.path("pass_at_k").get(0).path("points")).hasSize(4);
    assertThat(overview.path("reward_histogram").path("counts").valueStream().mapToInt(JsonNode::asInt).sum())
        .isEqualTo(40);
    assertThat(overview.path("failures_by_class").path("timeout").asInt()).isEqualTo(1);
    assertThat(overview.path("failures_by_class").path("judge_error").asInt()).isEqualTo(1);
    assertThat(overview.path("reward_by_task")).hasSize(10);
    assertThat(overview.path("tools").path("get_weather").asInt()).isEqualTo(40);
  }

  @Test
  void rewardByTaskKeepsTheHardestAndEasiestTasksOfALargeFile() throws Exception {
    start(sample("a.jsonl", 400, 2, 12));
    JsonNode overview = get("/api/overview?file=0");
    assertThat(overview.path("num_tasks").asInt()).isEqualTo(400);
    List<Double> means = new ArrayList<>();
    overview.path("reward_by_task").forEach(task -> means.add(task.path("mean").asDouble()));
    assertThat(means).hasSize(2 * Overview.TASK_BARS).isSorted();
  }

  @Test
  void showsTheRecordedMetricsFileBesideTheRollouts() throws Exception {
    Path file = sample("run.jsonl", 3, 2, 5);
    Files.writeString(dir.resolve("run_aggregate_metrics.json"), "[{\"agent_ref\":{\"name\":\"x\"},\"agent_metrics\":"
        + "{\"mean/reward\":0.25}}]");
    start(file);
    assertThat(get("/api/overview?file=0").path("recorded_metrics").get(0).path("agent_metrics")
        .path("mean/reward").asDouble()).isEqualTo(0.25);
  }

  @Test
  void aRolloutIsTheLineAsTheFileHoldsIt() throws Exception {
    Path file = Path.of("data", "math_with_judge_rollouts.jsonl");
    start(file);
    List<String> lines = Files.readAllLines(file);
    HttpResponse<String> response = send("/api/rollout?file=0&row=2", "127.0.0.1");
    assertThat(response.body()).isEqualTo(lines.get(2));
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(status("/api/rollout?file=0&row=5")).isEqualTo(404);
  }

  @Test
  void comparesTwoFilesTaskByTask() throws Exception {
    Path a = sample("a.jsonl", 12, 4, 6);
    Path b = sample("b.jsonl", 12, 4, 7);
    start(a, b);
    JsonNode compare = get("/api/compare?a=0&b=1");
    assertThat(compare.path("tasks")).hasSize(12);
    List<List<JsonNode>> left = byTask(Json.readLines(a));
    List<List<JsonNode>> right = byTask(Json.readLines(b));
    for (JsonNode task : compare.path("tasks")) {
      int t = Integer.parseInt(task.path("task").asString().substring(1));
      assertThat(task.path("delta").asDouble()).isCloseTo(mean(right.get(t)) - mean(left.get(t)),
          org.assertj.core.data.Offset.offset(1e-12));
    }
    List<Double> changes = new ArrayList<>();
    compare.path("tasks").forEach(t -> changes.add(Math.abs(t.path("delta").asDouble())));
    assertThat(changes).isSortedAccordingTo(java.util.Comparator.reverseOrder());
  }

  @Test
  void servesOnlyTheGivenFilesAndThePage() throws Exception {
    start(sample("a.jsonl", 2, 1, 8));
    assertThat(status("/api/rollout?file=../../etc/passwd&row=0")).isEqualTo(400);
    assertThat(body("/api/rollout?file=1&row=0")).contains("'file'");
    assertThat(status("/..%2f..%2fetc/passwd")).isEqualTo(404);
    assertThat(status("/vendor/fonts/..%2f..%2fkatex.min.js")).isEqualTo(404);
    assertThat(status("/META-INF/resources/webjars/katex/0.16.47/dist/katex.min.js")).isEqualTo(404);
    assertThat(status("/dev/gym4j/viewer/webjars.properties")).isEqualTo(404);
    assertThat(status("/vendor/fonts/KaTeX_Main-Regular.woff2")).isEqualTo(200);
    assertThat(status("/vendor/chart.js")).isEqualTo(200);
  }

  @Test
  void badParametersAre400NamingTheParameter() throws Exception {
    start(sample("a.jsonl", 2, 1, 8));
    assertThat(body("/api/rows?file=0&limit=100000")).contains("'limit'");
    assertThat(body("/api/rows?file=0&min=abc")).contains("'min'");
    assertThat(body("/api/rows?file=0&max=NaN")).contains("'max'");
    assertThat(body("/api/rollout?file=0")).contains("'row'");
    assertThat(body("/api/compare?a=0")).contains("'b'");
    assertThat(body("/api/rows?file=0&min=abc")).doesNotContain("Exception").doesNotContain("java.");
  }

  @Test
  void everyAnswerCarriesAStrictContentSecurityPolicy() throws Exception {
    start(sample("a.jsonl", 2, 1, 8));
    for (String path : List.of("/", "/app.js", "/api/files", "/api/rows?file=0", "/nope")) {
      HttpResponse<String> response = send(path, "127.0.0.1");
      assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue(Viewer.CSP);
      assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }
    assertThat(Viewer.CSP).contains("script-src 'self'").doesNotContain("unsafe");
  }

  @Test
  void refusesARequestForAnotherHost() throws Exception {
    start(sample("a.jsonl", 2, 1, 8));
    // DNS rebinding: a hostile page's requests reach loopback but name the page's host
    assertThat(rawStatus("evil.example")).isEqualTo(421);
    assertThat(rawStatus("localhost:" + viewer.uri().getPort())).isEqualTo(200);
  }

  @Test
  void xssPayloadsAreServedAsJsonData() throws Exception {
    Path file = dir.resolve("xss.jsonl");
    Files.writeString(file, Json.write(XssRollout.row()) + "\n");
    start(file);
    HttpResponse<String> response = send("/api/rollout?file=0&row=0", "127.0.0.1");
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(Json.parse(response.body()).toString()).isEqualTo(XssRollout.row().toString());
    assertThat(get("/api/rows?file=0").path("rows").get(0).path("prompt").asString()).contains("<script>");
  }

  @Test
  void followsRowsAppendedByARunningCollection() throws Exception {
    Path file = sample("a.jsonl", 2, 2, 9);
    start(file);
    awaitRows(4);
    List<String> more = Files.readAllLines(sample("b.jsonl", 3, 1, 9));
    // a torn tail: half a line is not a row until the rest arrives
    Files.writeString(file, more.get(0) + "\n" + more.get(1).substring(0, 40), StandardOpenOption.APPEND);
    awaitRows(5);
    Thread.sleep(1200);
    assertThat(get("/api/files").path("files").get(0).path("rows").asInt()).isEqualTo(5);
    Files.writeString(file, more.get(1).substring(40) + "\n", StandardOpenOption.APPEND);
    awaitRows(6);
    assertThat(get("/api/files").path("files").get(0).path("skipped_lines").asInt()).isZero();
  }

  @Test
  void countsLinesThatAreNotJsonWithoutStopping() throws Exception {
    Path file = sample("a.jsonl", 2, 1, 10);
    Files.writeString(file, "not json\n\n[1,2]\n", StandardOpenOption.APPEND);
    Files.writeString(file, Files.readAllLines(sample("b.jsonl", 1, 1, 10)).getFirst() + "\n",
        StandardOpenOption.APPEND);
    RolloutFile indexed = new RolloutFile(0, file);
    indexed.indexOnce();
    assertThat(indexed.rows()).hasSize(3);
    assertThat(indexed.skipped()).isEqualTo(2);
  }

  // ---- helpers

  private Path sample(String name, int tasks, int repeats, long seed) throws IOException {
    Path file = dir.resolve(name);
    new SampleRollouts(tasks, repeats, seed, 0).write(file);
    return file;
  }

  private void start(Path... files) throws InterruptedException {
    viewer = Viewer.start(List.of(files), "127.0.0.1", 0);
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!viewer.indexed()) {
      assertThat(System.nanoTime()).as("indexing within 20 s").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private void awaitRows(int rows) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (get("/api/files").path("files").get(0).path("rows").asInt() < rows) {
      assertThat(System.nanoTime()).as("%d rows indexed within 20 s", rows).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static List<List<JsonNode>> byTask(List<JsonNode> rows) {
    List<List<JsonNode>> tasks = new ArrayList<>();
    for (JsonNode row : rows) {
      int task = row.path("_ng_task_index").asInt();
      while (tasks.size() <= task) {
        tasks.add(new ArrayList<>());
      }
      tasks.get(task).add(row);
    }
    return tasks;
  }

  private static double mean(List<JsonNode> rows) {
    return rows.stream().mapToDouble(r -> r.path("reward").asDouble()).average().orElseThrow();
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> response = send(path, "127.0.0.1");
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return Json.parse(response.body());
  }

  private int status(String path) throws Exception {
    return send(path, "127.0.0.1").statusCode();
  }

  private String body(String path) throws Exception {
    return send(path, "127.0.0.1").body();
  }

  private HttpResponse<String> send(String path, String host) throws Exception {
    URI uri = URI.create("http://" + host + ":" + viewer.uri().getPort() + path);
    return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A request with a chosen Host header (the JDK client will not send one): its status code. */
  private int rawStatus(String host) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", viewer.uri().getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(("GET /api/files HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      return Integer.parseInt(status.substring(9, 12));
    }
  }
}
