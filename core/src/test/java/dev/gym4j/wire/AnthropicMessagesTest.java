package dev.gym4j.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Anthropic Messages ↔ Responses mapping, case by case. NeMo Gym read: nemo_gym/anthropic_converter.py
 * ({@code anthropic_request_to_responses}, {@code responses_to_anthropic_response},
 * {@code anthropic_response_to_sse}) and tests/unit_tests/test_anthropic_converter.py.
 */
class AnthropicMessagesTest {

  private static ResponseCreateParams request(String json) {
    return AnthropicMessages.toResponses(Json.parse(json));
  }

  @Test
  void aRequestBecomesResponsesItemsInOrder() {
    ResponseCreateParams params = request("""
        {"model": "m", "max_tokens": 9, "temperature": 0.2, "top_p": 0.9,
         "system": [{"type": "text", "text": "One."}, {"type": "text", "text": "Two."}],
         "tool_choice": {"type": "tool", "name": "f"},
         "tools": [{"name": "f", "input_schema": {"type": "object", "properties": {}}}],
         "messages": [
           {"role": "user", "content": [{"type": "text", "text": "look"},
              {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}}]},
           {"role": "assistant", "content": [
              {"type": "thinking", "thinking": "hmm", "signature": "sig"},
              {"type": "redacted_thinking", "data": "opaque"},
              {"type": "text", "text": "calling", "prompt_token_ids": [1], "generation_token_ids": [2],
               "generation_log_probs": [-0.5]},
              {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}]},
           {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
              "content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]}]}]}""");
    ObjectNode json = params.json();
    assertThat(json.get("instructions").asString()).isEqualTo("One.\nTwo.");
    assertThat(json.get("max_output_tokens").asInt()).isEqualTo(9);
    assertThat(json.get("temperature").asDouble()).isEqualTo(0.2);
    assertThat(json.get("tool_choice").get("name").asString()).isEqualTo("f");
    assertThat(json.get("tools").get(0).get("strict").asBoolean()).isFalse();
    assertThat(json.get("tools").get(0).get("parameters").get("type").asString()).isEqualTo("object");
    List<Item> input = params.input();
    assertThat(input).extracting(Item::type).containsExactly("message", "reasoning", "reasoning", "message",
        "function_call", "function_call_output");
    JsonNode parts = input.get(0).json().get("content");
    assertThat(parts.get(0).get("type").asString()).isEqualTo("input_text");
    assertThat(parts.get(1).get("image_url").asString()).isEqualTo("data:image/png;base64,iVBO");
    assertThat(input.get(1).json().get("encrypted_content").asString()).isEqualTo("sig");
    assertThat(((Reasoning) input.get(1)).summaryText()).isEqualTo("hmm");
    assertThat(input.get(2).json().get("summary")).isEmpty();
    assertThat(input.get(2).json().get("encrypted_content").asString()).isEqualTo("opaque");
    assertThat(((Message) input.get(3)).text()).isEqualTo("calling");
    assertThat(input.get(3).json().get("generation_token_ids").get(0).asInt()).isEqualTo(2);
    assertThat(((FunctionCall) input.get(4)).arguments()).isEqualTo("{\"a\":1}");
    assertThat(((FunctionCallOutput) input.get(5)).output()).isEqualTo("x\ny");
  }

  @Test
  void toolChoicesMapAsNeMoGymMapsThem() {
    assertThat(request("""
        {"model": "m", "max_tokens": 1, "tool_choice": {"type": "any"}, "messages": []}""")
        .json().get("tool_choice").asString()).isEqualTo("required");
    assertThat(request("""
        {"model": "m", "max_tokens": 1, "tool_choice": {"type": "none"}, "messages": []}""")
        .json().get("tool_choice").asString()).isEqualTo("none");
  }

  @Test
  void eachBadFieldIsNamed() {
    assertError("{\"model\": \"m\", \"max_tokens\": 0, \"messages\": []}", "max_tokens");
    assertError("{\"model\": 3, \"max_tokens\": 1, \"messages\": []}", "model");
    assertError("{\"model\": \"m\", \"max_tokens\": 1, \"messages\": {}}", "messages");
    assertError("""
        {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [{"type": "image",
          "source": {"type": "url", "url": "http://169.254.169.254/"}}]}]}""", "messages.0.content.0.source.type");
    assertError("""
        {"model": "m", "max_tokens": 1, "messages": [{"role": "assistant", "content": [{"type": "tool_use",
          "id": "t", "name": "f", "input": "rm -rf /"}]}]}""", "messages.0.content.0.input");
    assertError("""
        {"model": "m", "max_tokens": 1, "system": [{"type": "image"}], "messages": []}""", "system.0.type");
    assertError("""
        {"model": "m", "max_tokens": 1, "tool_choice": {"type": "maybe"}, "messages": []}""", "tool_choice.type");
  }

  private static void assertError(String json, String field) {
    assertThatThrownBy(() -> request(json)).isInstanceOf(FieldError.class)
        .extracting(e -> ((FieldError) e).dottedLocation()).isEqualTo(field);
  }

  @Test
  void aResponseBecomesBlocksWithStopReasons() {
    Response response = Response.of(Json.parse("""
        {"id": "resp_1", "status": "incomplete", "incomplete_details": {"reason": "content_filter"},
         "usage": {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7,
                   "input_tokens_details": {"cached_tokens": 4}},
         "output": [
           {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "opaque"},
           {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
           {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{not json"}]}"""));
    ObjectNode message = AnthropicMessages.fromResponse(response, "msg_1", "m");
    JsonNode content = message.get("content");
    assertThat(content.get(0).get("type").asString()).isEqualTo("redacted_thinking");
    assertThat(content.get(0).get("data").asString()).isEqualTo("opaque");
    assertThat(content.get(1).get("text").asString()).isEqualTo("no");
    assertThat(content.get(2).get("input")).isEmpty();
    assertThat(content.get(2).get("arguments").asString()).isEqualTo("{not json");
    assertThat(message.get("stop_reason").asString()).isEqualTo("refusal");
    assertThat(message.get("usage").get("cache_read_input_tokens").asInt()).isEqualTo(4);

    ObjectNode stopped = Response.of(Json.parse("""
        {"output": [{"type": "message", "role": "assistant", "content": "done"}], "stop_sequence": "END"}"""))
        .json();
    assertThat(AnthropicMessages.fromResponse(new Response(stopped), "msg_2", "m").get("stop_reason").asString())
        .isEqualTo("stop_sequence");
  }

  @Test
  void theEventsOfABlockCarryItsDeltasAndSignature() {
    ObjectNode message = (ObjectNode) Json.parse("""
        {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "stop_reason": "end_turn",
         "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 2},
         "content": [{"type": "thinking", "thinking": "t", "signature": "sig"},
                     {"type": "redacted_thinking", "data": "opaque"}]}""");
    List<AnthropicMessages.Event> events = AnthropicMessages.rest(message);
    assertThat(events).extracting(AnthropicMessages.Event::name).containsExactly("content_block_start",
        "content_block_delta", "content_block_delta", "content_block_stop", "content_block_start",
        "content_block_stop", "message_delta", "message_stop");
    assertThat(events.get(0).data().get("content_block").get("thinking").asString()).isEmpty();
    assertThat(events.get(2).data().get("delta").get("signature").asString()).isEqualTo("sig");
    assertThat(events.get(4).data().get("content_block").get("data").asString()).isEqualTo("opaque");
    assertThat(events.get(6).data().get("usage").get("output_tokens").asInt()).isEqualTo(2);
  }
}
