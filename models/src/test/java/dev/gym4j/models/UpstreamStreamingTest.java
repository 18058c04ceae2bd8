package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.EventUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * openai_model with {@code stream: true}: the upstream's events reach our caller as they arrive (the upstream
 * holds back the rest of its stream until our caller has seen the first delta), token ids and all; an upstream
 * that refuses keeps its HTTP status, one that breaks mid-stream ends with an error event. NeMo Gym passes the
 * upstream's stream through in responses_api_models/openai_model/app.py.
 */
class UpstreamStreamingTest {
  private static final String ITEM = """
      {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
       "content": [{"type": "output_text", "text": "Hello.", "annotations": []}],
       "generation_token_ids": [5, 6], "generation_log_probs": [-0.1, -0.2], "prompt_token_ids": [1]}""";
  private static final String HEAD =
      "{\"id\": \"resp_1\", \"object\": \"response\", \"created_at\": 1, \"model\": \"gpt\", \"output\": []";
  private static final List<String> EVENTS = List.of(
      event("response.created", "{\"type\": \"response.created\", \"sequence_number\": 0, \"response\": " + HEAD
          + ", \"status\": \"in_progress\"}}"),
      event("response.output_text.delta", "{\"type\": \"response.output_text.delta\", \"sequence_number\": 1,"
          + " \"item_id\": \"msg_1\", \"output_index\": 0, \"content_index\": 0, \"delta\": \"Hello.\","
          + " \"logprobs\": []}"),
      event("response.output_item.done", "{\"type\": \"response.output_item.done\", \"sequence_number\": 2,"
          + " \"output_index\": 0, \"item\": " + ITEM + "}"),
      event("response.completed", "{\"type\": \"response.completed\", \"sequence_number\": 3, \"response\": "
          + HEAD.replace("\"output\": []", "\"output\": [" + ITEM + "]") + ", \"status\": \"completed\"}}"));

  @TempDir
  Path dir;
  /** Holds back the rest of its stream until our caller saw the delta. */
  final EventUpstream upstream = EventUpstream.start("/v1/responses").events(EVENTS)
      .holdAfter(event -> event.startsWith("event: response.output_text.delta"));
  ModelHarness model;

  @BeforeEach
  void start() {
    model = ModelHarness.openai(dir, upstream.port());
  }

  @AfterEach
  void stop() {
    model.close();
    upstream.close();
  }

  private static String event(String name, String data) {
    return EventUpstream.event(name, Json.parse(data.getBytes()));
  }

  private HttpResponse<InputStream> post() throws Exception {
    return model.stream("/v1/responses", "{\"input\": \"hi\", \"stream\": true}");
  }

  private List<JsonNode> read(HttpResponse<InputStream> response) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    Optional<Boolean> restSent = upstream.readReleasingAt(response.body(),
        event -> event.json().path("type").asString().equals("response.output_text.delta"),
        event -> events.add(event.json()));
    assertThat(restSent).as("the delta came before the upstream sent the rest").contains(false);
    return events;
  }

  @Test
  void eventsArePassedOnAsTheyArriveWithTokenIds() throws Exception {
    HttpResponse<InputStream> response = post();
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> events = read(response);
    assertThat(events).extracting(event -> event.path("type").asString()).containsExactly("response.created",
        "response.output_text.delta", "response.output_item.done", "response.completed");
    JsonNode item = events.get(3).path("response").path("output").get(0);
    assertThat(item.path("generation_token_ids").toString()).isEqualTo("[5,6]");
    assertThat(item.path("content").get(0).path("logprobs").isArray()).as("made schema-valid").isTrue();
    JsonNode received = upstream.received().getFirst().body();
    assertThat(received.path("stream").asBoolean()).isTrue();
    assertThat(received.path("model").asString()).isEqualTo("gpt");
  }

  @Test
  void anUpstreamThatRefusesKeepsItsStatusAndOpenAIsErrorBody() throws Exception {
    upstream.refuse(401, "{\"error\": {\"message\": \"bad key\"}}");
    HttpResponse<InputStream> response = post();
    assertThat(response.statusCode()).isEqualTo(502);
    JsonNode body = Json.parse(response.body().readAllBytes());
    assertThat(body.path("error").path("message").asString()).contains("401").contains("bad key");
    assertThat(body.path("error").path("type").asString()).isEqualTo("server_error");
    assertThat(body.toString()).doesNotContain("sk-live-123");
  }

  @Test
  void anUpstreamThatBreaksMidStreamEndsTheStreamWithAnErrorEvent() throws Exception {
    upstream.events(List.of(EVENTS.get(0), EVENTS.get(1), "data: {not json\n\n"));
    List<JsonNode> events = read(post());
    assertThat(events).extracting(event -> event.path("type").asString()).containsExactly("response.created",
        "response.output_text.delta", "error");
    assertThat(events.getLast().path("code").asString()).isEqualTo("upstream_error");
    assertThat(events.getLast().path("sequence_number").asLong()).isEqualTo(2);
  }
}
