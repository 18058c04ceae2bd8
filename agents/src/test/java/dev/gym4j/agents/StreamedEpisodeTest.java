package dev.gym4j.agents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * simple_agent's {@code /v1/responses} streamed: the events tell the episode item by item (model output, tool
 * output, next model output), and the final response is the one the same episode gives without streaming,
 * token ids and log-probs included. NeMo Gym's loop: responses_api_agents/simple_agent/app.py.
 */
class StreamedEpisodeTest {
  private static final String REQUEST = """
      {"model": "m", "input": [{"role": "user", "content": "add 1 then 2"}],
       "tools": [{"type": "function", "name": "increment_counter", "parameters": {"type": "object",
         "properties": {"count": {"type": "integer"}}, "required": ["count"]}}]}""";

  @TempDir
  Path dir;
  ScriptedUpstream model;
  Deployment deployment;

  @BeforeEach
  void start() {
    model = ScriptedUpstream.start();
    deployment = Deployment.start(TestConfigs.load(dir, TestConfigs.counterAgentYaml(model.baseUrl())),
        Implementations.load(), Set.of());
  }

  @AfterEach
  void stop() {
    deployment.close();
    model.close();
  }

  private void script() {
    model.enqueue(Answer.toolCall("increment_counter", "{\"count\": 1}").withReasoning("one first"),
        Answer.toolCall("increment_counter", "{\"count\": 2}"), Answer.text("Done: 3."));
  }

  private HttpReply post(String body) {
    URI url = URI.create(deployment.directory().find("agent").orElseThrow() + "/v1/responses");
    return deployment.client().send(url, "POST", body.getBytes(), Map.of(), Map.of());
  }

  @Test
  void aStreamedEpisodeEndsWithTheResponseTheSameEpisodeGivesUnstreamed() throws Exception {
    script();
    HttpReply plain = post(REQUEST);
    assertThat(plain.status()).as(plain.text()).isEqualTo(200);
    script();
    HttpReply streamed = post(REQUEST.replaceFirst("\\{", "{\"stream\": true, "));
    assertThat(streamed.status()).as(streamed.text()).isEqualTo(200);
    List<JsonNode> events = new ArrayList<>();
    ServerSentEvents.read(new ByteArrayInputStream(streamed.body()), 1 << 24, Duration.ofSeconds(5), event -> {
      events.add(event.json());
      return true;
    });

    List<String> added = new ArrayList<>();
    List<Long> sequence = new ArrayList<>();
    for (JsonNode event : events) {
      sequence.add(event.path("sequence_number").asLong());
      if (event.path("type").asString().equals("response.output_item.done")) {
        added.add(event.path("item").path("type").asString());
      }
    }
    assertThat(sequence).isSorted().doesNotHaveDuplicates().startsWith(0L);
    assertThat(events.getFirst().path("type").asString()).isEqualTo("response.created");
    assertThat(added).containsExactly("reasoning", "function_call", "function_call_output", "function_call",
        "function_call_output", "message");
    JsonNode completed = events.getLast();
    assertThat(completed.path("type").asString()).isEqualTo("response.completed");

    JsonNode finalStreamed = completed.path("response");
    assertThat(finalStreamed.toString()).contains("generation_token_ids", "generation_log_probs");
    // ids and timestamps are minted per call; everything else, token ids included, must be the same
    assertThat(withStableIds(finalStreamed)).isEqualTo(withStableIds(plain.json()));
    // and each item's done event carries the item as the final response has it
    List<JsonNode> doneItems = events.stream().filter(e -> e.path("type").asString().equals("response.output_item.done"))
        .map(e -> e.path("item")).toList();
    assertThat(doneItems).containsExactlyElementsOf(finalStreamed.path("output"));
  }

  /** A copy with each distinct id replaced by its order of first appearance, and no timestamps. */
  private static JsonNode withStableIds(JsonNode response) {
    JsonNode copy = response.deepCopy();
    replaceIds(copy, new LinkedHashMap<>());
    ((ObjectNode) copy).remove("created_at");
    return copy;
  }

  private static void replaceIds(JsonNode node, Map<String, String> seen) {
    if (node instanceof ObjectNode object) {
      for (String field : List.of("id", "call_id")) {
        if (object.path(field).isString()) {
          object.put(field, seen.computeIfAbsent(object.get(field).asString(), id -> "id" + seen.size()));
        }
      }
      object.values().forEach(child -> replaceIds(child, seen));
    } else if (node instanceof ArrayNode array) {
      array.forEach(child -> replaceIds(child, seen));
    }
  }
}
