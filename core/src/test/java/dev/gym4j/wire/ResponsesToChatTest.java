package dev.gym4j.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class ResponsesToChatTest {

  private static ObjectNode convert(String request, boolean tokens) {
    return ResponsesToChat.convert((ObjectNode) Json.parse(request), tokens);
  }

  @Test
  void oneModelTurnBecomesOneAssistantMessageWithThinkingAndAllItsCalls() {
    ObjectNode chat = convert("""
        {"input": [
          {"role": "user", "content": "weather in Paris and Oslo?"},
          {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "two calls"}]},
          {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking."}]},
          {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"},
          {"type": "function_call", "call_id": "c2", "name": "get_weather", "arguments": "{\\"city\\":\\"Oslo\\"}",
           "prompt_token_ids": [1, 2], "generation_token_ids": [3, 4], "generation_log_probs": [-0.1, -0.2]},
          {"type": "function_call_output", "call_id": "c1", "output": "cold"},
          {"type": "function_call_output", "call_id": "c2", "output": [{"type": "input_text", "text": "colder"}]}
        ]}""", true);
    JsonNode messages = chat.get("messages");
    assertThat(messages).hasSize(4);
    JsonNode assistant = messages.get(1);
    assertThat(assistant.get("role").asString()).isEqualTo("assistant");
    assertThat(assistant.get("content").asString()).isEqualTo("<think>two calls</think>Checking.");
    assertThat(assistant.get("tool_calls")).hasSize(2);
    assertThat(assistant.at("/tool_calls/0/function/arguments").asString()).isEqualTo("{\"city\": \"Paris\"}");
    assertThat(assistant.at("/tool_calls/1/id").asString()).isEqualTo("c2");
    assertThat(assistant.get("generation_token_ids").toString()).isEqualTo("[3,4]");
    assertThat(assistant.get("generation_log_probs").toString()).isEqualTo("[-0.1,-0.2]");
    assertThat(messages.get(2)).isEqualTo(Json.parse("{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"cold\"}"));
    assertThat(messages.get(3).get("content")).isEqualTo(Json.parse("[{\"type\":\"text\",\"text\":\"colder\"}]"));
  }

  @Test
  void tokenFieldsStayOffTheWireOutsideTrainingMode() {
    ObjectNode chat = convert("""
        {"input": [{"role": "user", "content": "hi"},
          {"type": "message", "role": "assistant", "content": "yo",
           "prompt_token_ids": [1], "generation_token_ids": [2], "generation_log_probs": [-0.5]}]}""", false);
    assertThat(chat.at("/messages/1").has("generation_token_ids")).isFalse();
  }

  @Test
  void anAssistantItemWithoutTextOrCallsStillGivesAMessage() {
    ObjectNode chat = convert("""
        {"input": [{"role": "user", "content": "q"}, {"type": "reasoning", "summary": []},
          {"role": "user", "content": "again"}]}""", false);
    assertThat(chat.get("messages")).hasSize(3);
    assertThat(chat.at("/messages/1").toString()).isEqualTo("{\"role\":\"assistant\",\"content\":null}");
  }

  @Test
  void instructionsAbsorbTheLeadingSystemMessagesAndParametersMap() {
    ObjectNode chat = convert("""
        {"input": [{"role": "system", "content": "Be brief."}, {"role": "developer", "content": "Use tools."},
                   {"role": "user", "content": "hi"}],
         "instructions": "You are a helper.", "max_output_tokens": 256, "temperature": 0.6, "top_p": 0.95,
         "reasoning": {"effort": "low", "summary": "auto"}, "text": {"format": {"type": "text"}}, "truncation": "auto",
         "tools": [{"type": "function", "name": "f", "description": "d", "parameters": {"type": "object"},
                    "strict": true}],
         "tool_choice": "auto", "parallel_tool_calls": false}""", false);
    assertThat(chat.at("/messages/0/content").asString()).isEqualTo("You are a helper.\n\nBe brief.\n\nUse tools.");
    assertThat(chat.get("messages")).hasSize(2);
    assertThat(chat.get("max_tokens").asInt()).isEqualTo(256);
    assertThat(chat.get("reasoning_effort").asString()).isEqualTo("low");
    assertThat(chat.has("text")).isFalse();
    assertThat(chat.has("truncation")).isFalse();
    assertThat(chat.get("tools").get(0)).isEqualTo(Json.parse(
        "{\"type\":\"function\",\"function\":{\"name\":\"f\",\"description\":\"d\",\"parameters\":{\"type\":\"object\"}}}"));
    assertThat(chat.get("parallel_tool_calls").asBoolean()).isFalse();
  }

  @Test
  void withoutToolsTheToolChoiceGoesAndRequiredIsAnError() {
    ObjectNode chat = convert("{\"input\": \"hi\", \"tool_choice\": \"auto\", \"parallel_tool_calls\": true}", false);
    assertThat(chat.has("tool_choice")).isFalse();
    assertThat(chat.has("parallel_tool_calls")).isFalse();
    assertThat(chat.get("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"hi\"}]");
    assertThatThrownBy(() -> convert("{\"input\": \"hi\", \"tool_choice\": \"required\"}", false))
        .isInstanceOfSatisfying(FieldError.class, e -> assertThat(e.dottedLocation()).isEqualTo("tool_choice"));
  }

  @Test
  void itemsWithoutAChatFormAre422sNamingTheItem() {
    assertThatThrownBy(() -> convert("{\"input\": [{\"type\": \"web_search_call\", \"id\": \"w\"}]}", false))
        .isInstanceOfSatisfying(FieldError.class, e -> assertThat(e.dottedLocation()).isEqualTo("input.0.type"));
    assertThatThrownBy(() -> convert("{\"input\": [{\"role\": \"user\", \"content\": [{\"type\": \"input_file\"}]}]}",
        false)).isInstanceOfSatisfying(FieldError.class,
        e -> assertThat(e.dottedLocation()).isEqualTo("input.0.content.0.type"));
  }

  @Test
  void refusalsAddNoTextAndReasoningOnlyTurnsMergeWithTheNextTurn() {
    ObjectNode chat = convert("""
        {"input": [{"role": "user", "content": "q"},
          {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
          {"type": "reasoning", "summary": [{"type": "summary_text", "text": "think more"}]},
          {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok then"}]}]}""", false);
    assertThat(chat.get("messages")).hasSize(2);
    assertThat(chat.at("/messages/1/content").asString()).isEqualTo("<think>think more</think>ok then");
  }

  @Test
  void parallelToolResultsBecomeConsecutiveToolMessages() {
    ObjectNode chat = convert("""
        {"input": [{"role": "user", "content": "q"},
          {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{}"},
          {"type": "function_call", "call_id": "b", "name": "g", "arguments": "{}"},
          {"type": "function_call_output", "call_id": "a", "output": "1"},
          {"type": "function_call_output", "call_id": "b", "output": "2"}]}""", false);
    assertThat(chat.get("messages")).hasSize(4);
    assertThat(chat.at("/messages/1/content").isNull()).isTrue();
    assertThat(chat.at("/messages/1/tool_calls")).hasSize(2);
    assertThat(chat.at("/messages/2/tool_call_id").asString()).isEqualTo("a");
    assertThat(chat.at("/messages/3/tool_call_id").asString()).isEqualTo("b");
  }

  @Test
  void imagesBecomeImageUrlParts() {
    ObjectNode chat = convert("""
        {"input": [{"role": "user", "content": [{"type": "input_text", "text": "what is it"},
          {"type": "input_image", "image_url": "data:image/png;base64,AAA"}]}]}""", false);
    assertThat(chat.at("/messages/0/content/1")).isEqualTo(Json.parse(
        "{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,AAA\",\"detail\":\"auto\"}}"));
  }
}
