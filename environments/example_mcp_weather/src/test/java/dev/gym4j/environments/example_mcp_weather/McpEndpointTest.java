package dev.gym4j.environments.example_mcp_weather;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * The {@code /mcp} endpoint driven by a real MCP client, the official Java SDK (io.modelcontextprotocol.sdk 2.1.0),
 * over HTTP against the server on its port, as NeMo Gym's tests/test_app.py drives its endpoint (initialize,
 * tools/call with the token from /seed_session, then /verify in the same session).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpEndpointTest {
  private static final String TOKEN = "X-NeMo-Gym-Session-Token";
  private static final String SENTENCE = "The weather in Paris is sunny and 72 F.";
  private EnvironmentHarness harness;
  private URI base;

  @BeforeAll
  void start() {
    harness = EnvironmentHarness.start("example_mcp_weather");
    base = harness.client().directory().find(harness.resourcesServer()).orElseThrow();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @Test
  void theSdkListsOnlyTheDeclaredTools() {
    try (McpSyncClient client = client(null)) {
      McpSchema.InitializeResult init = client.initialize();
      assertThat(init.serverInfo().name()).isEqualTo("example_mcp_weather");
      var tools = client.listTools().tools();
      assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("get_weather");
      assertThat(tools.getFirst().inputSchema()).containsEntry("type", "object").containsKey("properties");
      assertThat(tools.getFirst().description()).isEqualTo("Get a deterministic weather report for a city.");
    }
  }

  @Test
  void aToolCallOverMcpLandsInTheSessionThatVerifyScores() {
    var seed = harness.post("/seed_session", Json.parse("{\"verifier_metadata\": {\"expected_city\": \"Paris\"}}"),
        Map.of());
    String token = seed.json().at("/mcp/headers/" + TOKEN).asString();
    try (McpSyncClient client = client(token)) {
      client.initialize();
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("get_weather",
          Map.of("city", "Paris")));
      assertThat(result.isError()).isFalse();
      assertThat(Json.parse(((McpSchema.TextContent) result.content().getFirst()).text()))
          .isEqualTo(Json.parse("{\"weather\": \"" + SENTENCE + "\"}"));
      assertThat(result.structuredContent()).isEqualTo(Map.of("weather", SENTENCE));
    }
    JsonNode verdict = harness.post("/verify", ExampleMcpWeatherTest.verifyRequest("Paris", SENTENCE), seed.cookies())
        .json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("tool_call_seen").asBoolean()).isTrue();
  }

  @Test
  void aToolCallWithoutAValidTokenIsAToolErrorAndRecordsNothing() {
    var seed = harness.post("/seed_session", Json.parse("{\"verifier_metadata\": {\"expected_city\": \"Paris\"}}"),
        Map.of());
    String token = seed.json().at("/mcp/headers/" + TOKEN).asString();
    for (String sent : new String[] {null, "forged", token.substring(0, token.length() - 2) + "xx"}) {
      try (McpSyncClient client = client(sent)) {
        client.initialize();
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("get_weather",
            Map.of("city", "Paris")));
        assertThat(result.isError()).as("token %s", sent).isTrue();
        assertThat(((McpSchema.TextContent) result.content().getFirst()).text()).contains(TOKEN);
      }
    }
    JsonNode verdict = harness.post("/verify", ExampleMcpWeatherTest.verifyRequest("Paris", SENTENCE), seed.cookies())
        .json();
    assertThat(verdict.get("tool_call_seen").asBoolean()).isFalse();
  }

  @Test
  void theEnvironmentsOwnRoutesAreNotToolsOverMcp() {
    var seed = harness.post("/seed_session", Json.parse("{\"verifier_metadata\": {\"expected_city\": \"Paris\"}}"),
        Map.of());
    String token = seed.json().at("/mcp/headers/" + TOKEN).asString();
    try (McpSyncClient client = client(token)) {
      client.initialize();
      client.callTool(new McpSchema.CallToolRequest("get_weather", Map.of("city", "Paris")));
      for (String route : new String[] {"verify", "seed_session", "aggregate_metrics", "mcp", "../verify", "tools"}) {
        McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(route, Map.of()));
        assertThat(result.isError()).as(route).isTrue();
        assertThat(((McpSchema.TextContent) result.content().getFirst()).text()).startsWith("Unknown tool");
      }
    }
    // neither reset nor ended: the session still holds the call and verifies once
    JsonNode verdict = harness.post("/verify", ExampleMcpWeatherTest.verifyRequest("Paris", SENTENCE), seed.cookies())
        .json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
  }

  @Test
  void badArgumentsAreAToolErrorNamingTheField() {
    var seed = harness.post("/seed_session", Json.object(), Map.of());
    try (McpSyncClient client = client(seed.json().at("/mcp/headers/" + TOKEN).asString())) {
      client.initialize();
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("get_weather",
          Map.of("town", "Paris")));
      assertThat(result.isError()).isTrue();
      assertThat(((McpSchema.TextContent) result.content().getFirst()).text()).startsWith("HTTP 422 from POST "
          + "/get_weather").contains("city");
    }
  }

  @Test
  void aVerifiedSessionTakesNoMoreToolCalls() {
    var seed = harness.post("/seed_session", Json.object(), Map.of());
    harness.post("/verify", ExampleMcpWeatherTest.verifyRequest("Paris", SENTENCE), seed.cookies());
    try (McpSyncClient client = client(seed.json().at("/mcp/headers/" + TOKEN).asString())) {
      client.initialize();
      McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("get_weather",
          Map.of("city", "Paris")));
      assertThat(result.isError()).isTrue();
      assertThat(((McpSchema.TextContent) result.content().getFirst()).text()).startsWith("HTTP 409");
    }
  }

  @Test
  void malformedMessagesGetJsonRpcErrorsAndGetIsRefused() throws Exception {
    assertThat(raw("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"resources/list\"}").at("/error/code").asInt())
        .isEqualTo(-32601);
    assertThat(raw("{\"jsonrpc\": \"1.0\", \"id\": 8, \"method\": \"ping\"}").at("/error/code").asInt())
        .isEqualTo(-32600);
    assertThat(raw("[{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"ping\"}]").at("/error/code").asInt())
        .isEqualTo(-32600);
    assertThat(raw("{\"jsonrpc\": \"2.0\", \"id\": 10, \"method\": \"ping\"}").get("result")).isEqualTo(Json.object());
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> notification = http.send(post("{\"jsonrpc\": \"2.0\", \"method\": \"notifications/"
          + "initialized\"}"), HttpResponse.BodyHandlers.ofString());
      assertThat(notification.statusCode()).isEqualTo(202);
      assertThat(notification.body()).isEmpty();
      HttpResponse<String> get = http.send(HttpRequest.newBuilder(base.resolve("/mcp"))
          .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).isEqualTo(405);
    }
  }

  private JsonNode raw(String body) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> response = http.send(post(body), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      return Json.parse(response.body());
    }
  }

  private HttpRequest post(String body) {
    return HttpRequest.newBuilder(base.resolve("/mcp")).header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream").timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private McpSyncClient client(String token) {
    var transport = HttpClientStreamableHttpTransport.builder(base.toString()).endpoint("/mcp")
        .httpRequestCustomizer((request, method, uri, body, context) -> {
          if (token != null) {
            request.header(TOKEN, token);
          }
        }).build();
    return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
        .initializationTimeout(Duration.ofSeconds(30)).build();
  }
}
