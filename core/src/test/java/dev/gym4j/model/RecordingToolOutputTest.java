package dev.gym4j.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** A recording continues a conversation only while the tools said what they said when it was recorded. */
class RecordingToolOutputTest {
  private static final String RUN = "{\"outcome\": \"exited\", \"exit_code\": 0, \"stdout\": \"%s\", \"stderr\": \"\", "
      + "\"wall_time_seconds\": %s, \"cpu_time_seconds\": 0.01, \"peak_memory_bytes\": %s, \"usage_measured\": "
      + "\"measured\"}";

  private static Recording recording(String toolOutput) {
    return new Recording("r", Json.parse("""
        {"responses_create_params": {"input": [{"role": "user", "content": "Print 6765."}]},
         "response": {"output": [
           {"type": "function_call", "call_id": "c1", "name": "execute_python", "arguments": "{\\"code\\": \\"print(6765)\\"}"},
           {"type": "function_call_output", "call_id": "c1", "output": %s},
           {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "6765"}]}]}}
        """.formatted(Json.write(Json.toTree(toolOutput)))));
  }

  private static List<JsonNode> conversationWithOutput(String toolOutput) {
    List<JsonNode> items = new ArrayList<>();
    items.add(Json.parse("{\"role\": \"user\", \"content\": \"Print 6765.\"}"));
    items.add(Json.parse("{\"type\": \"function_call\", \"call_id\": \"c1\", \"name\": \"execute_python\", "
        + "\"arguments\": \"{\\\"code\\\": \\\"print(6765)\\\"}\"}"));
    items.add(Json.parse("{\"type\": \"function_call_output\", \"call_id\": \"c1\", \"output\": "
        + Json.write(Json.toTree(toolOutput)) + "}"));
    return items;
  }

  @Test
  void aSandboxedRunThatTookLongerOrUsedMoreMemoryStillContinuesTheRecording() {
    Recording recorded = recording(RUN.formatted("6765\\n", "0.031", "9000000"));
    assertThat(recorded.next(conversationWithOutput(RUN.formatted("6765\\n", "0.047", "9400000"))))
        .isInstanceOf(Recording.Turn.class);
  }

  @Test
  void aSandboxedRunThatPrintedSomethingElseDoesNot() {
    Recording recorded = recording(RUN.formatted("6765\\n", "0.031", "9000000"));
    assertThat(recorded.next(conversationWithOutput(RUN.formatted("6766\\n", "0.031", "9000000"))))
        .isInstanceOf(Recording.Mismatch.class);
  }

  @Test
  void otherToolsOutputsAreComparedWhole() {
    String recordedOutput = "{\"wall_time_seconds_left\": 3, \"elapsed\": 1}";
    assertThat(recording(recordedOutput).next(conversationWithOutput("{\"wall_time_seconds_left\": 3, \"elapsed\": 2}")))
        .isInstanceOf(Recording.Mismatch.class);
  }
}
