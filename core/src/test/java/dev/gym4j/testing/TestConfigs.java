package dev.gym4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;

/** Configs for tests: written to a temporary directory, loaded with the head server on a free port. */
public final class TestConfigs {
  private TestConfigs() {}

  public static GlobalConfig load(Path dir, String yaml, String... overrides) {
    try {
      Files.writeString(dir.resolve("test.yaml"), yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> arguments = new ArrayList<>(List.of("+config_paths=[test.yaml]", "++head_server.port=0"));
    arguments.addAll(List.of(overrides));
    return new ConfigLoader(List.of(dir), Map.of()).load(arguments);
  }

  /**
   * The smallest full deployment: a counter resources server, a vLLM policy model at {@code modelBaseUrl}
   * returning token ids, and the simple_agent {@code agent} joining them. Agent settings may be appended,
   * indented by six spaces.
   */
  public static String counterAgentYaml(String modelBaseUrl) {
    return """
        counter:
          resources_servers:
            test_counter: {domain: other}
        policy_model:
          responses_api_models:
            vllm_model: {base_url: %s, api_key: x, model: m, return_token_id_information: true,
                         uses_reasoning_parser: true}
        agent:
          responses_api_agents:
            simple_agent:
              resources_server: {type: resources_servers, name: counter}
              model_server: {type: responses_api_models, name: policy_model}
        """.formatted(modelBaseUrl);
  }
}
