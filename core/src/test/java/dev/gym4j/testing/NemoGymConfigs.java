package dev.gym4j.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * NeMo Gym's own config files for every environment gym4j has, copied unchanged from NVIDIA-NeMo/Gym main into
 * core/src/test/resources/nemo-gym-configs with NeMo Gym's layout (resources_servers/&lt;env&gt;/configs/*.yaml,
 * the agent configs they include, the openai_model and vllm_model configs, the prompt files they name), and
 * what a NeMo Gym user gives along with each, as its README or comments say.
 */
public final class NemoGymConfigs {
  public static final String POLICY_MODEL = "responses_api_models/openai_model/configs/openai_model.yaml";

  /**
   * What a user adds to a config, beyond the policy model's three {@code policy_*} values: the judge model a
   * config names but leaves to the user (here a {@code _copy} of the policy model, which NeMo Gym's own judge
   * READMEs suggest for a quick start), a companion judge config NeMo Gym ships next to it, or a judge endpoint.
   */
  public static final Map<String, List<String>> GIVEN = Map.ofEntries(
      Map.entry("aalcr/configs/aalcr.yaml", copyOfPolicy("Qwen3-235B-A22B-Instruct-2507-FP8")),
      Map.entry("abstention/configs/abstention.yaml", copyOfPolicy("genrm_model")),
      Map.entry("omniscience/configs/omniscience.yaml", copyOfPolicy("genrm_model")),
      Map.entry("simpleqa/configs/simpleqa.yaml", copyOfPolicy("genrm_model")),
      Map.entry("ugphysics_judge/configs/ugphysics_judge.yaml", copyOfPolicy("judge_model")),
      Map.entry("over_refusal_detection/configs/over_refusal_detection_nemotron_tp8.yaml",
          copyOfPolicy("safety_judge_model")),
      Map.entry("math_with_autograder/configs/math_with_autograder.yaml",
          List.of("resources_servers/math_with_autograder/configs/judge_gptoss20b.yaml", "+judge_key")),
      Map.entry("physics_judge/configs/physics_judge.yaml",
          List.of("resources_servers/physics_judge/configs/judge_openai.yaml", "+judge_key")),
      Map.entry("math_with_autograder/configs/judge_gptoss20b.yaml", List.of("+judge_key")),
      Map.entry("physics_judge/configs/judge_openai.yaml", List.of("+judge_key")),
      Map.entry("math_with_judge/configs/dapo17k.yaml",
          List.of("++math_with_judge.resources_servers.math_with_judge.judge_model_server.name=policy_model")),
      Map.entry("math_with_judge/configs/math_stack_overflow.yaml",
          List.of("++math_with_judge.resources_servers.math_with_judge.judge_model_server.name=policy_model")),
      // its Claude Code agent reads the user's Anthropic key from env.yaml
      Map.entry("example_mcp_weather/configs/example_mcp_weather.yaml", List.of("+anthropic_api_key=sk-ant-test")),
      Map.entry("over_refusal_detection/configs/over_refusal_detection.yaml", judgeEndpoint()),
      Map.entry("over_refusal_detection/configs/over_refusal_detection_nemotron.yaml", judgeEndpoint()),
      Map.entry("frontierscience_judge/configs/frontierscience_judge.yaml", List.of("+judge_key")),
      Map.entry("imo_proofbench_judge/configs/imo_proofbench_judge.yaml", judgeEndpoint()),
      Map.entry("inverse_if/configs/inverse_if.yaml", copyOfPolicy("judge_model")),
      Map.entry("jailbreak_detection/configs/jailbreak_detection_nemotron_combined_reward_tp8.yaml",
          copyOfPolicy("safety_judge_model")),
      Map.entry("longmemeval/configs/longmemeval.yaml", judgeEndpoint()),
      Map.entry("longmemeval/configs/longmemeval_serve.yaml", judgeEndpoint()),
      Map.entry("benchmarks/frontierscience_olympiad/config.yaml", List.of("+judge_key")),
      Map.entry("benchmarks/frontierscience_research/config.yaml", List.of("+judge_key")),
      Map.entry("benchmarks/imo_proofbench/config.yaml", judgeEndpoint()),
      Map.entry("benchmarks/longmemeval/config.yaml", judgeEndpoint()),
      // benchmarks: the same judge models, and the key their companion judge configs read from NVIDIA_API_KEY
      // aalcr's judge is a vLLM server the user runs (local_vllm_model's params, its comment says): its base_url and key
      Map.entry("benchmarks/aalcr/config.yaml",
          List.of("++Qwen3-235B-A22B-Instruct-2507-FP8.responses_api_models.vllm_model.base_url=http://127.0.0.1:1/v1",
              "++Qwen3-235B-A22B-Instruct-2507-FP8.responses_api_models.vllm_model.api_key=EMPTY")),
      Map.entry("benchmarks/omniscience/config.yaml", genrmKey()),
      Map.entry("benchmarks/simpleqa/config.yaml", genrmKey()),
      Map.entry("benchmarks/ugphysics/config.yaml", List.of("+judge_key")),
      Map.entry("benchmarks/imo_answerbench/config.yaml", List.of("+judge_key")),
      Map.entry("benchmarks/physics/config.yaml", List.of("+judge_key")),
      // arena_judge's judge endpoint comes from ARENA_JUDGE_BASE_URL / _API_KEY / _MODEL; a test gives them instead
      Map.entry("arena_judge/configs/arena_judge.yaml", arenaJudge()),
      Map.entry("benchmarks/arena_hard/config.yaml", arenaJudge()),
      Map.entry("benchmarks/arena_hard_v2/config.yaml", arenaJudge()),
      Map.entry("benchmarks/m_arena_hard/config.yaml", arenaJudge()),
      Map.entry("benchmarks/m_arena_hard_v2/config.yaml", arenaJudge()));

