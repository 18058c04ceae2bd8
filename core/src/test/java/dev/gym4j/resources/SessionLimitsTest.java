package dev.gym4j.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.server.Metrics;
import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, item 10: sessions are bounded. Only seed_session creates one; a stateful tool call without a live
 * session is a 409 (before: a fresh empty session per call, 200,000 of them kept 71 MB live); at most
 * max_sessions are live, the idlest evicted and counted; idle ones are swept on a timer.
 */
class SessionLimitsTest {
  private static final String VERIFY = "{\"responses_create_params\": {\"input\": \"q\"}, \"response\": {\"output\": []},"
      + " \"expected_count\": 0}";

  @TempDir
  Path dir;
  Deployment deployment;
  ServerClient client;
  String name;

  private void deploy(String name, String settings) {
    this.name = name;
    deployment = Deployment.start(TestConfigs.load(dir, name + ":\n  resources_servers:\n    test_counter: {domain: other"
        + settings + "}\n"), Implementations.load(), Set.of());
    client = deployment.client();
  }

  @AfterEach
  void stop() {
    deployment.close();
  }

  private ResourcesServer server() {
    return (ResourcesServer) deployment.servers().getFirst().server();
  }

  private HttpReply post(String path, String body, Map<String, String> cookies) {
    return client.post(name, path, Json.parse(body), cookies);
  }

  private Map<String, String> seed(int count) {
    return new HashMap<>(post("/seed_session", "{\"initial_count\": " + count + "}", Map.of()).cookies());
  }

  private double evicted(String reason) {
    return Metrics.REGISTRY.find("gym4j.sessions.evicted").tag("server", name).tag("reason", reason).counters()
        .stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
  }

  @Test
  void a_stateful_tool_call_without_a_session_is_409_and_creates_none_issue_14() {
    deploy("sessions_a", "");
    for (int i = 0; i < 200; i++) {
      HttpReply reply = post("/increment_counter", "{\"count\": 1}", Map.of());
      assertThat(reply.status()).isEqualTo(409);
      assertThat(reply.json().get("detail").asString()).contains("no live session", "POST /seed_session");
    }
    assertThat(server().openSessions()).isZero();
    // a tool that keeps no state needs no session, and gets none
    assertThat(post("/explode", "{}", Map.of()).status()).isEqualTo(500);
    assertThat(server().openSessions()).isZero();
  }

  @Test
  void verify_without_a_session_cookie_scores_on_an_empty_session_that_is_not_kept() {
    deploy("sessions_b", "");
    HttpReply verdict = post("/verify", VERIFY, Map.of());
    assertThat(verdict.status()).isEqualTo(200);
    assertThat(verdict.json().get("final_count").asInt()).isZero();
    assertThat(server().openSessions()).isZero();
  }

  @Test
  void live_sessions_are_capped_and_the_idlest_is_evicted_and_counted_issue_14() {
    deploy("sessions_c", ", max_sessions: 3");
    double before = evicted("capacity");
    Map<String, String> first = seed(1);
    Map<String, String> second = seed(2);
    seed(3);
    assertThat(post("/get_counter_value", "{}", first).json().get("count").asInt()).isEqualTo(1);
    List<Map<String, String>> more = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      more.add(seed(100 + i));
      post("/get_counter_value", "{}", first);   // keeps the first rollout busy, so never the idlest
    }

    assertThat(server().openSessions()).isEqualTo(3);
    assertThat(evicted("capacity") - before).isEqualTo(300);
    assertThat(post("/get_counter_value", "{}", first).json().get("count").asInt()).isEqualTo(1);
    assertThat(post("/get_counter_value", "{}", more.getLast()).json().get("count").asInt()).isEqualTo(399);
    HttpReply evictedCall = post("/get_counter_value", "{}", second);
    assertThat(evictedCall.status()).isEqualTo(409);
    assertThat(evictedCall.json().get("detail").asString()).contains("no live session");
    assertThat(post("/get_counter_value", "{}", more.get(more.size() - 4)).json().get("detail").asString())
        .contains("max_sessions");
    HttpReply evictedVerify = post("/verify", VERIFY, second);
    assertThat(evictedVerify.status()).as("never scored from an empty state").isEqualTo(409);
    assertThat(client.get(name, "/metrics").text()).contains("gym4j_sessions_evicted_total{reason=\"capacity\",server=\""
        + name + "\"}", "gym4j_sessions_live{server=\"" + name + "\"} 3.0");
  }

  /**
   * Issue 31, defect 3: what a session holds outside it ends with it, however it ends. The environment hears of
   * every end (sessionEnded): POST /close (an agent whose rollout failed), verify, eviction, a sweep at the time to
   * live, a new seed of the same session, and the server stopping.
   */
  @Test
  void every_way_a_session_ends_tells_the_environment_once_issue_31() throws InterruptedException {
    deploy("sessions_f", ", max_sessions: 2, session_ttl_seconds: 0.5");
    dev.gym4j.testing.CounterEnvironment environment = (dev.gym4j.testing.CounterEnvironment) server();
    Map<String, String> closed = seed(1);
    assertThat(post("/close", "{}", closed).status()).isEqualTo(200);
    assertThat(environment.ended).hasSize(1);
    HttpReply late = post("/get_counter_value", "{}", closed);
    assertThat(late.status()).isEqualTo(409);
    assertThat(late.json().get("detail").asString()).contains("has ended");
    assertThat(post("/close", "{}", closed).status()).as("closing twice is harmless").isEqualTo(200);
    assertThat(post("/close", "{}", Map.of()).status()).as("no session: nothing to end").isEqualTo(200);
    assertThat(environment.ended).hasSize(1);

    assertThat(post("/verify", VERIFY, seed(2)).status()).isEqualTo(200);
    assertThat(environment.ended).hasSize(2);
    Map<String, String> reseeded = seed(3);
    assertThat(post("/seed_session", "{\"initial_count\": 4}", reseeded).status()).isEqualTo(200);
    assertThat(environment.ended).as("a new seed replaces the session").hasSize(3);
    seed(5);
    seed(6);
    assertThat(environment.ended).as("one evicted past max_sessions").hasSize(4);

    long deadline = System.nanoTime() + 20_000_000_000L;
    while (environment.ended.size() < 6 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(environment.ended).as("both idle ones swept").hasSize(6);
  }

  @Test
  void idle_sessions_are_swept_on_a_timer_without_any_request_issue_14() throws InterruptedException {
    deploy("sessions_d", ", session_ttl_seconds: 0.2");
    double before = evicted("expired");
    Map<String, String> idle = seed(5);
    seed(6);
    seed(7);
    assertThat(server().openSessions()).isEqualTo(3);

    long deadline = System.nanoTime() + 20_000_000_000L;
    while (server().openSessions() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }

    assertThat(server().openSessions()).isZero();
    assertThat(evicted("expired") - before).isEqualTo(3);
    HttpReply late = post("/increment_counter", "{\"count\": 1}", idle);
    assertThat(late.status()).isEqualTo(409);
    assertThat(late.json().get("detail").asString()).contains("session_ttl_seconds");
  }

  @Test
  void a_verified_session_is_over_and_a_second_verify_is_refused() {
    deploy("sessions_e", "");
    Map<String, String> cookies = seed(0);
    assertThat(post("/verify", VERIFY, cookies).json().get("reward").asDouble()).isEqualTo(1.0);
    assertThat(server().openSessions()).isZero();
    assertThat(post("/verify", VERIFY, cookies).status()).isEqualTo(409);
    assertThat(post("/increment_counter", "{\"count\": 1}", cookies).status()).isEqualTo(409);
  }
}
