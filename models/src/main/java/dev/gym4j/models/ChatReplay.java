package dev.gym4j.models;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.model.Recording;
import dev.gym4j.wire.ChatCompletion;
import dev.gym4j.wire.ResponsesToChat;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@link ReplayModel} needs beyond matching Responses items: recordings seen as Chat Completions
 * conversations (the same conversion vllm_model sends to its backend, so a chat client that echoes our answers
 * sends back exactly what a recording's conversation becomes), and the judge answers recorded with a rollout.
 */
final class ChatReplay {
  private ChatReplay() {}

  /**
   * The model turn of {@code recording} that follows {@code messages}, when they are the Chat form of the
   * recording's conversation up to the start of a model turn.
   */
  static Optional<Recording.Turn> next(Recording recording, JsonNode messages) {
    List<JsonNode> conversation = new ArrayList<>(Recording.inputItems(
        recording.row().path("responses_create_params").get("input")));
    List<JsonNode> output = recording.output();
    for (int i = 0; i <= output.size(); i++) {
      boolean turnStarts = i < output.size() && fromModel(output.get(i)) && (i == 0 || !fromModel(output.get(i - 1)));
      if (turnStarts && sameMessages(chatForm(conversation), messages)
          && recording.next(conversation) instanceof Recording.Turn turn) {
        return Optional.of(turn);
      }
      if (i < output.size()) {
        conversation.add(output.get(i));
      }
    }
    return Optional.empty();
  }

  private static ArrayNode chatForm(List<JsonNode> items) {
    ObjectNode request = Json.object();
    ArrayNode input = request.putArray("input");
    items.forEach(item -> input.add(item.deepCopy()));
    return (ArrayNode) ResponsesToChat.convert(request, false).get("messages");
  }

  /** One model turn as the assistant message a chat backend would have answered. */
  static ObjectNode assistantMessage(ArrayNode items) {
    ObjectNode request = Json.object();
    request.set("input", items.deepCopy());
    ArrayNode messages = (ArrayNode) ResponsesToChat.convert(request, false).get("messages");
    return (ObjectNode) messages.get(messages.size() - 1);
  }

  static ChatCompletion completion(ObjectNode message, String finishReason, String model) {
    ObjectNode chat = Json.object();
    chat.put("id", Ids.of("chatcmpl-"));
    chat.put("object", "chat.completion");
    chat.put("created", System.currentTimeMillis() / 1000);
    chat.put("model", model == null ? "replay_model" : model);
    ObjectNode choice = chat.putArray("choices").addObject();
    choice.put("index", 0);
    choice.put("finish_reason", finishReason);
    choice.set("message", message);
    return new ChatCompletion(chat);
  }

  /** The text of a response's assistant messages, joined (the Responses API's {@code output_text}). */
  static String outputText(JsonNode response) {
    StringBuilder text = new StringBuilder();
    for (JsonNode item : response.path("output")) {
      if ("message".equals(item.path("type").asString("message"))) {
        text.append(Shape.contentText(item.get("content")));
      }
    }
    return text.toString();
  }

  /**
   * The judge answers recorded with a rollout, in the order they were asked: NeMo Gym's
   * {@code judge_evaluations[].response} (equivalence_llm_judge, math_with_judge, text_to_sql, …),
   * {@code judge_response} (aalcr), or the judge's texts, each given back as one assistant message:
   * {@code rubric_evaluations[].judge_response} (inverse_if, one per criterion), {@code judge_output} (simpleqa,
   * abstention, omniscience), {@code judge_raw} (longmemeval), {@code judgement_gen_base} then
   * {@code judgement_base_gen} (arena_judge).
   */
  static List<ObjectNode> judgeResponses(JsonNode row) {
    List<ObjectNode> responses = new ArrayList<>();
    for (JsonNode evaluation : row.path("judge_evaluations")) {
      if (evaluation.path("response") instanceof ObjectNode response) {
        responses.add(response);
      }
    }
    if (row.path("judge_response") instanceof ObjectNode response) {
      responses.add(response);
    }
    if (responses.isEmpty()) {
      for (JsonNode evaluation : row.path("rubric_evaluations")) {
        if (evaluation.path("judge_response").isString()) {
          responses.add(textAnswer(evaluation.get("judge_response").stringValue()));
        }
      }
    }
    if (responses.isEmpty() && row.path("judge_output").isString()) {
      responses.add(textAnswer(row.get("judge_output").stringValue()));
    }
    // arena_judge: its two judge answers, the gen-base call first, then the base-gen one
    if (responses.isEmpty() && row.path("judgement_gen_base").isString() && row.path("judgement_base_gen").isString()) {
      responses.add(textAnswer(row.get("judgement_gen_base").stringValue()));
      responses.add(textAnswer(row.get("judgement_base_gen").stringValue()));
    }
    // longmemeval: "" when no judge was asked (an empty answer, unusable metadata)
    if (responses.isEmpty() && row.path("judge_raw").isString() && !row.get("judge_raw").stringValue().isEmpty()) {
      responses.add(textAnswer(row.get("judge_raw").stringValue()));
    }
    return responses;
  }

  /** A recorded judge text as a Responses API answer of one assistant message. */
  private static ObjectNode textAnswer(String text) {
    ObjectNode response = Json.object();
    response.put("model", "replay_model");
    ObjectNode message = response.putArray("output").addObject();
    message.put("type", "message");
    message.put("id", Ids.of("msg_"));
    message.put("role", "assistant");
    message.put("status", "completed");
    ObjectNode part = message.putArray("content").addObject();
    part.put("type", "output_text");
    part.put("text", text);
    part.putArray("annotations");
    return response;
  }

  /**
   * Equal as chat messages: role, text, tool calls and tool call ids; texts and arguments that are JSON are
   * compared as values (Python wrote {@code {"a": 1}} where we write {@code {"a":1}}).
   */
  private static boolean sameMessages(ArrayNode expected, JsonNode given) {
    if (!given.isArray() || given.size() != expected.size()) {
      return false;
    }
    for (int i = 0; i < expected.size(); i++) {
      JsonNode a = expected.get(i);
      JsonNode b = given.get(i);
      boolean same = a.path("role").asString("").equals(b.path("role").asString(""))
          && sameJson(Shape.contentText(a.get("content")), Shape.contentText(b.get("content")))
          && Recording.images(a.get("content")).equals(Recording.images(b.get("content")))
          && a.path("tool_call_id").asString("").equals(b.path("tool_call_id").asString(""))
          && sameCalls(a.path("tool_calls"), b.path("tool_calls"));
      if (!same) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameCalls(JsonNode a, JsonNode b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      JsonNode x = a.get(i);
      JsonNode y = b.get(i);
      if (!x.path("id").asString("").equals(y.path("id").asString(""))
          || !x.path("function").path("name").asString("").equals(y.path("function").path("name").asString(""))
          || !sameJson(x.path("function").path("arguments").asString(""),
              y.path("function").path("arguments").asString(""))) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameJson(String a, String b) {
    if (a.equals(b)) {
      return true;
    }
    try {
      return Json.parse(a).equals(Json.parse(b));
    } catch (JacksonException e) {
      return false;
    }
  }

  /** Whether the model wrote this item: everything but tool outputs and non-assistant messages. */
  private static boolean fromModel(JsonNode item) {
    return switch (item.path("type").asString("message")) {
      case "function_call_output" -> false;
      case "message" -> "assistant".equals(item.path("role").asString("assistant"));
      default -> true;
    };
  }
}
