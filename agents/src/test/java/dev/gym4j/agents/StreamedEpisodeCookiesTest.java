package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.server.InProcess;
import dev.gym4j.server.Metrics;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A streamed episode's cookies reach the next call: NeMo Gym's simple_agent (responses_api_agents/simple_agent/
 * app.py) sets the resources server's and model server's cookies on its {@code /v1/responses} answer, so the
 * caller's next request continues the same sessions; a stream's headers leave before the episode runs, so the
 * agent keeps them for its own session cookie (which the stream's headers do carry) and announces them on the
 * last event. A client holding only what the streamed answer gave it continues the environment session exactly
 * as after an unstreamed call, in process and over HTTP; a forged or absent agent cookie continues nothing; the
 * kept cookies are bounded by {@code max_sessions}.
 */
class StreamedEpisodeCookiesTest {
  private static final String TURN_ONE = """
      {"model": "m", "input": [{"role": "user", "content": "add 1 then 2"}],
       "tools": [{"type": "function", "name": "add_to_tally", "parameters": {"type": "object",
         "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]}""";
  private static final String TURN_TWO = TURN_ONE.replace("add 1 then 2", "now add 4");

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @AfterEach
  void stop() {
    if (deployment != null) {
      deployment.close();
    }
    if (model != null) {
      model.close();
    }
  }

  private void start(boolean hopsInProcess, String agentSettings) {
    model = ScriptedUpstream.start();
    deployment = Deployment.start(TestConfigs.load(dir, """
        client_in_process: %s
        tally:
          resources_servers:
            test_tally: {domain: other}
        policy_model:
          responses_api_models:
            vllm_model: {base_url: %s, api_key: x, model: m, return_token_id_information: true,
                     uses_reasoning_parser: false}
        agent:
          responses_api_agents:
            simple_agent:
              resources_server: {type: resources_servers, name: tally}
              model_server: {type: responses_api_models, name: policy_model}
              max_steps: 10
        """.formatted(hopsInProcess, model.baseUrl()) + agentSettings.indent(6)), Implementations.load(), Set.of());
  }

  /** One turn's answer: the final response, the cookies the reply set, and those the stream announced. */
  private record Turn(JsonNode response, Map<String, String> cookiesSet, JsonNode announced) {
    /** The tool outputs, in order: each is the tally's total after that call. */
    List<String> toolOutputs() {
      List<String> outputs = new ArrayList<>();
      response.path("output").forEach(item -> {
        if (item.path("type").asString().equals("function_call_output")) {
          outputs.add(item.path("output").asString());
        }
      });
      return outputs;
    }
  }

  private Turn turn(String request, boolean streamed, Map<String, String> cookies, int... counts) {
    List<Answer> answers = new ArrayList<>();
    for (int count : counts) {
      answers.add(Answer.toolCall("add_to_tally", "{\"count\": " + count + "}"));
    }
    answers.add(Answer.text("done"));
    model.enqueue(answers.toArray(Answer[]::new));
    ObjectNode body = (ObjectNode) Json.parse(request);
    if (streamed) {
      body.put("stream", true);
    }
    HttpReply reply = deployment.client().post("agent", "/v1/responses", body, cookies);
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    if (!streamed) {
      return new Turn(reply.json(), reply.cookies(), null);
    }
    List<JsonNode> events = new ArrayList<>();
    try {
      ServerSentEvents.read(new ByteArrayInputStream(reply.body()), 1 << 24, Duration.ofSeconds(30), event -> {
        events.add(event.json());
        return true;
      });
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    JsonNode last = events.getLast();
    assertThat(last.path("type").asString()).isEqualTo("response.completed");
    return new Turn(last.get("response"), reply.cookies(), last.get(VerifyingAgent.COOKIES_FIELD));
  }

  /** What a client's cookie jar holds after a reply: what it held, with what the reply set over it. */
  private static Map<String, String> jar(Map<String, String> held, Turn turn) {
    Map<String, String> jar = new LinkedHashMap<>(held);
    jar.putAll(turn.cookiesSet());
    return jar;
  }

  @ParameterizedTest(name = "hops in process: {0}")
  @ValueSource(booleans = {true, false})
  void aClientThatStreamedAnEpisodeContinuesTheEnvironmentSessionAsAfterAnUnstreamedOne(boolean inProcess) {
    start(inProcess, "");
    double callsInProcess = callsInProcess();
    // unstreamed, as NeMo Gym's simple_agent: the answer sets the environment's cookie, the client sends it back
    Turn plainOne = turn(TURN_ONE, false, Map.of(), 1, 2);
    Turn plainTwo = turn(TURN_TWO, false, jar(Map.of(), plainOne), 4);
    assertThat(plainOne.cookiesSet()).containsKeys("SimpleAgent___agent", "TallyEnvironment___tally");
    assertThat(plainTwo.toolOutputs()).containsExactly("{\"total\":7}");

    // streamed: the headers carry only the agent's own cookie, and that is all the client sends next
    Turn streamedOne = turn(TURN_ONE, true, Map.of(), 1, 2);
    Map<String, String> jar = jar(Map.of(), streamedOne);
    assertThat(jar.keySet()).containsExactly("SimpleAgent___agent");
    Turn streamedTwo = turn(TURN_TWO, true, jar, 4);
    // a third client sends only the agent cookie too, unstreamed: it continues the same session
    Turn mixedTwo = turn(TURN_TWO.replace("now add 4", "and add 5"), false, jar, 5);

    assertThat(streamedOne.toolOutputs()).isEqualTo(plainOne.toolOutputs()).containsExactly("{\"total\":1}",
        "{\"total\":3}");
    assertThat(streamedTwo.toolOutputs()).isEqualTo(plainTwo.toolOutputs());
    assertThat(mixedTwo.toolOutputs()).containsExactly("{\"total\":12}");
    // the unstreamed answer sets the kept environment cookie in its headers, as it would have after turn one
    assertThat(mixedTwo.cookiesSet()).containsKey("TallyEnvironment___tally");

    // the stream announces what it could not set: the environment's and the model server's session cookies,
    // the very environment session the next turns continued, so the client can verify it there itself
    assertThat(Json.write(streamedOne.announced())).doesNotContain("SimpleAgent___agent");
    Map<String, String> announced = new LinkedHashMap<>();
    streamedOne.announced().properties().forEach(field -> announced.put(field.getKey(), field.getValue().asString()));
    assertThat(announced).containsOnlyKeys("TallyEnvironment___tally", "VLLMModel___policy_model")
        .containsEntry("TallyEnvironment___tally", mixedTwo.cookiesSet().get("TallyEnvironment___tally"));
    HttpReply verified = deployment.client().post("tally", "/verify", Json.parse("{\"expected_total\": 12}"),
        announced);
    assertThat(verified.json().get("reward").asDouble()).as(verified.text()).isEqualTo(1.0);
    assertThat(callsInProcess() > callsInProcess).as("calls in process").isEqualTo(inProcess && !InProcess.forcedOff());
  }

  private static double callsInProcess() {
    var counter = Metrics.REGISTRY.find("gym4j.client.in_process").counter();
    return counter == null ? 0 : counter.count();
  }

  @ParameterizedTest(name = "hops in process: {0}")
  @ValueSource(booleans = {true, false})
  void aStreamedAnthropicMessagesEpisodeKeepsItsCookiesForTheNextCall(boolean inProcess) {
    start(inProcess, "");
    model.enqueue(Answer.toolCall("add_to_tally", "{\"count\": 1}"), Answer.toolCall("add_to_tally",
        "{\"count\": 2}"), Answer.text("done"));
    HttpReply streamed = deployment.client().post("agent", "/v1/messages", Json.parse("""
        {"model": "m", "max_tokens": 100, "stream": true, "messages": [{"role": "user", "content": "add 1 then 2"}],
         "tools": [{"name": "add_to_tally", "input_schema": {"type": "object",
           "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]}"""), Map.of());
    assertThat(streamed.status()).as(streamed.text()).isEqualTo(200);
    assertThat(streamed.text()).contains("message_stop");
    Map<String, String> jar = jar(Map.of(), new Turn(null, streamed.cookies(), null));
    assertThat(jar.keySet()).containsExactly("SimpleAgent___agent");

    assertThat(turn(TURN_TWO, false, jar, 4).toolOutputs()).containsExactly("{\"total\":7}");
  }

  @ParameterizedTest(name = "hops in process: {0}")
  @ValueSource(booleans = {true, false})
  void aForgedOrAbsentAgentCookieContinuesNothing(boolean inProcess) {
    start(inProcess, "");
    Map<String, String> jar = jar(Map.of(), turn(TURN_ONE, true, Map.of(), 1, 2));
    String value = jar.get("SimpleAgent___agent");
    // the signature's first character altered (its last holds bits a decoder may ignore)
    int signature = value.lastIndexOf('.') + 1;
    String forged = value.substring(0, signature) + (value.charAt(signature) == 'A' ? 'B' : 'A')
        + value.substring(signature + 1);

    assertThat(turn(TURN_TWO, true, Map.of("SimpleAgent___agent", forged), 4).toolOutputs())
        .containsExactly("{\"total\":4}");
    assertThat(turn(TURN_TWO, false, Map.of(), 4).toolOutputs()).containsExactly("{\"total\":4}");
    // the agent cookie of another client's session does not reach this one's cookies
    Map<String, String> other = jar(Map.of(), turn(TURN_ONE, true, Map.of(), 10));
    assertThat(turn(TURN_TWO, false, other, 4).toolOutputs()).containsExactly("{\"total\":14}");
    assertThat(turn(TURN_TWO, false, jar, 4).toolOutputs()).containsExactly("{\"total\":7}");
  }

  @ParameterizedTest(name = "hops in process: {0}")
  @ValueSource(booleans = {true, false})
  void pastMaxSessionsTheCookiesKeptLongestAgoAreDropped(boolean inProcess) {
    start(inProcess, "max_sessions: 1");
    Map<String, String> first = jar(Map.of(), turn(TURN_ONE, true, Map.of(), 1, 2));
    Map<String, String> second = jar(Map.of(), turn(TURN_ONE, true, Map.of(), 10));

    // the first client's environment cookie was dropped: its next call starts a new environment session
    assertThat(turn(TURN_TWO, false, first, 4).toolOutputs()).containsExactly("{\"total\":4}");
    assertThat(turn(TURN_TWO, false, second, 4).toolOutputs()).containsExactly("{\"total\":14}");
  }
}
