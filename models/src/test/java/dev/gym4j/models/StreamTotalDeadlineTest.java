package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testkit.EventUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 31, defect 9: an upstream that streams forever, an event every 100 ms so that the idle deadline never
 * fires, was never cut while our caller kept reading. The whole stream now has a deadline too, the same
 * {@code client_request_timeout_seconds} (1 s here): the caller's stream ends with an error event saying so, both
 * where the upstream's events are passed on (openai_model) and where they are added up into one answer (vllm_model
 * from Chat Completions chunks). The test's own timeout is its deadline, not a measurement.
 */
class StreamTotalDeadlineTest {
  private static final String GLOBAL = "client_request_timeout_seconds: 1\n";

  @TempDir
  Path dir;
  EventUpstream upstream;
  ModelHarness model;

  @AfterEach
  void stop() {
    if (model != null) {
      model.close();
    }
    upstream.close();
  }

  private List<JsonNode> read(HttpResponse<InputStream> response) throws Exception {
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> events = new ArrayList<>();
    try (InputStream in = response.body()) {
      ServerSentEvents.read(in, 1 << 20, Duration.ofSeconds(30), event -> {
        if (!event.data().equals("[DONE]")) {
          events.add(event.json());
        }
        return true;
      });
    }
    return events;
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void a_passed_on_stream_that_never_ends_is_cut_at_the_request_timeout() throws Exception {
    upstream = EventUpstream.start("/v1/responses").events(List.of(
        EventUpstream.event("response.created", Json.parse("{\"type\": \"response.created\", \"sequence_number\": 0,"
            + " \"response\": {\"id\": \"resp_1\", \"object\": \"response\", \"created_at\": 1, \"model\": \"gpt\","
            + " \"output\": [], \"status\": \"in_progress\"}}")),
        EventUpstream.event("response.output_text.delta", Json.parse("{\"type\": \"response.output_text.delta\","
            + " \"sequence_number\": 1, \"item_id\": \"msg_1\", \"output_index\": 0, \"content_index\": 0,"
            + " \"delta\": \"and on \", \"logprobs\": []}"))))
        .repeatLastEvery(Duration.ofMillis(100));
    model = new ModelHarness(dir, "openai_model", """
        openai_base_url: http://127.0.0.1:%d/v1
        openai_api_key: sk-live-123
        openai_model: gpt
        """.formatted(upstream.port()), GLOBAL);
    List<JsonNode> events = read(model.stream("/v1/responses", "{\"input\": \"hi\", \"stream\": true}"));
    assertThat(events.size()).as("several deltas came before the cut").isGreaterThan(3);
    JsonNode last = events.getLast();
    assertThat(last.path("type").asString()).isEqualTo("error");
    assertThat(last.path("message").asString()).contains("failed mid-stream", "the stream ran longer than 1 s");
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void an_added_up_chat_stream_that_never_ends_is_cut_at_the_request_timeout() throws Exception {
    upstream = EventUpstream.start("/v1/chat/completions").events(List.of("data: " + Json.write(Json.parse(
        "{\"id\": \"c1\", \"object\": \"chat.completion.chunk\", \"created\": 1, \"model\": \"m\", \"choices\": "
            + "[{\"index\": 0, \"delta\": {\"role\": \"assistant\", \"content\": \"and on \"}, "
            + "\"finish_reason\": null}]}")) + "\n\n"))
        .repeatLastEvery(Duration.ofMillis(100));
    model = new ModelHarness(dir, "vllm_model", """
        base_url: http://127.0.0.1:%d/v1
        api_key: sk-test
        model: m
        return_token_id_information: false
        uses_reasoning_parser: false
        """.formatted(upstream.port()), GLOBAL);
    List<JsonNode> events = read(model.stream("/v1/responses", "{\"input\": \"hi\", \"stream\": true}"));
    JsonNode last = events.getLast();
    assertThat(last.path("type").asString()).isEqualTo("error");
    assertThat(last.path("message").asString()).contains("the stream ran longer than 1 s");
    assertThat(events.stream().filter(e -> e.path("type").asString().equals("response.completed"))).isEmpty();
  }
}
