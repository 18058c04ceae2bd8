package dev.gym4j.testkit;

import java.util.function.Function;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Scripted model behaviours that depend on the request, for {@link ScriptedUpstream#otherwise}. */
public final class Behaviours {
  private Behaviours() {}

  /**
   * Calls one tool, then answers once the tool's output is the last thing in the conversation; works for
   * Chat Completions ({@code messages}) and Responses ({@code input}) requests alike.
   */
  public static Function<ObjectNode, Answer> callToolThenAnswer(Answer toolCall, String answer) {
    return request -> {
      JsonNode turns = request.has("messages") ? request.get("messages") : request.get("input");
      JsonNode last = turns != null && turns.isArray() && !turns.isEmpty() ? turns.get(turns.size() - 1) : null;
      boolean toolAnswered = last != null && ("tool".equals(last.path("role").asString(""))
          || "function_call_output".equals(last.path("type").asString("")));
      return toolAnswered ? Answer.text(answer) : toolCall;
    };
  }
}
