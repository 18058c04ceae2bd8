package dev.gym4j.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;

class ResponseTextsTest {
  @Test
  void assistantContentTextsTakeStringContentAndEveryPartWithAText() {
    Response response = Response.of(Json.parse("""
        {"id": "r", "output": [
          {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "not mine"}]},
          {"type": "message", "role": "assistant", "content": "plain"},
          {"type": "function_call", "name": "f", "arguments": "{}", "call_id": "c"},
          {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"},
            {"type": "refusal", "refusal": "no"}, {"type": "input_text", "text": "b"}, {"type": "output_text", "text": 3}]}
        ]}"""));
    assertThat(response.assistantContentTexts()).containsExactly("plain", "a", "b");
  }
}
