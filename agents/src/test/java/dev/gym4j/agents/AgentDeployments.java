package dev.gym4j.agents;

import java.nio.file.Path;
import java.util.Set;

import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.TestConfigs;

/**
 * The deployments the agents' tests run: a resources server, the policy model behind {@code openai_model}
 * (usually a {@link dev.gym4j.testkit.ScriptedUpstream}), and agents joining them, every server real and on an
 * ephemeral port. Each method gives one top-level YAML block; {@link #deploy} starts their concatenation.
 */
final class AgentDeployments {
  private AgentDeployments() {}

  /**
   * Instance {@code name}: resources server {@code implementation} with {@code domain: other} and the
   * flow-mapping entries given.
   */
  static String resources(String name, String implementation, String... settings) {
    StringBuilder entries = new StringBuilder("domain: other");
    for (String setting : settings) {
      entries.append(", ").append(setting);
    }
    return name + ":\n  resources_servers:\n    " + implementation + ": {" + entries + "}\n";
  }

  /** Instance {@code policy_model}: {@code openai_model} at {@code baseUrl}. */
  static String openAiModel(String baseUrl) {
    return "policy_model:\n  responses_api_models:\n    openai_model: {openai_base_url: " + baseUrl
        + ", openai_api_key: x, openai_model: m}\n";
  }

  /**
   * Instance {@code name}: agent {@code implementation} joining resources server {@code resources} and
   * {@code policy_model}, with the settings given (one {@code key: value} each).
   */
  static String agent(String name, String implementation, String resources, String... settings) {
    StringBuilder block = new StringBuilder(name + ":\n  responses_api_agents:\n    " + implementation + ":\n"
        + "      resources_server: {type: resources_servers, name: " + resources + "}\n"
        + "      model_server: {type: responses_api_models, name: policy_model}\n");
    for (String setting : settings) {
      block.append("      ").append(setting).append('\n');
    }
    return block.toString();
  }

  /** The blocks deployed from {@code dir}. */
  static Deployment deploy(Path dir, String... blocks) {
    return Deployment.start(TestConfigs.load(dir, String.join("", blocks)), Implementations.load(), Set.of());
  }
}
