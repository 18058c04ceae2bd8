package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.InProcess;
import dev.gym4j.server.Metrics;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same conversation with hops between the servers of one JVM in process and over HTTP: every reply the
 * collector's client gets (a rollout with tool calls, a tool's 422 and 500, a model's bad arguments and unknown
 * tools, 404, 405 and 413) is the same, byte for byte. The only masked parts are those drawn at random
 * either way: session cookie values, the error id of a 500, {@code created_at}, and the ids of responses, items
 * and tool calls (numbered in order of first appearance, so that where each one recurs is still compared).
 *
 * <p>NeMo Gym has no in-process transport (its servers always talk over HTTP, nemo_gym/server_utils.py), so
 * the HTTP behaviour is the spec this transport must reproduce; the rollout itself follows
 * responses_api_agents/simple_agent/app.py.
 */
class InProcessHopsTest {
  private static final String ROW = """
      {"responses_create_params": {"input": [{"role": "user", "content": "add 1 then 2"}],
        "tools": [{"type": "function", "name": "increment_counter", "parameters": {"type": "object",
          "properties": {"count": {"type": "integer"}}, "required": ["count"]}},
          {"type": "function", "name": "explode", "parameters": {"type": "object", "properties": {}}}]},
       "initial_count": 3, "expected_count": 6, "_ng_task_index": 0, "_ng_rollout_index": 0}""";

  @TempDir
  Path dir;

  @Test
  void aConversationInProcessAndOverHttpGetsTheSameBytes() {
    List<String> inProcess = conversation(true);
    List<String> overHttp = conversation(false);
    assertThat(inProcess).hasSize(overHttp.size());
    for (int i = 0; i < inProcess.size(); i++) {
      assertThat(inProcess.get(i)).as("reply " + i).isEqualTo(overHttp.get(i));
    }
  }

  /** Every reply of one conversation, as status, cookie names, failure headers and body text. */
  private List<String> conversation(boolean hopsInProcess) {
    List<String> replies = new ArrayList<>();
    double before = inProcessCalls();
    try (ScriptedUpstream model = ScriptedUpstream.start();
        Deployment deployment = Deployment.start(TestConfigs.load(dir, """
            client_initial_backoff_seconds: 0.01
            client_max_backoff_seconds: 0.02
            client_in_process: %s
            counter:
              resources_servers:
                test_counter: {domain: other, max_body_bytes: 65536}
            policy_model:
              responses_api_models:
                vllm_model: {base_url: %s, api_key: x, model: m, return_token_id_information: true,
                             uses_reasoning_parser: true}
            agent:
              responses_api_agents:
                simple_agent:
                  resources_server: {type: resources_servers, name: counter}
                  model_server: {type: responses_api_models, name: policy_model}
                  max_steps: 10
            """.formatted(hopsInProcess, model.baseUrl())),
            Implementations.load(), Set.of())) {
      ServerClient client = deployment.client();
      model.enqueue(Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("one first"),
          // no call to explode here: its 500's random error id would reach the model's prompt and its token ids
          Answer.toolCall("increment_counter", "{\"count\": \"x\"}"), Answer.toolCall("no_such_tool", "{}"),
          Answer.toolCall("increment_counter", "{\"count\": "), Answer.toolCall("increment_counter", "{\"count\": 2}"),
          Answer.text("Done: 6."));
      HttpReply rollout = client.post("agent", "/run", Json.parse(ROW), Map.of());
      assertThat(rollout.status()).as(rollout.text()).isEqualTo(200);
      assertThat(rollout.json().get("reward").asDouble()).isEqualTo(1.0);
      replies.add(shown(rollout));
      HttpReply seeded = client.post("counter", "/seed_session", Json.parse("{\"initial_count\": 2}"), Map.of());
      replies.add(shown(seeded));
      Map<String, String> session = seeded.cookies();
      replies.add(shown(client.post("counter", "/increment_counter", Json.parse("{\"count\": 5}"), session)));
      replies.add(shown(client.post("counter", "/increment_counter", Json.parse("{\"count\": \"five\"}"), session)));
      replies.add(shown(client.post("counter", "/explode", Json.parse("{}"), session)));
      replies.add(shown(client.post("counter", "/no_such_route", Json.parse("{}"), session)));
      replies.add(shown(client.get("counter", "/verify")));
      replies.add(shown(client.post("counter", "/verify", "x".repeat(70_000), session)));
      replies.add(shown(client.post("policy_model", "/v1/responses", Json.parse("{\"input\": 3}"), Map.of())));
      replies.add(shown(client.get("counter", "/")));
    }
    double calls = inProcessCalls() - before;
    if (hopsInProcess && !InProcess.forcedOff()) {
      assertThat(calls).as("calls in process").isGreaterThanOrEqualTo(16);
    } else {
      assertThat(calls).as("calls in process").isZero();
    }
    return replies;
  }

  private static double inProcessCalls() {
    var counter = Metrics.REGISTRY.find("gym4j.client.in_process").counter();
    return counter == null ? 0 : counter.count();
  }

  /** Ids drawn at random (responses, items, tool calls), numbered in the order they first appear. */
  private static final Pattern RANDOM_ID = Pattern.compile("(resp_|rs_|msg_|fc_|chatcmpl-tool-|chatcmpl-)[0-9a-f]{32}");

  private static String shown(HttpReply reply) {
    String body = new String(reply.body(), StandardCharsets.UTF_8).replaceAll("\\(error [0-9a-f]+\\)", "(error #)")
        .replaceAll("\"created_at\":[0-9]+", "\"created_at\":#");
    Map<String, String> numbered = new HashMap<>();
    body = RANDOM_ID.matcher(body).replaceAll(match -> match.group(1)
        + numbered.computeIfAbsent(match.group(), key -> "#" + (numbered.size() + 1)));
    return reply.status() + " cookies=" + reply.cookies().keySet() + " upstream-failure="
        + reply.header(ServerClient.UPSTREAM_FAILURE_HEADER).orElse("-") + " retry-after="
        + reply.header("Retry-After").orElse("-") + " allow=" + reply.header("Allow").orElse("-") + " type="
        + reply.header("Content-Type").orElse("-") + "\n" + body;
  }
}
