package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NeMo Gym's own config files that name tool_simulation_agent or non_executing_simple_agent (copied unchanged
 * from resources_servers/<env>/configs/ on NeMo Gym main, 2026-08-22, into src/test/resources/nemo-gym/) start
 * with {@code gym4j run --check}, with replay_model as the {@code policy_model} they name. Their dataset paths
 * point into NeMo Gym's tree and are not read by run.
 */
class NemoGymAgentConfigsTest {
  private static final Path CONFIGS = Fixtures.projectRoot().resolve("cli/src/test/resources/nemo-gym");

  @TempDir
  Path dir;

  static Stream<String> configs() throws IOException {
    try (Stream<Path> files = Files.walk(CONFIGS)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).map(f -> CONFIGS.relativize(f).toString()).sorted()
          .toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("configs")
  void startsUnchanged(String config) throws IOException {
    Path file = CONFIGS.resolve(config);
    String environment = config.substring(0, config.indexOf('/'));
    Path root = Fixtures.projectRoot();
    Path recordings = root.resolve("environments/" + environment + "/data/example_rollouts.jsonl");
    CapturedCommand command = new CapturedCommand();
    int status = command.run("run", "--check", "--head-secret-file=" + dir.resolve("secret"),
        "+config_paths=[" + file + "," + root.resolve("models/configs/replay_model.yaml") + "]",
        "++head_server.port=0", "+policy_recordings=[" + recordings + "]");
    assertThat(status).as("%s%n%s%s", config, command.out(), command.err()).isZero();
    String agent = Files.readString(file).contains("non_executing_simple_agent") ? "non_executing_simple_agent"
        : "tool_simulation_agent";
    assertThat(command.out()).contains(agent, environment, "ready");
    // six of single_step_tool_use_with_argument_comparison, swe_pivot's, image_tools_pivot, four of
    // terminal_multi_harness, and structured_outputs_v4, the one that names non_executing_simple_agent
    assertThat(configs().toList()).hasSize(13);
  }
}
