package dev.gym4j.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Responses events in, Anthropic events out: the events rebuild (as Anthropic's SDKs accumulate a stream) the
 * message {@link AnthropicMessages#fromResponse} makes of the final response. NeMo Gym read:
 * nemo_gym/anthropic_converter.py ({@code anthropic_response_to_sse}, which synthesizes the event sequence
 * {@code message_start}, per block start/delta/stop, {@code message_delta}, {@code message_stop} from a finished
 * answer) and tests/unit_tests/test_anthropic_converter.py.
 */
class AnthropicEventsTest {
  private static final String RESPONSE = """
      {"id": "resp_1", "object": "response", "created_at": 1, "model": "m", "status": "completed",
       "usage": {"input_tokens": 7, "output_tokens": 5, "total_tokens": 12},
       "output": [
         {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Think."}],
          "encrypted_content": "sig", "prompt_token_ids": [1], "generation_token_ids": [2],
          "generation_log_probs": [-0.1]},
         {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
          "content": [{"type": "output_text", "text": "Hello there.", "annotations": []}]},
         {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "add",
          "arguments": "{\\"a\\": 1, \\"b\\": [2, 3]}", "status": "completed",
          "prompt_token_ids": [1], "generation_token_ids": [7, 8], "generation_log_probs": [-0.2, -0.3]}]}""";

  private static final List<String> TOKEN_FIELDS = List.of(Item.PROMPT_TOKEN_IDS, Item.GENERATION_TOKEN_IDS,
      Item.GENERATION_LOG_PROBS);

  /** What the wrapped socket received: each event's name and data. */
  private static final class Recording implements ServerSentEvents.Sink {
    final List<AnthropicMessages.Event> events = new ArrayList<>();

    @Override
    public void send(String name, Object data) {
      events.add(new AnthropicMessages.Event(name, (ObjectNode) Json.toTree(data)));
    }

    @Override
    public void sendText(String name, String data) {
      throw new AssertionError("an Anthropic stream sends JSON only");
    }

    List<String> names() {
      return events.stream().map(AnthropicMessages.Event::name).toList();
    }
  }

  /** The message the events describe, read as the SDKs read a stream (a tool's input parsed when its block stops). */
  static ObjectNode rebuild(List<AnthropicMessages.Event> events) {
    ObjectNode message = null;
    Map<Integer, StringBuilder> json = new HashMap<>();
    for (AnthropicMessages.Event event : events) {
      ObjectNode data = event.data();
      assertThat(data.get("type").asString()).isEqualTo(event.name());
      switch (event.name()) {
        case "message_start" -> message = (ObjectNode) data.get("message").deepCopy();
        case "content_block_start" -> {
          assertThat(data.get("index").asInt()).isEqualTo(message.get("content").size());
          ((ArrayNode) message.get("content")).add(data.get("content_block").deepCopy());
        }
        case "content_block_delta" -> {
          int index = data.get("index").asInt();
          ObjectNode block = (ObjectNode) message.get("content").get(index);
          JsonNode delta = data.get("delta");
          switch (delta.get("type").asString()) {
            case "text_delta" -> block.put("text", block.get("text").asString() + delta.get("text").asString());
            case "thinking_delta" -> block.put("thinking", block.get("thinking").asString()
                + delta.get("thinking").asString());
            case "signature_delta" -> block.put("signature", delta.get("signature").asString());
            case "input_json_delta" -> json.computeIfAbsent(index, key -> new StringBuilder())
                .append(delta.get("partial_json").asString());
            default -> throw new AssertionError("unknown delta " + delta);
          }
        }
        case "content_block_stop" -> {
          StringBuilder input = json.remove(data.get("index").asInt());
          if (input != null) {
            ((ObjectNode) message.get("content").get(data.get("index").asInt())).set("input",
                Json.parse(input.toString()));
          }
        }
        case "message_delta" -> {
          message.set("stop_reason", data.get("delta").get("stop_reason"));
          message.set("stop_sequence", data.get("delta").get("stop_sequence"));
          ((ObjectNode) message.get("usage")).setAll((ObjectNode) data.get("usage"));
        }
        case "message_stop", "ping" -> { }
        default -> throw new AssertionError("unexpected event " + event);
      }
    }
    return message;
  }

  private static Response response(String json) {
    return Response.of(Json.parse(json));
  }

  @Test
  void anAgentsItemsRebuildTheUnstreamedMessageTokenIdsIncluded() throws Exception {
    Response response = response(RESPONSE);
    Recording socket = new Recording();
    ResponseEvents.replay(response, AnthropicEvents.itemByItem(socket, "msg_x", "claude", "_ng_failure_class"));

    assertThat(socket.names().getFirst()).isEqualTo("message_start");
    assertThat(socket.names().getLast()).isEqualTo("message_stop");
    ObjectNode expected = AnthropicMessages.fromResponse(response, "msg_x", "claude");
    assertThat(rebuild(socket.events)).isEqualTo(expected);
    assertThat(expected.get("content").get(0).get("generation_token_ids").toString()).isEqualTo("[2]");
    assertThat(expected.get("content").get(2).get("generation_token_ids").toString()).isEqualTo("[7,8]");
    assertThat(expected.get("stop_reason").asString()).isEqualTo("tool_use");
    assertThat(expected.get("usage").get("output_tokens").asInt()).isEqualTo(5);
  }

  @Test
  void liveTextAndThinkingGoOutDeltaByDeltaAndToolArgumentsSplitAcrossDeltasRebuildTheInput() throws Exception {
    Recording socket = new Recording();
    AnthropicEvents anthropic = AnthropicEvents.live(socket, "msg_x", "claude");
    ResponseEvents events = new ResponseEvents(anthropic);
    ObjectNode head = (ObjectNode) Json.parse("{\"id\": \"resp_1\", \"created_at\": 1, \"model\": \"m\"}");
    events.started(head);
    assertThat(socket.names()).containsExactly("message_start");

    // reasoning: the summary's text in two deltas, the signature only in the done item
    send(anthropic, "response.output_item.added", "{\"output_index\": 0, \"item\": {\"type\": \"reasoning\","
        + " \"id\": \"rs_1\", \"summary\": []}}");
    send(anthropic, "response.reasoning_summary_part.added", "{\"output_index\": 0, \"summary_index\": 0,"
        + " \"part\": {\"type\": \"summary_text\", \"text\": \"\"}}");
    send(anthropic, "response.reasoning_summary_text.delta", "{\"output_index\": 0, \"summary_index\": 0,"
        + " \"delta\": \"Thi\"}");
    assertThat(socket.events.getLast().data().get("delta").get("thinking").asString()).isEqualTo("Thi");
    send(anthropic, "response.reasoning_summary_text.delta", "{\"output_index\": 0, \"summary_index\": 0,"
        + " \"delta\": \"nk.\"}");
    send(anthropic, "response.output_item.done", "{\"output_index\": 0, \"item\": "
        + Json.write(Json.parse(RESPONSE).get("output").get(0)) + "}");

    // text: each delta reaches the client before the next is produced
    send(anthropic, "response.output_item.added", "{\"output_index\": 1, \"item\": {\"type\": \"message\","
        + " \"id\": \"msg_1\", \"role\": \"assistant\", \"content\": []}}");
    send(anthropic, "response.content_part.added", "{\"output_index\": 1, \"content_index\": 0,"
        + " \"part\": {\"type\": \"output_text\", \"text\": \"\", \"annotations\": []}}");
    send(anthropic, "response.output_text.delta", "{\"output_index\": 1, \"content_index\": 0, \"delta\": \"Hello\"}");
    assertThat(socket.events.getLast().data().get("delta").get("text").asString()).isEqualTo("Hello");
    send(anthropic, "response.output_text.delta", "{\"output_index\": 1, \"content_index\": 0, \"delta\": \" there.\"}");
    send(anthropic, "response.output_item.done", "{\"output_index\": 1, \"item\": "
        + Json.write(Json.parse(RESPONSE).get("output").get(1)) + "}");

    // a tool call: its arguments in pieces that parse only together
    send(anthropic, "response.output_item.added", "{\"output_index\": 2, \"item\": {\"type\": \"function_call\","
        + " \"id\": \"fc_1\", \"call_id\": \"call_1\", \"name\": \"add\", \"arguments\": \"\"}}");
    for (String piece : List.of("{\\\"a\\\": 1, ", "\\\"b\\\": [2, ", "3]}")) {
      send(anthropic, "response.function_call_arguments.delta", "{\"output_index\": 2, \"item_id\": \"fc_1\","
          + " \"delta\": \"" + piece + "\"}");
    }
    send(anthropic, "response.output_item.done", "{\"output_index\": 2, \"item\": "
        + Json.write(Json.parse(RESPONSE).get("output").get(2)) + "}");
    events.finished(response(RESPONSE));

    assertThat(socket.names()).containsExactly("message_start",
        "content_block_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_stop",
        "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
        "content_block_start", "content_block_delta", "content_block_stop",
        "message_delta", "message_stop");
    ObjectNode rebuilt = rebuild(socket.events);
    ObjectNode expected = AnthropicMessages.fromResponse(response(RESPONSE), "msg_x", "claude");
    // a live thinking block started before its token ids were known; the tool_use block went out whole with them
    ((ObjectNode) expected.get("content").get(0)).remove(TOKEN_FIELDS);
    assertThat(rebuilt).isEqualTo(expected);
    assertThat(rebuilt.get("content").get(2).get("input").get("b").toString()).isEqualTo("[2,3]");
    assertThat(rebuilt.get("content").get(2).get("generation_token_ids").toString()).isEqualTo("[7,8]");
    assertThat(rebuilt.get("content").get(0).get("signature").asString()).isEqualTo("sig");
  }

  @Test
  void aReplayedResponseWithoutTokenIdsRebuildsExactlyWhenLive() throws Exception {
    ObjectNode json = (ObjectNode) Json.parse(RESPONSE);
    json.get("output").forEach(item -> ((ObjectNode) item).remove(TOKEN_FIELDS));
    Response response = Response.of(json);
    Recording socket = new Recording();
    ResponseEvents.replay(response, AnthropicEvents.live(socket, "msg_x", "claude"));
    assertThat(rebuild(socket.events)).isEqualTo(AnthropicMessages.fromResponse(response, "msg_x", "claude"));
  }

  @Test
  void anIncompleteResponseStopsForMaxTokens() throws Exception {
    Response response = response("""
        {"id": "resp_1", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
         "usage": {"input_tokens": 3, "output_tokens": 9, "total_tokens": 12},
         "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "incomplete",
                     "content": [{"type": "output_text", "text": "Cut sh", "annotations": []}]}]}""");
    Recording socket = new Recording();
    ResponseEvents.replay(response, AnthropicEvents.live(socket, "msg_x", "claude"));
    ObjectNode rebuilt = rebuild(socket.events);
    assertThat(rebuilt.get("stop_reason").asString()).isEqualTo("max_tokens");
    assertThat(rebuilt.get("usage").get("output_tokens").asInt()).isEqualTo(9);
    assertThat(rebuilt).isEqualTo(AnthropicMessages.fromResponse(response, "msg_x", "claude"));
  }

  @Test
  void anErrorEndsTheStreamRedactedWithTheFailureClassAndNothingFollows() throws Exception {
    Recording socket = new Recording();
    AnthropicEvents anthropic = AnthropicEvents.itemByItem(socket, "msg_x", "claude", "_ng_failure_class");
    ResponseEvents events = new ResponseEvents(anthropic);
    events.started((ObjectNode) Json.parse("{\"id\": \"resp_1\"}"));
    events.error("model_error", "the model at http://bob:hunter2@10.0.0.9/v1 answered 500");
    events.finished(response(RESPONSE));

    assertThat(socket.names()).containsExactly("message_start", "error");
    ObjectNode error = socket.events.getLast().data();
    assertThat(error.get("error").get("type").asString()).isEqualTo("api_error");
    assertThat(error.get("error").get("message").asString()).contains("answered 500").doesNotContain("hunter2");
    assertThat(error.get("_ng_failure_class").asString()).isEqualTo("model_error");
    assertThat(anthropic.ended()).isTrue();
  }

  @Test
  void aMalformedItemIsAnErrorEventNotAnException() throws Exception {
    Recording socket = new Recording();
    AnthropicEvents anthropic = AnthropicEvents.live(socket, "msg_x", "claude");
    send(anthropic, "response.output_item.done", "{\"output_index\": 0, \"item\": {\"type\": \"function_call\"}}");
    assertThat(socket.names()).containsExactly("message_start", "error");
    assertThat(socket.events.getLast().data().get("error").get("message").asString()).contains("malformed");
  }

  private static void send(AnthropicEvents sink, String type, String fields) throws Exception {
    ObjectNode event = (ObjectNode) Json.parse(fields);
    event.put("type", type);
    sink.send(type, event);
  }
}
