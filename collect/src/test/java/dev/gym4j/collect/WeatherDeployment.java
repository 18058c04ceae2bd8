package dev.gym4j.collect;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;
import tools.jackson.databind.node.ObjectNode;

/**
 * The example_single_tool_call environment from its own config, its simple_agent, and a vllm_model in
 * training mode whose backend is a scripted model that calls get_weather and then answers.
 */
final class WeatherDeployment implements AutoCloseable {
  static final String AGENT = "example_single_tool_call_simple_agent";
  static final Path EXAMPLE = Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl");

  final ScriptedUpstream model = ScriptedUpstream.start();
  final Deployment deployment;

  WeatherDeployment(String... overrides) {
    model.otherwise(WeatherDeployment::weatherTurn);
    List<String> arguments = new java.util.ArrayList<>(List.of(
        "+config_paths=[models/configs/vllm_model_for_training.yaml,environments/example_single_tool_call/config.yaml]",
        "++head_server.port=0", "+policy_base_url=" + model.baseUrl(), "+policy_api_key=x", "+policy_model_name=m",
        "+client_initial_backoff_seconds=0.01", "+client_max_backoff_seconds=0.05"));
    arguments.addAll(List.of(overrides));
    var config = new ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(arguments);
    deployment = Deployment.start(config, Implementations.load(), Set.of());
  }

  /** A model that calls get_weather once, then answers. */
  static Answer weatherTurn(ObjectNode chatRequest) {
    return WEATHER.apply(chatRequest);
  }

  private static final java.util.function.Function<ObjectNode, Answer> WEATHER = Behaviours.callToolThenAnswer(
      Answer.toolCall("get_weather", "{\"city\": \"San Francisco\"}").withReasoning("Check the weather."),
      "It is cold in San Francisco.");

  RolloutCollector.Summary collect(CollectOptions options) {
    ServerClient client = new ServerClient(deployment.directory(),
        ClientSettings.defaults().withRequestTimeout(Duration.ofMinutes(2)));
    try (client) {
      return new RolloutCollector(options, client, new PrintStream(java.io.OutputStream.nullOutputStream()), false)
          .collect();
    }
  }

  @Override
  public void close() {
    deployment.close();
    model.close();
  }
}
