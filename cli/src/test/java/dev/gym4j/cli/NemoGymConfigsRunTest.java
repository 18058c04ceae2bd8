package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.gym4j.testing.NemoGymConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code gym4j run --check} starts NeMo Gym's own config for every environment gym4j has (copied unchanged to
 * core/src/test/resources/nemo-gym-configs, {@link NemoGymConfigs}), run as a NeMo Gym user runs
 * {@code gym env start}/{@code ng_run} from a NeMo Gym checkout (NeMo Gym: nemo_gym/cli/env.py start,
 * nemo_gym/global_config.py parse).
 */
class NemoGymConfigsRunTest {
  @TempDir
  Path dir;
  private String previousHome;

  @BeforeEach
  void nemoGymCheckout() {
    // the NeMo Gym tree is the installation root here, as the checkout a NeMo Gym user runs from
    previousHome = System.getProperty("gym4j.home");
    System.setProperty("gym4j.home", NemoGymConfigs.root().toString());
  }

  @AfterEach
  void restore() {
    if (previousHome == null) {
      System.clearProperty("gym4j.home");
    } else {
      System.setProperty("gym4j.home", previousHome);
    }
  }

  static List<String> environmentConfigs() {
    return NemoGymConfigs.environmentConfigs();
  }

  /**
   * The configs that cannot start yet, each with what gym4j lacks (the error that says so). A config listed
   * here that starts fails this test: take it off the list.
   */
  static final Map<String, String> CANNOT_START = Map.ofEntries(
      harness("cline_agent"), harness("hermes_agent"), harness("kilocode_agent"), harness("openclaw_agent"),
      harness("opencode_agent"), harness("pi_agent"),
      // Claude Code over MCP: gym4j runs no agent CLI; environments/example_mcp_weather/config.yaml pairs the same
      // server (MCP exposure on) with simple_agent taking its tools from /mcp
      Map.entry("example_mcp_weather/configs/example_mcp_weather.yaml",
          "no responses_api_agents implementation named 'claude_code_agent'"),
      // a model server that launches vLLM itself on the machine's GPUs; gym4j talks to running endpoints only, and
      // local_vllm_model says so in one line naming vllm_model
      Map.entry("math_with_judge/configs/math_with_local_judge.yaml",
          "local_vllm_model starts vLLM on this machine's GPUs, which gym4j does not do"),
      // XSTest's WildGuard judge is such a server too
      Map.entry("xstest/configs/xstest.yaml", "local_vllm_model starts vLLM on this machine's GPUs, which gym4j does not do"),
      // inductive ARC runs the model's Python programs; gym4j's nvarc scores transductive grids only
      Map.entry("nvarc/configs/inductive.yaml", "gym4j's nvarc runs transductive mode only"));

  /** NeMo Gym's external coding-agent harnesses (Cline, Hermes, …): gym4j runs no agent CLI (DESIGN.md §10). */
  private static Map.Entry<String, String> harness(String agent) {
    return Map.entry("math_with_judge/configs/math_with_judge_" + agent + ".yaml",
        "no responses_api_agents implementation named '" + agent + "'");
  }

  @ParameterizedTest
  @MethodSource("environmentConfigs")
  void eachStartsOrSaysWhatGym4jLacks(String config) {
    List<String> arguments = new ArrayList<>(List.of("run", "--check", "--head-secret-file",
        dir.resolve("secret").toString()));
    arguments.addAll(NemoGymConfigs.arguments(config, "http://127.0.0.1:1/v1", "++head_server.port=0"));
    CapturedCommand command = new CapturedCommand();
    int status = command.run(arguments.toArray(String[]::new));
    String missing = CANNOT_START.get(config.substring("resources_servers/".length()));
    if (missing == null) {
      assertThat(status).as("%s%n%s%s", config, command.out(), command.err()).isZero();
      assertThat(command.out()).contains("servers ready");
    } else {
      assertThat(status).as("%s starts now: take it off CANNOT_START%n%s", config, command.out()).isNotZero();
      assertThat(command.err()).startsWith("error: ").contains(missing);
    }
  }

  static List<String> benchmarkConfigs() {
    return NemoGymConfigs.benchmarkConfigs();
  }

  /** Benchmark configs that cannot start here, and the one-line reason gym4j gives. */
  static final Map<String, String> BENCHMARKS_CANNOT_START = Map.of(
      // XSTest's WildGuard judge is a local_vllm_model, as in its environment's config
      "benchmarks/xstest/config.yaml", "local_vllm_model starts vLLM on this machine's GPUs, which gym4j does not do");

  /** Each benchmark config of NeMo Gym's whose servers gym4j has starts unchanged (nemo_gym/cli/env.py start --benchmark). */
  @ParameterizedTest
  @MethodSource("benchmarkConfigs")
  void eachBenchmarkStarts(String config) {
    List<String> arguments = new ArrayList<>(List.of("run", "--check", "--head-secret-file",
        dir.resolve("secret").toString()));
    arguments.addAll(NemoGymConfigs.arguments(config, "http://127.0.0.1:1/v1", "++head_server.port=0"));
    CapturedCommand command = new CapturedCommand();
    int status = command.run(arguments.toArray(String[]::new));
    String missing = BENCHMARKS_CANNOT_START.get(config);
    if (missing == null) {
      assertThat(status).as("%s%n%s%s", config, command.out(), command.err()).isZero();
      assertThat(command.out()).contains("servers ready");
    } else {
      assertThat(status).as("%s starts now: take it off BENCHMARKS_CANNOT_START%n%s", config, command.out())
          .isNotZero();
      assertThat(command.err()).startsWith("error: ").contains(missing);
    }
  }

  @Test
  void everyConfigThatCannotStartIsOneOfNemoGyms() {
    assertThat(environmentConfigs().stream().map(config -> config.substring("resources_servers/".length())))
        .containsAll(CANNOT_START.keySet());
  }
}
