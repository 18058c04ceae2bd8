package dev.gym4j.kubernetes;

import java.time.Duration;

import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;

/**
 * A scripted chat-completions model in a process of its own, on the model's host: each rollout gets a
 * get_weather call, then an answer, each after {@code args[0]} milliseconds. Prints its base URL, then
 * serves until its standard input closes or it is killed.
 */
public final class ScriptedModelMain {
  private ScriptedModelMain() {}

  public static void main(String[] args) throws Exception {
    Duration latency = Duration.ofMillis(Long.parseLong(args[0]));
    try (ScriptedUpstream model = ScriptedUpstream.start().keepReceived(0)) {
      model.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"Oslo\"}"),
          "It is cold in Oslo.").andThen(answer -> answer.after(latency)));
      System.out.println(model.baseUrl());
      System.out.flush();
      while (System.in.read() >= 0) {
        // held open by the test for as long as it needs the model
      }
    }
  }
}
