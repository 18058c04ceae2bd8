package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testkit.EventUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * issue 39: some OpenAI-compatible servers ignore {@code "stream": true} and answer JSON. The model servers that
 * stream from their upstream (openai_model on both routes, vllm_model's Responses made from chat chunks) read
 * such an answer as the whole answer and stream it to our caller; any other answer fails with its Content-Type and
 * the start of its body, redacted, instead of "the stream ended before [DONE]". NeMo Gym never asks its upstream
 * to stream (responses_api_models/openai_model/app.py, vllm_model/app.py), so this is gym4j's own path.
 */
class JsonAnswerToStreamTest {
  private static final String ITEM = """
      {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
       "content": [{"type": "output_text", "text": "Hello.", "annotations": []}]}""";
  private static final String RESPONSE = """
      {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt", "status": "completed",
       "output": [%s], "usage": {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}}""".formatted(ITEM);
  private static final String CHAT = """
      {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
       "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello."}, "finish_reason": "stop"}],
       "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}""";

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

  @Test
  void openaiModelStreamsAResponseTheUpstreamAnsweredAsJson() throws Exception {
    upstream = EventUpstream.start("/v1/responses").ignoringStream("application/json", RESPONSE);
    model = ModelHarness.openai(dir, upstream.port());
    List<JsonNode> events = events(model.stream("/v1/responses", "{\"input\": \"hi\", \"stream\": true}"));
    assertThat(events).extracting(e -> e.path("type").asString()).startsWith("response.created")
        .contains("response.output_text.delta").endsWith("response.completed").doesNotContain("error");
    JsonNode completed = events.getLast().path("response");
    assertThat(completed.path("output").get(0).path("content").get(0).path("text").asString()).isEqualTo("Hello.");
    assertThat(upstream.received().getFirst().body().path("stream").asBoolean()).isTrue();
  }

  @Test
  void openaiModelRelaysAChatCompletionTheUpstreamAnsweredAsJsonAsChunks() throws Exception {
    upstream = EventUpstream.start("/v1/chat/completions").ignoringStream("application/json; charset=utf-8", CHAT);
    model = ModelHarness.openai(dir, upstream.port());
    HttpResponse<InputStream> response = model.stream("/v1/chat/completions",
        "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"stream\": true}");
    assertThat(response.statusCode()).isEqualTo(200);
    List<String> data = new ArrayList<>();
    ServerSentEvents.read(response.body(), 1 << 20, Duration.ofSeconds(30), event -> data.add(event.data()));
    assertThat(data.getLast()).isEqualTo("[DONE]");
    StringBuilder text = new StringBuilder();
    data.subList(0, data.size() - 1).forEach(chunk -> text.append(Json.parse(chunk).path("choices").path(0)
        .path("delta").path("content").asString("")));
    assertThat(text.toString()).isEqualTo("Hello.");
    assertThat(data).noneMatch(chunk -> chunk.contains("\"error\""));
  }

  @Test
  void vllmModelMakesResponsesEventsOfAChatCompletionTheUpstreamAnsweredAsJson() throws Exception {
    upstream = EventUpstream.start("/v1/chat/completions").ignoringStream("application/json", CHAT);
    model = new ModelHarness(dir, "vllm_model", """
        base_url: http://127.0.0.1:%d/v1
        api_key: sk-test
        model: m
        return_token_id_information: false
        uses_reasoning_parser: true
        """.formatted(upstream.port()));
    List<JsonNode> events = events(model.stream("/v1/responses", "{\"input\": \"hi\", \"stream\": true}"));
    assertThat(events).extracting(e -> e.path("type").asString()).endsWith("response.completed")
        .doesNotContain("error");
    assertThat(events.getLast().path("response").path("output").toString()).contains("Hello.");
  }

  @Test
  void anAnswerThatIsNoEventStreamAndNoJsonAnswerSaysWhatCame() throws Exception {
    upstream = EventUpstream.start("/v1/responses").ignoringStream("text/html",
        "<html><body>proxy login for api-key: sk-live-123</body></html>");
    model = ModelHarness.openai(dir, upstream.port());
    HttpResponse<InputStream> response = model.stream("/v1/responses", "{\"input\": \"hi\", \"stream\": true}");
    assertThat(response.statusCode()).isEqualTo(502);
    String message = Json.parse(response.body().readAllBytes()).path("error").path("message").asString();
    assertThat(message).contains("was asked to stream and answered text/html instead of server-sent events",
        "<html><body>proxy login").doesNotContain("sk-live-123", "[DONE]");
  }

  private static List<JsonNode> events(HttpResponse<InputStream> response) throws Exception {
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> events = new ArrayList<>();
    ServerSentEvents.read(response.body(), 1 << 24, Duration.ofSeconds(30), event -> events.add(event.json()));
    return events;
  }
}
