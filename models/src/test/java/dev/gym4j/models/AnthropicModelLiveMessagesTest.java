package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.gym4j.testkit.EventStreamReader;
import dev.gym4j.testkit.EventUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * A streamed {@code /v1/messages} on anthropic_model goes Anthropic → Responses → Anthropic live: the upstream
 * holds back the rest of its stream until our caller has seen the first {@code text_delta}, and what our caller
 * rebuilds is the unstreamed {@code /v1/messages} answer. NeMo Gym read: responses_api_models/anthropic_model
 * and nemo_gym/anthropic_converter.py ({@code anthropic_response_to_sse}).
 */
class AnthropicModelLiveMessagesTest {
  private static final String MESSAGE = """
      {"id": "msg_01Up", "type": "message", "role": "assistant", "model": "claude-up",
       "content": [{"type": "thinking", "thinking": "The user wants Paris weather.", "signature": "sig-abc=="},
                   {"type": "text", "text": "Let me check the weather."},
                   {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}}],
       "stop_reason": "tool_use", "stop_sequence": null,
       "usage": {"input_tokens": 40, "output_tokens": 12, "cache_read_input_tokens": 3}}""";
  private static final String REQUEST = """
      {"model": "claude-x", "max_tokens": 256, "messages": [{"role": "user", "content": "Weather in Paris?"}],
       "tools": [{"name": "get_weather", "input_schema": {"type": "object", "properties": {}}}]}""";

  @TempDir
  Path dir;
  /** Holds back the rest of its stream until our caller saw the first text_delta. */
  final EventUpstream upstream = EventUpstream.start("/v1/messages").answer(MESSAGE)
      .events(AnthropicStreamingTest.streamOf(MESSAGE)).holdAfter(event -> event.contains("\"text_delta\""));
  ModelHarness model;

  @BeforeEach
  void start() {
    model = ModelHarness.anthropic(dir, upstream.port(), "sk-ant-live-0123456789", "");
  }

  @AfterEach
  void stop() {
    model.close();
    upstream.close();
  }

  @Test
  void theFirstTextDeltaArrivesBeforeTheUpstreamSentTheRestAndTheStreamIsTheUnstreamedMessage() throws Exception {
    HttpResponse<InputStream> response = model.stream("/v1/messages",
        REQUEST.replace("\"max_tokens\": 256,", "\"max_tokens\": 256, \"stream\": true,"));
    assertThat(response.statusCode()).isEqualTo(200);
    List<EventStreamReader.Event> events = new ArrayList<>();
    Optional<Boolean> restSent = upstream.readReleasingAt(response.body(),
        event -> event.json().path("delta").path("type").asString("").equals("text_delta"),
        event -> events.add(new EventStreamReader.Event(event.name(), event.json())));
    assertThat(restSent).as("the first text_delta came before the upstream sent the rest").contains(false);
    ObjectNode streamed = EventStreamReader.anthropicMessage(events);
    var plain = model.post("/v1/messages", REQUEST);
    assertThat(plain.status()).as(plain.text()).isEqualTo(200);
    ObjectNode expected = (ObjectNode) plain.json().deepCopy();
    expected.remove("id");
    streamed.remove("id");
    assertThat(streamed).isEqualTo(expected);
    assertThat(streamed.get("content").findValuesAsString("type")).containsExactly("thinking", "text", "tool_use");
    assertThat(streamed.get("content").get(0).get("signature").asString()).isEqualTo("sig-abc==");
    assertThat(streamed.get("content").get(2).get("input").get("city").asString()).isEqualTo("Paris");
    assertThat(streamed.get("usage").get("cache_read_input_tokens").asInt()).isEqualTo(3);
  }
}
