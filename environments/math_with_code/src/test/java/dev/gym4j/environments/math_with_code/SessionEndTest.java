package dev.gym4j.environments.math_with_code;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 31, defect 3: a rollout that called execute_python and then failed before verify (the model's upstream
 * answered 400) left its interpreter running; at sandbox_max_live_processes every new rollout got 502 for the next
 * 30 to 60 minutes. Now the interpreter ends with the rollout however it ends (the agent closes the session, and the
 * environment ends what a session holds when the session ends, at its time to live too), and a full sandbox frees the
 * interpreter unused the longest instead of refusing. Real servers, real bubblewrap interpreters, counted as this
 * JVM's processes.
 */
class SessionEndTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String AGENT = "math_with_code_simple_agent";

  /** This JVM's sandboxed programs now running (each is a bubblewrap process). */
  private static long interpreters() {
    return ProcessHandle.current().descendants().filter(p -> p.info().command().map(c -> c.endsWith("/bwrap"))
        .orElse(false)).count();
  }

  private static long settledAt(long expected, LongSupplier count) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (count.getAsLong() != expected && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    return count.getAsLong();
  }

  private static ObjectNode row() throws Exception {
    String first = Files.readAllLines(EnvironmentHarness.projectRoot()
        .resolve("environments/math_with_code/data/example.jsonl")).getFirst();
    return (ObjectNode) Json.parse(first);
  }

  @Test
  void a_rollout_that_fails_after_running_python_leaves_no_interpreter() throws Exception {
    try (EnvironmentHarness harness = EnvironmentHarness.start("math_with_code")) {
      long before = interpreters();
      AtomicLong duringRollout = new AtomicLong(-1);
      harness.model().enqueue(Answer.toolCall("execute_python", "{\"code\": \"x = 41\"}"));
      harness.model().otherwise(request -> {
        duringRollout.set(interpreters());
        return Answer.error(400, "{\"error\": {\"message\": \"Invalid 'input': malformed tool call\"}}");
      });

      HttpReply reply = harness.client().post(AGENT, "/run", row(), Map.of());

      assertThat(reply.status()).as(reply.text()).isNotEqualTo(200);
      assertThat(reply.json().get("_ng_failure_class").asString()).isEqualTo("model_error");
      assertThat(duringRollout.get()).as("the rollout's interpreter ran").isEqualTo(before + 1);
      assertThat(settledAt(before, SessionEndTest::interpreters)).as("no interpreter outlives its rollout")
          .isEqualTo(before);
    }
  }

  @Test
  void an_idle_session_past_its_time_to_live_ends_its_interpreter() throws Exception {
    try (EnvironmentHarness harness = EnvironmentHarness.start("math_with_code",
        "++math_with_code.resources_servers.math_with_code.session_ttl_seconds=1")) {
      long before = interpreters();
      Map<String, String> session = harness.post("/seed_session", Json.parse("{}"), Map.of()).cookies();
      assertThat(harness.post("/execute_python", Json.parse("{\"code\": \"x = 1\"}"), session).status()).isEqualTo(200);
      assertThat(interpreters()).isEqualTo(before + 1);
      // no further call: the session store's sweep ends the session, and its interpreter with it
      assertThat(settledAt(before, SessionEndTest::interpreters)).isEqualTo(before);
    }
  }

  @Test
  void a_full_sandbox_frees_the_interpreter_unused_the_longest() throws Exception {
    try (EnvironmentHarness harness = EnvironmentHarness.start("math_with_code",
        "++math_with_code.resources_servers.math_with_code.sandbox_max_live_processes=2")) {
      Map<String, String> oldest = new HashMap<>(harness.post("/seed_session", Json.parse("{}"), Map.of()).cookies());
      Map<String, String> second = harness.post("/seed_session", Json.parse("{}"), Map.of()).cookies();
      Map<String, String> third = harness.post("/seed_session", Json.parse("{}"), Map.of()).cookies();
      run(harness, oldest, "a = 1");
      run(harness, second, "b = 2");

      // before: 502, "2 live processes are already open"
      HttpReply reply = harness.post("/execute_python", Json.parse("{\"code\": \"c = 3\\nc\"}"), third);
      assertThat(reply.status()).as(reply.text()).isEqualTo(200);
      assertThat(reply.json().get("result").asString()).isEqualTo("3");
      // the oldest rollout's next call starts afresh; the other kept its interpreter
      assertThat(run(harness, second, "b").get("result").asString()).isEqualTo("2");
      JsonNode restarted = run(harness, oldest, "a");
      assertThat(restarted.get("error_message").asString()).isEqualTo("name 'a' is not defined");
    }
  }

  private static JsonNode run(EnvironmentHarness harness, Map<String, String> session, String code) {
    HttpReply reply = harness.post("/execute_python", Json.object().put("code", code), session);
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    return reply.json();
  }
}
