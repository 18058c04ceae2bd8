package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Every kind of object our model server and agent emit on the OpenAI routes validates against OpenAI's
 * published OpenAPI schemas (openai/openai-openapi, a copy in test resources): Response, each output item,
 * usage, error bodies, every stream event, chat completion and chunk, the model list. NeMo Gym's extra fields
 * (token ids, log-probs) are extra properties, which the schemas allow. What NeMo Gym emits for the same
 * calls: responses_api_models/vllm_model/app.py and responses_api_agents/simple_agent/app.py.
 */
class OpenAISchemaTest {
  private static final String DOCUMENT = "https://gym4j.test/openai/openapi-schemas.json";
  private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
      builder -> builder.schemas(Map.of(DOCUMENT, Json.write(nullableAsTypeUnion(document())))));

  private static JsonNode document() {
    try (var in = OpenAISchemaTest.class.getResourceAsStream("/openai/openapi-schemas.json")) {
      return Json.parse(in.readAllBytes());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The document is OpenAPI 3.1 but still marks some fields with 3.0's {@code nullable: true} (a chunk's
   * {@code finish_reason}, say), which JSON Schema ignores: read as OpenAI means it, null is allowed there.
   */
  static JsonNode nullableAsTypeUnion(JsonNode node) {
    if (node instanceof tools.jackson.databind.node.ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, nullableAsTypeUnion(array.get(i)));
      }
      return array;
    }
    if (!(node instanceof tools.jackson.databind.node.ObjectNode object)) {
      return node;
    }
    for (var entry : new ArrayList<>(object.properties())) {
      object.set(entry.getKey(), nullableAsTypeUnion(entry.getValue()));
    }
    if (!object.path("nullable").asBoolean(false)) {
      return object;
    }
    object.remove("nullable");
    var union = Json.object();
    union.putArray("anyOf").add(object).addObject().put("type", "null");
    return union;
  }
  private static final String ROW_PARAMS = """
      {"input": [{"role": "user", "content": "add 1"}],
       "tools": [{"type": "function", "name": "increment_counter", "strict": false, "parameters": {"type": "object",
         "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]}""";

  @TempDir
  Path dir;
  ScriptedUpstream upstream;
  Deployment deployment;
  /** Schema name → how many objects were checked against it. */
  final Map<String, Integer> checked = new java.util.TreeMap<>();
  final List<String> failures = new ArrayList<>();

  @BeforeEach
  void start() {
    upstream = ScriptedUpstream.start();
    deployment = Deployment.start(TestConfigs.load(dir, TestConfigs.counterAgentYaml(upstream.baseUrl())),
        Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    deployment.close();
    upstream.close();
  }

  private static Schema schema(String name) {
    return REGISTRY.getSchema(SchemaLocation.of(DOCUMENT + "#/components/schemas/" + name));
  }

  private void check(String schemaName, JsonNode value, String what) {
    checked.merge(schemaName, 1, Integer::sum);
    var errors = schema(schemaName).validate(value);
    if (!errors.isEmpty()) {
      failures.add(what + " as " + schemaName + ": " + errors.stream().limit(5).map(Object::toString).toList()
          + "\n    " + abbreviate(value.toString()));
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 600 ? text : text.substring(0, 600) + "…";
  }

  private void checkResponse(JsonNode response, String what) {
    check("Response", response, what);
    for (JsonNode item : response.path("output")) {
      check("OutputItem", item, what + " item " + item.path("type").asString());
    }
    if (response.hasNonNull("usage")) {
      check("ResponseUsage", response.get("usage"), what + " usage");
    }
  }

  private URI url(String instance) {
    return deployment.directory().find(instance).orElseThrow();
  }

  private HttpReply post(String instance, String path, String body) {
    return deployment.client().send(URI.create(url(instance) + path), "POST", body.getBytes(), Map.of(), Map.of());
  }

  private List<JsonNode> events(HttpReply reply, String what) throws Exception {
    assertThat(reply.status()).as(reply.text()).isEqualTo(200);
    List<JsonNode> events = new ArrayList<>();
    ServerSentEvents.read(new java.io.ByteArrayInputStream(reply.body()), 1 << 24, java.time.Duration.ofSeconds(5),
        event -> {
          if (!"[DONE]".equals(event.data())) {
            events.add(event.json());
          }
          return true;
        });
    return events;
  }

  private void checkResponseEvents(List<JsonNode> events, String what) {
    for (JsonNode event : events) {
      check("ResponseStreamEvent", event, what + " event " + event.path("type").asString());
      if (event.has("response")) {
        checkResponse(event.get("response"), what + " " + event.path("type").asString());
      }
      if (event.has("item")) {
        check("OutputItem", event.get("item"), what + " " + event.path("type").asString() + " item");
      }
    }
  }

  @Test
  void everythingTheModelServerAndTheAgentEmitIsValid() throws Exception {
    String request = "{\"model\": \"m\", " + ROW_PARAMS.substring(1);
    // the model server, not streamed and streamed: text with reasoning, tool calls, incomplete
    upstream.enqueue(Answer.text("Hello.").withReasoning("think"), Answer.toolCall("increment_counter",
        "{\"count\": 1}"), Answer.text("cut").withFinishReason("length"));
    for (int i = 0; i < 3; i++) {
      HttpReply reply = post("policy_model", "/v1/responses", request);
      assertThat(reply.status()).as(reply.text()).isEqualTo(200);
      checkResponse(reply.json(), "model response " + i);
    }
    upstream.enqueue(Answer.text("Hello.").withReasoning("think"), Answer.toolCall("increment_counter",
        "{\"count\": 1}"), Answer.text("cut").withFinishReason("length"));
    for (int i = 0; i < 3; i++) {
      checkResponseEvents(events(post("policy_model", "/v1/responses", request.replaceFirst("\\{",
          "{\"stream\": true, ")), "model stream " + i), "model stream " + i);
    }
    // chat completions, both ways
    String chat = "{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
    upstream.enqueue(Answer.text("chat").withToolCall("f", "{}"), Answer.text("chat").withToolCall("f", "{}"));
    HttpReply completion = post("policy_model", "/v1/chat/completions", chat);
    assertThat(completion.status()).as(completion.text()).isEqualTo(200);
    check("CreateChatCompletionResponse", completion.json(), "chat completion");
    for (JsonNode chunk : events(post("policy_model", "/v1/chat/completions", chat.replaceFirst("\\{",
        "{\"stream\": true, \"stream_options\": {\"include_usage\": true}, ")), "chat stream")) {
      check("CreateChatCompletionStreamResponse", chunk, "chat chunk");
    }
    // the model list and errors
    HttpReply models = deployment.client().send(URI.create(url("policy_model") + "/v1/models"), "GET", null,
        Map.of(), Map.of());
    check("ListModelsResponse", models.json(), "model list");
    HttpReply invalid = post("policy_model", "/v1/responses", "{\"input\": 3}");
    assertThat(invalid.status()).isEqualTo(422);
    check("ErrorResponse", invalid.json(), "422 on the model");
    HttpReply invalidChat = post("policy_model", "/v1/chat/completions", "{\"messages\": 3}");
    check("ErrorResponse", invalidChat.json(), "422 on chat");
    upstream.enqueue(Answer.error(400, "{\"error\": \"bad\"}"));
    HttpReply upstreamFailed = post("policy_model", "/v1/responses", request);
    assertThat(upstreamFailed.status()).isGreaterThanOrEqualTo(500);
    check("ErrorResponse", upstreamFailed.json(), upstreamFailed.status() + " on the model");

    // the agent: an episode with a tool call, not streamed and streamed
    upstream.enqueue(Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("one"), Answer.text("Done."));
    HttpReply episode = post("agent", "/v1/responses", request);
    assertThat(episode.status()).as(episode.text()).isEqualTo(200);
    checkResponse(episode.json(), "agent response");
    upstream.enqueue(Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("one"), Answer.text("Done."));
    checkResponseEvents(events(post("agent", "/v1/responses", request.replaceFirst("\\{", "{\"stream\": true, ")),
        "agent stream"), "agent stream");
    HttpReply agentInvalid = post("agent", "/v1/responses", "{\"input\": 3}");
    check("ErrorResponse", agentInvalid.json(), "422 on the agent");

    System.out.println("OpenAPI schema checks: " + checked);
    assertThat(failures).as(failures.size() + " invalid objects").isEmpty();
    assertThat(checked.keySet()).contains("Response", "OutputItem", "ResponseUsage", "ResponseStreamEvent",
        "CreateChatCompletionResponse", "CreateChatCompletionStreamResponse", "ListModelsResponse", "ErrorResponse");
  }

  @Test
  void theSchemaRejectsTheShapesTheIssueFoundInvalid() {
    // issue 21's findings: no logprobs on output_text, user null; the validator must see both
    JsonNode item = Json.parse("""
        {"id": "msg_1", "type": "message", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "hi", "annotations": []}]}""".getBytes());
    assertThat(schema("OutputItem").validate(item)).isNotEmpty();
    JsonNode fixed = dev.gym4j.wire.OpenAIShapes.item(item);
    assertThat(schema("OutputItem").validate(fixed)).isEmpty();
    JsonNode toolOutput = Json.parse("{\"type\": \"function_call_output\", \"call_id\": \"c\", \"output\": \"4\"}"
        .getBytes());
    assertThat(schema("OutputItem").validate(toolOutput)).isNotEmpty();
    assertThat(schema("OutputItem").validate(dev.gym4j.wire.OpenAIShapes.item(toolOutput))).isEmpty();
  }
}
