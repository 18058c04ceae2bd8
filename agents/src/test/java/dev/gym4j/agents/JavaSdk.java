package dev.gym4j.agents;

import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputItem;
import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What openai-java's typed objects hold, in the shape the Node and Python scripts print (sdk/openai_client.*),
 * so OfficialSdkClientsTest checks all three clients alike.
 */
final class JavaSdk {
  private JavaSdk() {}

  static ResponseCreateParams params(String input, boolean tools) {
    var builder = ResponseCreateParams.builder().model("m").input(input);
    if (tools) {
      builder.putAdditionalBodyProperty("tools", JsonValue.from(List.of(Map.of("type", "function", "name",
          "increment_counter", "strict", false, "parameters", Map.of("type", "object", "properties",
              Map.of("count", Map.of("type", "integer")), "required", List.of("count"))))));
    }
    return builder.build();
  }

  static ObjectNode summary(Response response) {
    response.validate();
    ObjectNode out = Json.object();
    out.put("status", response.status().orElseThrow().asString());
    ArrayNode types = out.putArray("types");
    StringBuilder text = new StringBuilder();
    ArrayNode reasoning = out.putArray("reasoning");
    ArrayNode calls = out.putArray("calls");
    ArrayNode outputs = out.putArray("outputs");
    ArrayNode tokenIds = out.putArray("token_ids");
    for (ResponseOutputItem item : response.output()) {
      Map<String, JsonValue> extra = Map.of();
      if (item.isMessage()) {
        types.add("message");
        item.asMessage().content().forEach(part -> part.outputText().ifPresent(t -> text.append(t.text())));
        extra = item.asMessage()._additionalProperties();
      } else if (item.isReasoning()) {
        types.add("reasoning");
        reasoning.add(String.join("", item.asReasoning().summary().stream().map(part -> part.text()).toList()));
        extra = item.asReasoning()._additionalProperties();
      } else if (item.isFunctionCall()) {
        types.add("function_call");
        calls.addObject().put("name", item.asFunctionCall().name()).put("arguments", item.asFunctionCall().arguments());
        extra = item.asFunctionCall()._additionalProperties();
      } else if (item.isFunctionCallOutput()) {
        types.add("function_call_output");
        outputs.add(item.asFunctionCallOutput().output().asString());
      } else {
        types.add("other");
      }
      if (extra.containsKey("generation_token_ids")) {
        tokenIds.add(tree(extra.get("generation_token_ids")));
      }
    }
    out.put("text", text.toString());
    out.put("output_tokens", response.usage().orElseThrow().outputTokens());
    return out;
  }

  static ObjectNode streamed(OpenAIClient client, ResponseCreateParams params) {
    var accumulator = ResponseAccumulator.create();
    List<String> types = new java.util.ArrayList<>();
    StringBuilder deltas = new StringBuilder();
    try (var events = client.responses().createStreaming(params)) {
      events.stream().forEach(event -> {
        accumulator.accumulate(event);
        types.add(tree(event).path("type").asString());
        event.outputTextDelta().ifPresent(delta -> deltas.append(delta.delta()));
      });
    }
    ObjectNode out = summary(accumulator.response());
    out.put("first", types.getFirst());
    out.put("last", types.getLast());
    out.put("deltas", deltas.toString());
    return out;
  }

  static void chat(OpenAIClient client, ObjectNode out) {
    var params = ChatCompletionCreateParams.builder().addUserMessage("hi").model("m").build();
    var completion = client.chat().completions().create(params);
    completion.validate();
    out.putObject("chat").put("content", completion.choices().getFirst().message().content().orElse(""))
        .put("finish", completion.choices().getFirst().finishReason().asString());
    StringBuilder content = new StringBuilder();
    long[] usage = {-1};
    try (var chunks = client.chat().completions().createStreaming(params.toBuilder()
        .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
      chunks.stream().forEach(chunk -> {
        chunk.validate();
        if (!chunk.choices().isEmpty()) {
          chunk.choices().getFirst().delta().content().ifPresent(content::append);
        }
        chunk.usage().ifPresent(u -> usage[0] = u.completionTokens());
      });
    }
    out.putObject("chat_stream").put("content", content.toString()).put("usage", usage[0]);
  }

  private static JsonNode tree(Object value) {
    try {
      return Json.parse(ObjectMappers.jsonMapper().writeValueAsBytes(value));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
