package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gym4j.json.Json;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import dev.gym4j.wire.Reasoning;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ChatToResponsesTest {

  @Test
  void itemsComeInTheOrderReasoningMessageCallsWithTheTokenBundleOnTheLast() {
    ObjectNode message = (ObjectNode) Json.parse("""
        {"role": "assistant", "content": "<think>plan A</think>Calling.\\n<think>plan B</think>",
         "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{\\"x\\": 1}"}}],
         "prompt_token_ids": [1, 2], "generation_token_ids": [5], "generation_log_probs": [-0.25]}""");
    var items = ChatToResponses.items(message, true, true);
    assertThat(items).hasSize(3);
    assertThat(Item.of(items.get(0))).isInstanceOfSatisfying(Reasoning.class,
        r -> assertThat(r.summaryText()).isEqualTo("plan A\n\nplan B"));
    assertThat(Item.of(items.get(1))).isInstanceOfSatisfying(Message.class,
        m -> assertThat(m.text()).isEqualTo("Calling.\n"));
    assertThat(Item.of(items.get(2))).isInstanceOfSatisfying(FunctionCall.class, c -> {
      assertThat(c.callId()).isEqualTo("t1");
      assertThat(c.arguments()).isEqualTo("{\"x\": 1}");
      assertThat(c.hasTokenInfo()).isTrue();
    });
    assertThat(items.get(1).has("generation_token_ids")).isFalse();
  }

  @Test
  void withoutTheReasoningParserThinkTagsStayInTheText() {
    ObjectNode message = (ObjectNode) Json.parse("{\"role\": \"assistant\", \"content\": \"<think>x</think>y\"}");
    var items = ChatToResponses.items(message, false, false);
    assertThat(items).hasSize(1);
    assertThat(new Message((ObjectNode) items.get(0)).text()).isEqualTo("<think>x</think>y");
  }

  @Test
  void anEmptyAnswerStillGivesOneEmptyMessage() {
    var items = ChatToResponses.items((ObjectNode) Json.parse("{\"role\": \"assistant\", \"content\": null}"), true, true);
    assertThat(items).hasSize(1);
    assertThat(new Message((ObjectNode) items.get(0)).text()).isEmpty();
  }

  @Test
  void finishReasonsMapToStatusAndUsageToResponsesNames() {
    ChatCompletion chat = ChatCompletion.of(Json.parse("""
        {"id": "c", "object": "chat.completion", "created": 1767225600, "model": "m",
         "choices": [{"index": 0, "finish_reason": "length", "message": {"role": "assistant", "content": "cut"}}],
         "usage": {"prompt_tokens": 10, "completion_tokens": 4, "total_tokens": 15,
                   "prompt_tokens_details": {"cached_tokens": 3}, "reasoning_output_tokens": 2}}"""));
    Response response = ChatToResponses.response(chat, (ObjectNode) Json.parse("{\"input\": \"q\", \"temperature\": 0.7}"),
        "policy", true, false);
    assertThat(response.status()).isEqualTo("incomplete");
    assertThat(response.json().at("/incomplete_details/reason").asString()).isEqualTo("max_output_tokens");
    assertThat(response.json().get("created_at").asLong()).isEqualTo(1767225600L);
    assertThat(response.json().get("temperature").asDouble()).isEqualTo(0.7);
    assertThat(response.json().get("tool_choice").asString()).isEqualTo("auto");
    JsonNode usage = response.json().get("usage");
    assertThat(Json.parse(usage.toString())).isEqualTo(Json.parse("""
        {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 3, "cache_write_tokens": 0}, "output_tokens": 4,
         "output_tokens_details": {"reasoning_tokens": 2}, "total_tokens": 15}"""));

    ChatCompletion filtered = ChatCompletion.of(Json.parse("""
        {"choices": [{"finish_reason": "content_filter", "message": {"role": "assistant", "content": ""}}]}"""));
    Response blocked = ChatToResponses.response(filtered, (ObjectNode) Json.parse("{\"input\": \"q\"}"), "m", true, false);
    assertThat(blocked.json().at("/incomplete_details/reason").asString()).isEqualTo("content_filter");
    assertThat(blocked.json().get("usage").isNull()).isTrue();
    assertThat(Response.of(blocked.json()).isIncomplete()).isTrue();
  }
}
