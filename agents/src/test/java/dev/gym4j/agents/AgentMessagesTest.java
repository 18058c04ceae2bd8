package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.AnthropicSdks;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.EventStreamReader;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /v1/messages} on simple_agent: the whole episode (tool calls run on the counter environment) as one
 * Anthropic message, streamed or not, read by our client and by the official Anthropic SDKs (TypeScript and
 * Python; both must run in CI, {@code GYM4J_CI=1}). NeMo Gym read: nemo_gym/anthropic_converter.py
 * ({@code responses_to_anthropic_response}, {@code anthropic_response_to_sse}); NeMo Gym's agents have no such
 * route (see agents/README.md).
 */
class AgentMessagesTest {
  static final String REQUEST = """
      {"model": "claude-agent", "max_tokens": 512,
       "tools": [{"name": "increment_counter", "description": "Add to the counter.",
                  "input_schema": {"type": "object", "properties": {"count": {"type": "integer"}},
                                   "required": ["count"]}}],
       "messages": [{"role": "user", "content": "add 1"}]}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    // each episode: one tool call with reasoning, then the answer once the tool's result is in the history
    model.otherwise(request -> request.get("messages").findValues("tool_call_id").isEmpty()
        ? Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("Add one.")
        : Answer.text("Done."));
    deployment = Deployment.start(TestConfigs.load(dir, """
        client_initial_backoff_seconds: 0.01
        client_max_backoff_seconds: 0.02
        """ + TestConfigs.counterAgentYaml(model.baseUrl()) + "max_steps: 5\n".indent(6)),
        Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  private java.net.URI agent() {
    return deployment.directory().find("agent").orElseThrow();
  }

  private HttpReply post(String body) {
    return deployment.client().send(agent().resolve("/v1/messages"), "POST", body.getBytes(), Map.of(), Map.of());
  }

  @Test
  void aStreamedEpisodeAndTheSameEpisodeNotStreamedGiveTheSameMessage() {
    HttpReply plain = post(REQUEST);
    assertThat(plain.status()).as(plain.text()).isEqualTo(200);
    assertEpisode(plain.json());

    HttpReply reply = post(REQUEST.replace("\"max_tokens\": 512,", "\"max_tokens\": 512, \"stream\": true,"));
    assertThat(reply.status()).isEqualTo(200);
    List<EventStreamReader.Event> events = EventStreamReader.read(reply.text());
    assertThat(events.getFirst().name()).isEqualTo("message_start");
    assertThat(events.getLast().name()).isEqualTo("message_stop");
    ObjectNode streamed = EventStreamReader.anthropicMessage(events);
    assertEpisode(streamed);
    // token ids included: the scripted model generates the same tokens for the same conversation
    assertThat(normalized(streamed)).isEqualTo(normalized(plain.json()));
  }

  static void assertEpisode(JsonNode message) {
    assertThat(message.get("model").asString()).isEqualTo("claude-agent");
    JsonNode content = message.get("content");
    assertThat(content.findValuesAsString("type")).containsExactly("thinking", "tool_use", "text");
    assertThat(content.get(0).get("thinking").asString()).isEqualTo("Add one.");
    assertThat(content.get(1).get("name").asString()).isEqualTo("increment_counter");
    assertThat(content.get(1).get("input").get("count").asInt()).isEqualTo(1);
    assertThat(content.get(2).get("text").asString()).isEqualTo("Done.");
    assertThat(content.get(1).get("generation_token_ids").size()).isPositive();
    assertThat(content.get(2).get("generation_token_ids").size()).isPositive();
    // the episode ran its tool call: it ended with an answer, not waiting for a tool
    assertThat(message.get("stop_reason").asString()).isEqualTo("end_turn");
    assertThat(message.get("usage").get("output_tokens").asInt()).isPositive();
  }

  static ObjectNode normalized(JsonNode message) {
    ObjectNode copy = (ObjectNode) message.deepCopy();
    copy.remove("id");
    copy.get("content").forEach(block -> ((ObjectNode) block).remove("id"));
    return copy;
  }

  @Test
  void aFailedEpisodeIsAnAnthropicErrorWithItsFailureClass() {
    model.otherwise(request -> Answer.error(400, "{\"error\": \"no\"}"));
    HttpReply plain = post(REQUEST);
    assertThat(plain.status()).isGreaterThanOrEqualTo(400);
    assertThat(plain.json().get("type").asString()).isEqualTo("error");
    assertThat(plain.json().get("error").get("type").asString()).isNotBlank();
    assertThat(plain.json().get("_ng_failure_class").asString()).isEqualTo("model_error");

    HttpReply streamed = post(REQUEST.replace("\"max_tokens\": 512,", "\"max_tokens\": 512, \"stream\": true,"));
    List<EventStreamReader.Event> events = EventStreamReader.read(streamed.text());
    // the episode streams live: its failure follows the start (pings may come between while it runs)
    assertThat(events).extracting(EventStreamReader.Event::name).filteredOn(name -> !name.equals("ping"))
        .containsExactly("message_start", "error");
    assertThat(events.getLast().data().get("_ng_failure_class").asString()).isEqualTo("model_error");
  }

  @Test
  void aStreamedEpisodeSendsItsFirstBlocksBeforeTheEpisodeEnds() throws Exception {
    java.util.concurrent.CountDownLatch clientSawToolUse = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean secondCallWaited = new java.util.concurrent.atomic.AtomicBoolean();
    model.otherwise(request -> {
      if (request.get("messages").findValues("tool_call_id").isEmpty()) {
        return Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("Add one.");
      }
      // the episode's second model call waits until the client has read the first call's tool_use block
      try {
        secondCallWaited.set(clientSawToolUse.await(30, java.util.concurrent.TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Answer.text("Done.");
    });
    var client = java.net.http.HttpClient.newHttpClient();
    try {
      var response = client.send(java.net.http.HttpRequest.newBuilder(agent().resolve("/v1/messages"))
          .POST(java.net.http.HttpRequest.BodyPublishers.ofString(REQUEST.replace("\"max_tokens\": 512,",
              "\"max_tokens\": 512, \"stream\": true,"))).build(),
          java.net.http.HttpResponse.BodyHandlers.ofInputStream());
      assertThat(response.statusCode()).isEqualTo(200);
      List<EventStreamReader.Event> events = new java.util.ArrayList<>();
      try (var in = response.body()) {
        dev.gym4j.server.ServerSentEvents.read(in, 1 << 20, java.time.Duration.ofSeconds(30), event -> {
          JsonNode data = event.json();
          events.add(new EventStreamReader.Event(event.name(), data));
          if (data.path("content_block").path("type").asString("").equals("tool_use")) {
            clientSawToolUse.countDown();
          }
          return true;
        });
      }
      assertThat(secondCallWaited).as("the tool_use block reached the client while the episode still ran").isTrue();
      ObjectNode streamed = EventStreamReader.anthropicMessage(events);
      assertEpisode(streamed);
      assertThat(normalized(streamed)).isEqualTo(normalized(post(REQUEST).json()));
    } finally {
      clientSawToolUse.countDown();
      client.shutdownNow();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"typescript", "python"})
  void theSdkReadsTheEpisode(String sdk) {
    String scenario = Json.write(Json.object().set("request", Json.parse(REQUEST)));
    ObjectNode withBad = (ObjectNode) Json.parse(scenario);
    withBad.set("bad", Json.parse("{\"model\": \"m\", \"max_tokens\": 0, \"messages\": []}"));
    withBad.putArray("errors").add(Json.parse("""
        {"call": "count_tokens", "request": {"model": "m", "messages": [{"role": "user", "content": "hi"}]}}"""));
    Path target = Path.of("target").toAbsolutePath();
    String base = agent().toString();
    JsonNode result = sdk.equals("typescript") ? AnthropicSdks.typescript(target, base, Json.write(withBad))
        : AnthropicSdks.python(target, base, Json.write(withBad));
    assertThat(result.get("sdk").asString()).isEqualTo(sdk);
    assertEpisode(result.get("plain"));
    assertEpisode(result.get("streamed"));
    assertThat(result.get("plain").get("id").asString()).startsWith("msg_");
    assertThat(normalized(result.get("streamed"))).isEqualTo(normalized(result.get("plain")));
    assertThat(result.get("events").get("message_stop").asInt()).isEqualTo(1);
    assertThat(result.get("error").get("status").asInt()).isEqualTo(400);
    assertThat(result.get("error").get("type").asString()).isEqualTo("invalid_request_error");
    assertThat(result.get("error").get("message").asString()).startsWith("max_tokens:");
    JsonNode notFound = result.get("errors").get(0);
    assertThat(notFound.get("status").asInt()).as(notFound.toString()).isEqualTo(404);
    assertThat(notFound.get("type").asString()).isEqualTo("not_found_error");
    assertThat(notFound.get("message").asString()).isEqualTo("Not Found");
  }

  @Test
  void failuresOnAndUnderTheRouteHaveAnthropicsErrorBody() {
    HttpReply notFound = deployment.client().send(agent().resolve("/v1/messages/batches"), "POST", "{}".getBytes(),
        Map.of(), Map.of());
    assertThat(notFound.status()).isEqualTo(404);
    assertThat(notFound.json().get("type").asString()).isEqualTo("error");
    assertThat(notFound.json().get("error").get("type").asString()).isEqualTo("not_found_error");
    HttpReply wrongMethod = deployment.client().send(agent().resolve("/v1/messages"), "GET", new byte[0], Map.of(),
        Map.of());
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.json().get("error").get("type").asString()).isEqualTo("invalid_request_error");
    assertThat(wrongMethod.json().get("error").get("message").asString()).isEqualTo("Method Not Allowed");
    assertThat(wrongMethod.json().has("detail")).isFalse();
  }
}
