package dev.gym4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.Yaml;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.run.Deployment;
import dev.gym4j.testing.TestConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The plumbing every server gets, exercised over real HTTP on ephemeral ports. */
class ServerRuntimeTest {
  private static final String CONFIG = """
      policy_api_key: sk-very-secret
      counter:
        resources_servers:
          test_counter:
            domain: other
            max_body_bytes: 2000
            api_key: ${policy_api_key}
      """;
  private static final String COOKIE = "CounterEnvironment___counter";

  @TempDir
  Path dir;
  Deployment deployment;
  ServerClient client;

  @BeforeEach
  void start() {
    deployment = Deployment.start(TestConfigs.load(dir, CONFIG), Implementations.load(), Set.of());
    client = deployment.client();
  }

  @AfterEach
  void stop() {
    deployment.close();
  }

  private HttpReply post(String path, String body, Map<String, String> cookies) {
    return client.send(deployment.directory().find("counter").orElseThrow().resolve(path), "POST",
        body.getBytes(), cookies, Map.of());
  }

  @Test
  void livenessAndNotFound() {
    HttpReply root = client.get("counter", "/");
    assertThat(root.status()).isEqualTo(200);
    assertThat(root.json()).isEqualTo(Json.parse("{\"status\":\"ok\"}"));
    HttpReply missing = client.post("counter", "/no_such_tool", Json.object(), Map.of());
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json()).isEqualTo(Json.parse("{\"detail\":\"Not Found\"}"));
  }

  @Test
  void badInputIsA422NamingTheField() {
    HttpReply malformed = post("/increment_counter", "{\"count\": ", Map.of());
    assertThat(malformed.status()).isEqualTo(422);
    assertThat(malformed.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\"]");
    assertThat(malformed.json().at("/detail/0/type").asString()).isEqualTo("json_invalid");

    HttpReply wrongType = post("/increment_counter", "{\"count\": \"three\"}", Map.of());
    assertThat(wrongType.status()).isEqualTo(422);
    assertThat(wrongType.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"count\"]");

    HttpReply missing = post("/increment_counter", "{}", Map.of());
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"count\"]");
    assertThat(missing.json().at("/detail/0/msg").asString()).isEqualTo("Field required");

    HttpReply badVerify = post("/verify", "{\"responses_create_params\": {\"input\": 5}, \"response\": {\"output\": []}}",
        Map.of());
    assertThat(badVerify.status()).isEqualTo(422);
    assertThat(badVerify.json().at("/detail/0/loc").toString()).isEqualTo("[\"body\",\"responses_create_params\",\"input\"]");
  }

  @Test
  void aBodyOverTheLimitIsA413() {
    String big = "{\"count\": 1, \"padding\": \"" + "x".repeat(3000) + "\"}";
    HttpReply reply = post("/increment_counter", big, Map.of());
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.json().get("detail").asString()).contains("larger than 2000 bytes");
    Map<String, String> session = post("/seed_session", "{}", Map.of()).cookies();
    assertThat(post("/increment_counter", "{\"count\": 1}", session).status()).isEqualTo(200);
  }

  @Test
  void aggregateMetricsRefusesNumbersItCannotUseWithA422NamingTheField_issue14() {
    String[][] cases = {
        {"{\"verify_responses\": [{\"reward\": 1e999999999}]}", "reward"},
        {"{\"verify_responses\": [{\"reward\": 1, \"_ng_task_index\": 1.5}]}", "_ng_task_index"},
        {"{\"verify_responses\": [{\"reward\": 1, \"_ng_task_index\": 99999999999999999999999}]}", "_ng_task_index"},
        {"{\"verify_responses\": [7]}", "0"}};
    for (String[] c : cases) {
      HttpReply reply = post("/aggregate_metrics", c[0], Map.of());
      assertThat(reply.status()).as(c[0]).isEqualTo(422);
      assertThat(reply.json().at("/detail/0/loc").toString()).as(c[0]).contains(c[1]);
      assertThat(reply.text()).doesNotContain("Exception");
    }
  }

  @Test
  void aFailingHandlerIsAShort500WithoutAStackTrace() {
    HttpReply reply = post("/explode", "{}", Map.of());
    assertThat(reply.status()).isEqualTo(500);
    // issue 14, item 7: no class name and no message, which could carry anything the handler was given
    assertThat(reply.json().get("detail").asString()).matches("Internal Server Error in counter \\(error [0-9a-f]+\\)");
    assertThat(reply.text()).doesNotContain("at dev.gym4j", "Exception", "the tool broke");
  }

  @Test
  void sessionsKeepEachRolloutsStateApartAndEndAtVerify() {
    Map<String, String> first = new HashMap<>(post("/seed_session", "{\"initial_count\": 3}", Map.of()).cookies());
    Map<String, String> second = new HashMap<>(post("/seed_session", "{\"initial_count\": 100}", Map.of()).cookies());
    assertThat(first).containsKey(COOKIE);
    assertThat(first.get(COOKIE)).isNotEqualTo(second.get(COOKIE));

    HttpReply step = post("/increment_counter", "{\"count\": 1}", first);
    first.putAll(step.cookies());
    post("/increment_counter", "{\"count\": 5}", second);
    first.putAll(post("/increment_counter", "{\"count\": 2}", first).cookies());
    assertThat(post("/get_counter_value", "{}", first).json().get("count").asInt()).isEqualTo(6);
    assertThat(post("/get_counter_value", "{}", second).json().get("count").asInt()).isEqualTo(105);

    ResourcesServer server = (ResourcesServer) deployment.servers().getFirst().server();
    assertThat(server.openSessions()).isEqualTo(2);
    String verify = "{\"responses_create_params\": {\"input\": \"add 1 then 2\"}, \"response\": {\"output\": []},"
        + " \"expected_count\": 6, \"task_field\": \"kept\"}";
    HttpReply verdict = post("/verify", verify, first);
    assertThat(verdict.status()).isEqualTo(200);
    assertThat(verdict.json().get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.json().get("final_count").asInt()).isEqualTo(6);
    assertThat(verdict.json().get("task_field").asString()).isEqualTo("kept");
    assertThat(verdict.json().get("response")).isEqualTo(Json.parse("{\"output\": []}"));
    assertThat(server.openSessions()).isEqualTo(1);
  }

  @Test
  void aggregateMetricsOfVerifyResponses() {
    HttpReply reply = post("/aggregate_metrics", "{\"verify_responses\": [{\"reward\": 1.0, \"_ng_task_index\": 0},"
        + " {\"reward\": 0.0, \"_ng_task_index\": 0}]}", Map.of());
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().at("/agent_metrics/mean~1reward").asDouble()).isEqualTo(0.5);
    assertThat(reply.json().at("/agent_metrics/pass@2~1accuracy").asDouble()).isEqualTo(100.0);
    assertThat(post("/aggregate_metrics", "{}", Map.of()).status()).isEqualTo(422);
  }

  @Test
  void metricsAreServedInPrometheusFormat() {
    post("/increment_counter", "{\"count\": 1}", post("/seed_session", "{}", Map.of()).cookies());
    post("/increment_counter", "{}", Map.of());
    HttpReply metrics = client.get("counter", "/metrics");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.text()).contains("gym4j_requests_seconds_count{method=\"POST\",route=\"/increment_counter\","
        + "server=\"counter\",status=\"200\"}", "status=\"422\"", "gym4j_requests_in_flight{server=\"counter\"}");
  }

  @Test
  void aForgedOrTamperedCookieFindsNoSession() {
    Map<String, String> cookies = post("/seed_session", "{\"initial_count\": 7}", Map.of()).cookies();
    String value = cookies.get(COOKIE);
    String payload = value.substring(0, value.lastIndexOf('.'));
    String forged = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString("{\"session_id\":\"someone-else\"}".getBytes()) + value.substring(value.lastIndexOf('.'));
    // issue 14: no fresh empty state either; only seed_session starts a session
    assertThat(post("/get_counter_value", "{}", Map.of(COOKIE, forged)).status()).isEqualTo(409);
    assertThat(post("/get_counter_value", "{}", Map.of(COOKIE, payload + ".AAAA")).status()).isEqualTo(409);
    assertThat(post("/get_counter_value", "{}", cookies).json().get("count").asInt()).isEqualTo(7);
  }

  @Test
  void theHeadServerListsInstancesAndServesTheConfigWithSecretsMasked() {
    URI head = deployment.head().url();
    HttpReply instances = client.send(head.resolve("/server_instances"), "GET", null, Map.of(), Map.of());
    JsonNode record = instances.json().get(0);
    assertThat(record.get("process_name").asString()).isEqualTo("counter");
    assertThat(record.get("server_type").asString()).isEqualTo("resources_servers");
    assertThat(record.get("name").asString()).isEqualTo("test_counter");
    int port = deployment.servers().getFirst().port();
    assertThat(record.get("url").asString()).isEqualTo("http://127.0.0.1:" + port);

    HttpReply config = client.send(head.resolve("/global_config_dict_yaml"), "GET", null, Map.of(), Map.of());
    assertThat(config.json().isString()).isTrue();
    String yaml = config.json().asString();
    assertThat(yaml).doesNotContain("sk-very-secret").contains("policy_api_key: '****'", "api_key: ${policy_api_key}");
    JsonNode tree = Yaml.parse(yaml);
    assertThat(tree.at("/counter/resources_servers/test_counter/port").asInt()).isEqualTo(port);
    assertThat(tree.at("/head_server/port").asInt()).isEqualTo(head.getPort());
  }

  @Test
  void anUnknownImplementationIsAConfigErrorListingTheKnownOnes() {
    GlobalConfig config = TestConfigs.load(dir, "x:\n  resources_servers:\n    no_such_env: {domain: other}\n");
    assertThatThrownBy(() -> Deployment.start(config, Implementations.load(), Set.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("no resources_servers implementation named 'no_such_env' (instance x)")
        .hasMessageContaining("test_counter");
  }

  @Test
  void aTakenPortIsAConfigErrorNamingTheInstance() {
    int taken = deployment.servers().getFirst().port();
    GlobalConfig config = TestConfigs.load(dir, "y:\n  resources_servers:\n    test_counter: {domain: other, port: "
        + taken + "}\n");
    assertThatThrownBy(() -> Deployment.start(config, Implementations.load(), Set.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("instance y could not start on 127.0.0.1:" + taken);
  }
}
