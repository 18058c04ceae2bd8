package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerSentEvents;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * vllm_model and azure_openai_model with {@code stream: true}: the upstream's {@code /chat/completions} is
 * asked to stream, and its chunks reach our caller as Responses events (or relayed chunks) as they arrive;
 * the upstream holds back the rest of its stream until our caller has seen the first delta. The final
 * Response is the non-streamed one for the same answer (token ids, log-probs, reasoning, tool calls, usage).
 * NeMo Gym calls the upstream without streaming and converts the finished chat completion
 * (responses_api_models/vllm_model/app.py, responses_api_models/azure_openai_model/app.py): that conversion
 * is what the final Response must match.
 */
class ChatUpstreamStreamingTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String TOOLS = """
      "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object",
        "properties": {"city": {"type": "string"}}, "required": ["city"]}, "strict": true}]""";
  private static final String REQUEST = """
      {"input": [{"role": "user", "content": "weather in Paris?"}], "temperature": 1.0, %s}""".formatted(TOOLS);

  @TempDir
  Path dir;
  ScriptedUpstream upstream;
  ModelHarness model;
  /** Closed after each test: closing waits for the exchanges it carries, streams included. */
  final HttpClient client = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    upstream = ScriptedUpstream.start();
  }

  @AfterEach
  void stop() {
    client.shutdownNow();
    if (model != null) {
      model.close();
    }
    upstream.close();
  }

  private void vllm(String settings, String global) {
    model = new ModelHarness(dir, "vllm_model", """
        base_url: %s
        api_key: sk-test
        model: Qwen/Qwen3-8B
        uses_reasoning_parser: true
        """.formatted(upstream.baseUrl()) + settings, global);
  }

  private void azure() {
    model = new ModelHarness(dir, "azure_openai_model", """
        openai_base_url: %s
        openai_api_key: azure-key-1
        openai_model: gpt-4o-deploy
        default_query: {api-version: 2024-10-21}
        """.formatted(upstream.root()));
  }

  @Test
  void vllm_streams_reasoning_text_and_tool_calls_as_they_arrive_and_ends_with_the_unstreamed_response() throws Exception {
    vllm("return_token_id_information: true\n", "");
    Answer answer = Answer.text("It is cold.").withReasoning("Look it up first.")
        .withToolCall("get_weather", "{\"city\": \"Paris\"}");
    upstream.streamInPiecesOf(3).enqueue(answer, answer);
    JsonNode unstreamed = model.post("/v1/responses", REQUEST).json();

    CountDownLatch callerSawDelta = new CountDownLatch(1);
    upstream.holdStreamAfter(2, callerSawDelta);
    List<Long> heldWhenDeltaArrived = new ArrayList<>();
    List<JsonNode> events = stream("/v1/responses", REQUEST, event -> {
      if (event.path("type").asString().endsWith(".delta") && heldWhenDeltaArrived.isEmpty()) {
        heldWhenDeltaArrived.add(callerSawDelta.getCount());
        callerSawDelta.countDown();
      }
    });

    assertThat(heldWhenDeltaArrived).as("the first delta came while the upstream held back the rest").containsExactly(1L);
    JsonNode streamed = checked(events);
    assertThat(normalized(streamed)).isEqualTo(normalized(unstreamed));
    assertThat(streamed.path("output")).extracting(item -> item.path("type").asString())
        .containsExactly("reasoning", "message", "function_call");
    assertThat(streamed.path("output").get(2).path("generation_token_ids").size()).isPositive();
    assertThat(types(events, "response.function_call_arguments.delta")).as("arguments came in pieces")
        .isGreaterThan(1);
    ObjectNode sent = upstream.received().get(2).body();
    assertThat(sent.path("stream").asBoolean()).isTrue();
    assertThat(sent.path("stream_options").path("include_usage").asBoolean()).isTrue();
    assertThat(sent.path("logprobs").asBoolean()).isTrue();
  }

  @Test
  void token_ids_and_log_probs_survive_wherever_the_upstream_puts_them() throws Exception {
    vllm("return_token_id_information: true\nrequest_prompt_and_generation_token_ids: true\n", "");
    for (Answer.TokenIds where : Answer.TokenIds.values()) {
      Answer answer = Answer.toolCall("get_weather", "{\"city\": \"Rome\"}").withReasoning("need weather")
          .withTokenIds(where);
      upstream.enqueue(answer, answer);
      JsonNode unstreamed = model.post("/v1/responses", REQUEST).json();
      JsonNode streamed = checked(stream("/v1/responses", REQUEST, event -> { }));
      JsonNode last = streamed.path("output").get(1);
      assertThat(normalized(streamed)).as(where.name()).isEqualTo(normalized(unstreamed));
      assertThat(last.path("generation_log_probs").size()).as(where.name())
          .isEqualTo(last.path("generation_token_ids").size()).isPositive();
      assertThat(last.path("prompt_token_ids").size()).as(where.name()).isPositive();
    }
  }

  @Test
  void think_tags_split_across_chunks_give_the_unstreamed_items_and_deltas_that_agree_with_them() throws Exception {
    azure();
    List<String> texts = List.of("<think>plan it</think>The answer is 4.", "\n\n<think>x</think>\n\nY <thin",
        "<think>never closed", "a < b <thinking> c </think>", "<think>one</think>mid<think>two</think>end",
        "Before <think>a</think> after <think>b", "<think></think>");
    for (int piece : new int[] {1, 2, 3, 5, 8}) {
      upstream.streamInPiecesOf(piece);
      for (String text : texts) {
        upstream.enqueue(Answer.text(text), Answer.text(text));
        JsonNode unstreamed = model.post("/v1/responses", "{\"input\": \"hi\"}").json();
        JsonNode streamed = checked(stream("/v1/responses", "{\"input\": \"hi\"}", event -> { }));
        assertThat(normalized(streamed)).as(piece + ": " + text).isEqualTo(normalized(unstreamed));
      }
    }
  }

  @Test
  void azure_streams_from_the_deployment_with_its_key_and_api_version() throws Exception {
    azure();
    Answer answer = Answer.text("Sunny.").withToolCall("get_weather", "{\"city\": \"Oslo\"}");
    upstream.enqueue(answer, answer);
    JsonNode unstreamed = model.post("/v1/responses", REQUEST).json();
    JsonNode streamed = checked(stream("/v1/responses", REQUEST, event -> { }));
    assertThat(normalized(streamed)).isEqualTo(normalized(unstreamed));
    assertThat(streamed.path("usage").path("input_tokens").asInt()).isPositive();
    ScriptedUpstream.Received call = upstream.received().get(1);
    assertThat(call.path()).isEqualTo("/openai/deployments/gpt-4o-deploy/chat/completions");
    assertThat(call.query()).isEqualTo("api-version=2024-10-21");
    assertThat(call.headers().get("api-key")).isEqualTo("azure-key-1");
    assertThat(call.headers()).doesNotContainKey("Authorization");
    assertThat(call.body().path("stream").asBoolean()).isTrue();
  }

  @Test
  void an_upstream_that_refuses_before_the_stream_keeps_its_status() throws Exception {
    vllm("return_token_id_information: false\n", "");
    upstream.enqueue(Answer.error(401, "{\"error\": {\"message\": \"bad key\"}}"));
    HttpResponse<String> response = client.send(post("/v1/responses", "{\"input\": \"hi\", \"stream\": true}"),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(502);
    JsonNode error = Json.parse(response.body().getBytes()).path("error");
    assertThat(error.path("message").asString()).contains("401").contains("bad key").doesNotContain("sk-test");
  }

  @Test
  void a_prompt_over_the_context_length_is_the_unstreamed_incomplete_answer() throws Exception {
    vllm("return_token_id_information: true\n", "");
    upstream.enqueue(Answer.contextLengthExceeded(), Answer.contextLengthExceeded());
    JsonNode unstreamed = model.post("/v1/responses", REQUEST).json();
    List<JsonNode> events = stream("/v1/responses", REQUEST, event -> { });
    assertThat(events.getLast().path("type").asString()).isEqualTo("response.incomplete");
    assertThat(normalized(checked(events))).isEqualTo(normalized(unstreamed));
  }

  @Test
  void an_upstream_that_breaks_mid_stream_ends_the_stream_with_an_error_event() throws Exception {
    vllm("return_token_id_information: false\n", "");
    upstream.enqueue(Answer.text("It is cold in Paris.")).breakStreamAfter(3);
    List<JsonNode> events = stream("/v1/responses", REQUEST, event -> { });
    assertSequenced(events);
    assertThat(events.getLast().path("type").asString()).isEqualTo("error");
    assertThat(events.getLast().path("code").asString()).isEqualTo("upstream_error");
    assertThat(events.getLast().path("message").asString()).contains("not JSON");
    assertThat(types(events, "response.completed")).isZero();
  }

  @Test
  void an_idle_upstream_ends_the_stream_with_an_error_event_at_the_idle_deadline() throws Exception {
    vllm("return_token_id_information: false\n", "client_request_timeout_seconds: 1\n");
    upstream.enqueue(Answer.text("It is cold in Paris.")).stallStreamAfter(3);
    List<JsonNode> events = stream("/v1/responses", REQUEST, event -> { });
    assertSequenced(events);
    assertThat(events.getLast().path("type").asString()).isEqualTo("error");
    assertThat(events.getLast().path("message").asString()).contains("no event within 1 s");
  }

  @Test
  void vllm_chat_chunks_are_relayed_as_they_arrive_with_reasoning_as_the_unstreamed_think_block() throws Exception {
    vllm("return_token_id_information: false\n", "");
    Answer answer = Answer.text("It is cold.").withReasoning("Look it up.").withToolCall("get_weather", "{\"city\": 1}");
    upstream.enqueue(answer, answer);
    String chat = "{\"messages\": [{\"role\": \"user\", \"content\": \"weather?\"}]}";
    JsonNode message = model.post("/v1/chat/completions", chat).json().at("/choices/0/message");

    CountDownLatch callerSawDelta = new CountDownLatch(1);
    upstream.holdStreamAfter(2, callerSawDelta);
    List<Long> heldWhenDeltaArrived = new ArrayList<>();
    List<JsonNode> chunks = stream("/v1/chat/completions", chat.replace("{\"messages\"",
        "{\"stream_options\": {\"include_usage\": true}, \"messages\""), chunk -> {
          if (!chunk.at("/choices/0/delta/content").asString("").isEmpty() && heldWhenDeltaArrived.isEmpty()) {
            heldWhenDeltaArrived.add(callerSawDelta.getCount());
            callerSawDelta.countDown();
          }
        });

    assertThat(heldWhenDeltaArrived).containsExactly(1L);
    assertThat(chunks.getLast().asString("")).isEqualTo("[DONE]");
    StringBuilder content = new StringBuilder();
    StringBuilder arguments = new StringBuilder();
    for (JsonNode chunk : chunks) {
      assertThat(chunk.isString() || chunk.path("object").asString().equals("chat.completion.chunk")).isTrue();
      JsonNode delta = chunk.at("/choices/0/delta");
      content.append(delta.path("content").asString(""));
      assertThat(delta.has("reasoning_content")).isFalse();
      delta.path("tool_calls").forEach(call -> arguments.append(call.path("function").path("arguments").asString("")));
    }
    assertThat(content.toString()).isEqualTo(message.path("content").asString()).startsWith("<think>Look it up.</think>");
    assertThat(arguments.toString()).isEqualTo(message.at("/tool_calls/0/function/arguments").asString());
    assertThat(chunks.get(chunks.size() - 2).path("usage").path("completion_tokens").asInt()).isPositive();
  }

  @Test
  void azure_chat_chunks_are_relayed_with_the_key_and_api_version() throws Exception {
    azure();
    upstream.enqueue(Answer.text("Sunny."));
    List<JsonNode> chunks = stream("/v1/chat/completions",
        "{\"messages\": [{\"role\": \"user\", \"content\": \"weather?\"}]}", chunk -> { });
    StringBuilder content = new StringBuilder();
    chunks.forEach(chunk -> content.append(chunk.at("/choices/0/delta/content").asString("")));
    assertThat(content.toString()).isEqualTo("Sunny.");
    assertThat(chunks.getLast().asString("")).isEqualTo("[DONE]");
    ScriptedUpstream.Received call = upstream.received().getFirst();
    assertThat(call.query()).isEqualTo("api-version=2024-10-21");
    assertThat(call.headers().get("api-key")).isEqualTo("azure-key-1");
    assertThat(call.body().path("model").asString()).isEqualTo("gpt-4o-deploy");
  }

  private HttpRequest post(String path, String body) {
    return HttpRequest.newBuilder(URI.create(model.url() + path)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  /** POSTs {@code body} with {@code stream: true}; {@code onEvent} sees each event as it arrives ([DONE] as a string). */
  private List<JsonNode> stream(String path, String body, Consumer<JsonNode> onEvent) throws Exception {
    ObjectNode streaming = (ObjectNode) Json.parse(body.getBytes());
    streaming.put("stream", true);
    HttpResponse<InputStream> response = client.send(post(path, Json.write(streaming)),
        HttpResponse.BodyHandlers.ofInputStream());
    List<JsonNode> events = new ArrayList<>();
    try (InputStream in = response.body()) {
      assertThat(response.statusCode()).isEqualTo(200);
      ServerSentEvents.read(in, 1 << 24, WAIT, event -> {
        JsonNode json = event.data().equals("[DONE]") ? Json.toTree("[DONE]") : event.json();
        events.add(json);
        onEvent.accept(json);
        return true;
      });
    }
    return events;
  }

  private static void assertSequenced(List<JsonNode> events) {
    for (int i = 0; i < events.size(); i++) {
      assertThat(events.get(i).path("sequence_number").asLong()).as("event " + i).isEqualTo(i);
    }
    assertThat(events.getFirst().path("type").asString()).isEqualTo("response.created");
  }

  private static long types(List<JsonNode> events, String type) {
    return events.stream().filter(event -> event.path("type").asString().equals(type)).count();
  }

  /**
   * Checks a Responses stream as a client reads it and returns its final Response: sequence numbers from 0,
   * each item announced before its deltas, its deltas and part dones adding up to the item its done event
   * carries, that item
   * the one {@code response.completed} lists under the same id, and the response's id that of
   * {@code response.created}.
   */
  private static JsonNode checked(List<JsonNode> events) {
    assertSequenced(events);
    JsonNode last = events.getLast();
    assertThat(last.path("type").asString()).isIn("response.completed", "response.incomplete");
    JsonNode response = last.path("response");
    assertThat(response.path("id")).isEqualTo(events.getFirst().at("/response/id"));
    assertThat(response.path("created_at")).isEqualTo(events.getFirst().at("/response/created_at"));
    Map<Integer, String> ids = new HashMap<>();
    Map<String, StringBuilder> rebuilt = new HashMap<>();
    Map<String, JsonNode> done = new HashMap<>();
    Map<String, JsonNode> parts = new HashMap<>();
    for (JsonNode event : events.subList(1, events.size() - 1)) {
      String type = event.path("type").asString();
      int index = event.path("output_index").asInt(-1);
      switch (type) {
        case "response.output_item.added" -> {
          assertThat(ids).doesNotContainKey(index);
          ids.put(index, event.at("/item/id").asString());
          assertThat(event.path("item").has("generation_token_ids")).isFalse();
        }
        case "response.output_text.delta", "response.function_call_arguments.delta",
            "response.reasoning_summary_text.delta" -> {
          assertThat(event.path("item_id").asString()).isEqualTo(ids.get(index));
          rebuilt.computeIfAbsent(index + "/" + event.path("summary_index").asInt(0), key -> new StringBuilder())
              .append(event.path("delta").asString());
        }
        case "response.content_part.done", "response.reasoning_summary_part.done" ->
            parts.put(index + "/" + event.path("content_index").asInt(event.path("summary_index").asInt()),
                event.path("part"));
        case "response.output_item.done" -> {
          JsonNode item = event.path("item");
          assertThat(item.path("id").asString()).isEqualTo(ids.get(index));
          JsonNode itemParts = item.has("content") ? item.path("content") : item.path("summary");
          for (int k = 0; k < itemParts.size(); k++) {
            assertThat(parts.get(index + "/" + k)).as("part %d of item %d", k, index).isEqualTo(itemParts.get(k));
          }
          done.put(ids.get(index), item);
          switch (item.path("type").asString()) {
            case "message" -> assertThat(text(rebuilt, index + "/0")).isEqualTo(item.at("/content/0/text").asString());
            case "function_call" -> assertThat(text(rebuilt, index + "/0")).isEqualTo(item.path("arguments").asString());
            default -> {
              for (int k = 0; k < item.path("summary").size(); k++) {
                assertThat(text(rebuilt, index + "/" + k)).isEqualTo(item.at("/summary/" + k + "/text").asString());
              }
            }
          }
        }
        default -> { }
      }
    }
    assertThat(done).hasSameSizeAs(response.path("output"));
    for (JsonNode item : response.path("output")) {
      assertThat(done.get(item.path("id").asString())).isEqualTo(item);
    }
    return response;
  }

  private static String text(Map<String, StringBuilder> rebuilt, String key) {
    return rebuilt.getOrDefault(key, new StringBuilder()).toString();
  }

  /** A Response without what differs between two calls by design: ids (upstream tool-call ids too) and times. */
  private static JsonNode normalized(JsonNode response) {
    ObjectNode copy = (ObjectNode) response.deepCopy();
    copy.remove(List.of("id", "created_at"));
    for (JsonNode item : copy.path("output")) {
      ((ObjectNode) item).remove(List.of("id", "call_id"));
    }
    return copy;
  }
}
