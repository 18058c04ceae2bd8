package dev.gym4j.bench;

import java.util.Random;

import dev.gym4j.json.Json;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A long training rollout as the model server receives it: many turns, each with its token bundle. */
final class PayloadBuilder {
  private PayloadBuilder() {}

  /** A Responses request whose input holds {@code turns} model turns and tool results, {@code tokens} in all. */
  static byte[] rollout(int turns, int tokens) {
    Random random = new Random(1);
    int perTurn = tokens / turns;
    ObjectNode request = Json.object();
    ArrayNode input = request.putArray("input");
    input.addObject().put("role", "user").put("content", words(random, perTurn / 2));
    ArrayNode seen = Json.array();
    for (int turn = 0; turn < turns; turn++) {
      ObjectNode call = input.addObject();
      call.put("type", "function_call");
      call.put("call_id", "call_" + turn);
      call.put("name", "lookup");
      call.put("arguments", "{\"query\": \"" + words(random, 8) + "\"}");
      ObjectNode message = input.addObject();
      message.put("type", "message");
      message.put("role", "assistant");
      message.putArray("content").addObject().put("type", "output_text").put("text", words(random, perTurn / 2));
      ArrayNode prompt = seen.deepCopy();
      ArrayNode generation = Json.array();
      ArrayNode logProbs = Json.array();
      for (int i = 0; i < perTurn / 2; i++) {
        int id = random.nextInt(150_000);
        generation.add(id);
        logProbs.add(-random.nextDouble() * 3);
      }
      message.set("prompt_token_ids", prompt);
      message.set("generation_token_ids", generation);
      message.set("generation_log_probs", logProbs);
      // the next prompt extends this one: its generation, then the tool result's tokens
      generation.forEach(seen::add);
      for (int i = 0; i < perTurn / 4; i++) {
        seen.add(random.nextInt(150_000));
      }
      input.addObject().put("type", "function_call_output").put("call_id", "call_" + turn)
          .put("output", words(random, perTurn / 4));
    }
    return Json.writeBytes(request);
  }

  private static String words(Random random, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < count; i++) {
      text.append(i == 0 ? "" : " ").append((char) ('a' + random.nextInt(26))).append(random.nextInt(100));
    }
    return text.toString();
  }
}
