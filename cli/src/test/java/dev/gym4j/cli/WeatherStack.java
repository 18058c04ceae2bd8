package dev.gym4j.cli;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.config.ConfigLoader;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;

/** The weather environment, its agent and a vllm_model on a scripted backend with a little latency per call. */
final class WeatherStack implements AutoCloseable {
  static final String AGENT = "example_single_tool_call_simple_agent";

  final ScriptedUpstream model = ScriptedUpstream.start();
  final Deployment deployment;

  WeatherStack(Duration latency) {
    model.otherwise(Behaviours.callToolThenAnswer(
        Answer.toolCall("get_weather", "{\"city\": \"San Francisco\"}").after(latency),
        "It is cold.").andThen(answer -> answer.after(latency)));
    var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
        "+config_paths=[models/configs/vllm_model.yaml,environments/example_single_tool_call/config.yaml]",
        "++head_server.port=0", "+policy_base_url=" + model.baseUrl(), "+policy_api_key=x", "+policy_model_name=m"));
    deployment = Deployment.start(config, Implementations.load(), Set.of());
  }

  @Override
  public void close() {
    deployment.close();
    model.close();
  }
}
