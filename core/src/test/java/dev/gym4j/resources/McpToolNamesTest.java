package dev.gym4j.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;

/** NeMo Gym: nemo_gym/base_resources_server.py normalize_tool_name, with the server's name given. */
class McpToolNamesTest {
  private static VerifyRequest request(String... names) {
    var json = Json.object();
    json.putObject("responses_create_params").put("input", "q");
    var output = json.putObject("response").putArray("output");
    for (String name : names) {
      output.addObject().put("type", "function_call").put("name", name).put("call_id", name).put("arguments", "{}");
    }
    output.addObject().put("type", "message").put("role", "assistant").put("name", "mcp__weather__x");
    return new VerifyRequest(json);
  }

  @Test
  void onlyThisServersPrefixIsTakenOffAndTheRequestIsLeftAsSent() {
    VerifyRequest sent = request("mcp__weather__get_weather", "mcp__other__get_weather", "get_weather",
        "mcp__weather__mcp__weather__x");
    VerifyRequest bare = McpToolNames.bare(sent, "weather");
    assertThat(bare.json().at("/response/output").findValuesAsString("name")).containsExactly("get_weather",
        "mcp__other__get_weather", "get_weather", "mcp__weather__x", "mcp__weather__x");
    assertThat(sent.json().at("/response/output/0/name").asString()).isEqualTo("mcp__weather__get_weather");
  }

  @Test
  void aRequestWithoutNamespacedCallsIsTheSameRequest() {
    VerifyRequest sent = request("get_weather", "mcp__other__x");
    assertThat(McpToolNames.bare(sent, "weather")).isSameAs(sent);
  }
}
