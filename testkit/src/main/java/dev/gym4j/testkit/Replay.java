package dev.gym4j.testkit;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * A recorded rollout's model turns, to be answered one by one by a {@link ScriptedUpstream}: the output
 * items up to each run of {@code function_call_output}s are one model call; the tool outputs themselves
 * are left out, since the live agent produces them by calling the environment.
 */
public final class Replay {
  private Replay() {}

  public static List<Answer> turns(JsonNode recordedOutput) {
    List<Answer> turns = new ArrayList<>();
    ArrayNode turn = Json.array();
    for (JsonNode item : recordedOutput) {
      String type = item.path("type").asString("");
      boolean fromModel = !type.equals("function_call_output") && !(type.equals("message")
          && !"assistant".equals(item.path("role").asString("assistant")));
      if (fromModel) {
        turn.add(item);
      } else if (!turn.isEmpty()) {
        turns.add(Answer.output(turn));
        turn = Json.array();
      }
    }
    if (!turn.isEmpty()) {
      turns.add(Answer.output(turn));
    }
    return turns;
  }

  /**
   * The judge's recorded answers, in order, from a rollout's {@code judge_evaluations} (NeMo Gym's record
   * of each judge call: {@code responses_create_params} and {@code response}): a scripted judge that
   * replays them gives an LLM-judged environment the verdicts NeMo Gym's judge gave.
   */
  public static List<Answer> judgeAnswers(JsonNode recorded) {
    List<Answer> answers = new ArrayList<>();
    for (JsonNode evaluation : recorded.path("judge_evaluations")) {
      JsonNode output = evaluation.path("response").path("output");
      if (output.isArray()) {
        answers.add(Answer.output((ArrayNode) output));
      }
    }
    return answers;
  }
}