  private NemoGymConfigs() {}

  private static List<String> copyOfPolicy(String name) {
    return List.of("++" + name + "._copy=policy_model");
  }

  private static List<String> genrmKey() {
    return List.of("++genrm_model.responses_api_models.openai_model.openai_api_key=sk-judge");
  }

  private static List<String> arenaJudge() {
    String model = "++arena_judge_judge_model.responses_api_models.openai_model.";
    return List.of(model + "openai_base_url=http://127.0.0.1:1/v1", model + "openai_api_key=sk-judge",
        model + "openai_model=judge");
  }

  private static List<String> judgeEndpoint() {
    return List.of("+judge_base_url=http://127.0.0.1:1/v1", "+judge_api_key=sk-judge", "+judge_model_name=judge");
  }

  public static Path root() {
    return Fixtures.projectRoot().resolve("core/src/test/resources/nemo-gym-configs");
  }

  /** Every environment config, as a path relative to {@link #root()}, sorted. */
  public static List<String> environmentConfigs() {
    List<String> paths = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root().resolve("resources_servers"))) {
      files.filter(file -> file.getParent().getFileName().toString().equals("configs"))
          .filter(file -> file.toString().endsWith(".yaml"))
          .forEach(file -> paths.add(root().relativize(file).toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return paths.stream().sorted().toList();
  }

  /**
   * Every benchmark config (NeMo Gym's {@code benchmarks/<name>/config*.yaml}, and a versioned benchmark's
   * {@code benchmarks/<name>/<version>/config.yaml}) of the benchmarks gym4j ships, relative to {@link #root()},
   * sorted. Companion files beside them (a judge model's config, prompts) are what those configs include.
   */
  public static List<String> benchmarkConfigs() {
    List<String> paths = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root().resolve("benchmarks"))) {
      files.filter(file -> file.getFileName().toString().matches("config.*\\.yaml"))
          .filter(file -> !root().relativize(file).toString().contains("/prompts/"))
          .filter(NemoGymConfigs::declaresABenchmark)
          .forEach(file -> paths.add(root().relativize(file).toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return paths.stream().sorted().toList();
  }

  /**
   * Whether a benchmark folder's config declares a benchmark dataset: NeMo Gym also keeps shared pieces there that
   * only others chain (litmus-bench's {@code config_adme_base.yaml}), which are not run on their own.
   */
  private static boolean declaresABenchmark(Path config) {
    try {
      return Files.readString(config).contains("type: benchmark");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The command line that loads a config as a NeMo Gym user would: the config, the policy model, what the user
   * gives for it, the three policy values; then {@code more}.
   */
  public static List<String> arguments(String config, String policyBaseUrl, String... more) {
    List<String> paths = new ArrayList<>(List.of(config, POLICY_MODEL));
    List<String> arguments = new ArrayList<>();
    String key = config.startsWith("resources_servers/") ? config.substring("resources_servers/".length()) : config;
    for (String given : GIVEN.getOrDefault(key, List.of())) {
      if (given.endsWith(".yaml")) {
        paths.add(given);
      } else if (given.equals("+judge_key")) {
        // the companion judge configs read NVIDIA_API_KEY from the environment; a test gives the key instead
        arguments.add("++judge_model.responses_api_models.openai_model.openai_api_key=sk-judge");
      } else {
        arguments.add(given);
      }
    }
    arguments.addFirst("+config_paths=[" + String.join(",", paths) + "]");
    arguments.addAll(List.of("+policy_base_url=" + policyBaseUrl, "+policy_api_key=sk-test",
        "+policy_model_name=policy"));
    arguments.addAll(List.of(more));
    return arguments;
  }
}
