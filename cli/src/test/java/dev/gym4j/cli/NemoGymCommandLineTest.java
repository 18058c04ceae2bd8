package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * NeMo Gym's {@code gym <group> <verb>} command line on gym4j. The flag-to-override rules are NeMo Gym's
 * ({@code nemo_gym/cli/main.py}: {@code _value_flag} turns {@code --model} into {@code +policy_model_name=},
 * {@code --model-url} into {@code +policy_base_url=}, {@code --concurrency} into {@code +num_samples_in_parallel=};
 * {@code _merge_config_paths} coalesces {@code --config} and the asset selectors into one {@code +config_paths}),
 * with gym4j's paths for the assets ({@code environments/<name>/config.yaml}, {@code models/configs/<type>.yaml}).
 */
@ExtendWith(ProjectHome.class)
class NemoGymCommandLineTest {
  @TempDir
  Path dir;
  private final CapturedCommand command = new CapturedCommand();

  @Test
  void env_start_is_run_with_one_config_paths_and_the_policy_keys() {
    assertThat(NemoGymCommands.translate("env start", List.of("--config", "a.yaml", "--environment", "mcqa",
        "--model-type", "vllm_model", "-m", "Qwen/Qwen3-8B", "--model-url", "http://gpu:8000/v1",
        "+config_paths=[b.yaml]", "++head_server.port=0")))
        .containsExactly("run", "+config_paths=[a.yaml,environments/mcqa/config.yaml,models/configs/vllm_model.yaml,"
            + "b.yaml]", "+policy_model_name=Qwen/Qwen3-8B", "+policy_base_url=http://gpu:8000/v1",
            "++head_server.port=0");
  }

  @Test
  void eval_run_no_serve_is_collect_with_the_same_settings() {
    assertThat(NemoGymCommands.translate("eval run", List.of("--no-serve", "-a", "mcqa_simple_agent", "-i", "in.jsonl",
        "-o", "out.jsonl", "--num-repeats", "4", "--concurrency=8", "--temperature", "0.6", "--prompt-config", "p.yaml",
        "--resume", "+limit=3")))
        .containsExactly("collect", "--agent", "mcqa_simple_agent", "--input", "in.jsonl", "--output", "out.jsonl",
            "--resume", "--repeats", "4", "--parallel", "8", "+prompt_config=p.yaml",
            "+responses_create_params.temperature=0.6", "+limit=3");
  }

  @Test
  void eval_run_serving_is_eval_on_the_environment_or_benchmark() {
    assertThat(NemoGymCommands.translate("eval run", List.of("--benchmark", "aime24", "--model-type", "vllm_model",
        "--num-repeats", "2", "--model-api-key", "k")))
        .containsExactly("eval", "--benchmark", "aime24", "--model-type", "vllm_model", "--api-key", "k", "--repeats",
            "2");
    assertThat(NemoGymCommands.translate("eval run", List.of("--environment", "mcqa", "--limit", "5")))
        .containsExactly("eval", "--env", "mcqa", "--limit", "5");
    assertThatThrownBy(() -> NemoGymCommands.translate("eval run", List.of("--model", "m")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("give --config FILE, --environment NAME or "
            + "--benchmark NAME");
    assertThat(NemoGymCommands.translate("eval run", List.of("--config", "a.yaml", "+config_paths=[b.yaml]", "-a",
        "ag", "--split", "train", "--prompt-config", "p.yaml", "--disable-aggregation", "--resume", "+limit=2")))
        .containsExactly("eval", "--config", "a.yaml", "--config", "b.yaml", "--agent", "ag", "--split", "train",
            "--prompt-config", "p.yaml", "--resume", "--disable-aggregation", "+limit=2");
  }

  @Test
  void nemo_gym_test_and_init_targets_name_the_environment() {
    assertThat(NemoGymCommands.translate("env test", List.of("+entrypoint=resources_servers/mcqa")))
        .containsExactly("test", "mcqa");
    assertThat(NemoGymCommands.translate("env init", List.of("--resources-server", "letter_counting")))
        .containsExactly("init", "letter_counting");
    assertThat(NemoGymCommands.translate("dataset collate", List.of("--mode", "example_validation", "--output-dir",
        "out", "--config", "c.yaml")))
        .containsExactly("data", "collate", "--types", "example", "--output-dir", "out", "+config_paths=[c.yaml]");
  }

  /**
   * NeMo Gym's {@code TrainDataProcessor.collate_samples} ({@code nemo_gym/train_data_utils.py}): per in-scope type
   * ({@code train_preparation}: train, validation, benchmark) one {@code <output_dirpath>/<type>.jsonl}, rows in
   * config order, each repeated {@code num_repeats} times in place ({@code _iter_dataset_lines}), benchmark rows
   * rendered through the dataset's {@code prompt_config}, {@code agent_ref} added; and {@code <type>_metrics.json}
   * (the first dataset's entry, then the raw rows' profile), compared with one already there.
   */
  @Test
  void dataset_collate_writes_one_file_per_dataset_type() throws Exception {
    Files.writeString(dir.resolve("questions.jsonl"), "{\"question\": \"1+1?\", \"expected_answer\": \"2\"}\n"
        + "{\"question\": \"2+2?\", \"expected_answer\": \"4\"}\n");
    Files.writeString(dir.resolve("prompt.yaml"), "user: \"Solve {question} in {{braces}}\"\n");
    Path train = dir.resolve("train_rows.jsonl");
    Files.writeString(train, "{\"responses_create_params\": {\"input\": \"Weather in Paris?\"}}\n");
    Files.writeString(dir.resolve("extra.yaml"), """
        second_agent:
          responses_api_agents:
            simple_agent:
              resources_server: {type: resources_servers, name: example_single_tool_call}
              model_server: {type: responses_api_models, name: policy_model}
              datasets:
              - {name: questions, type: benchmark, jsonl_fpath: %s, num_repeats: 2, prompt_config: %s,
                 prepare_script: prepare.py}
              - {name: more, type: train, jsonl_fpath: %s, license: MIT}
        """.formatted(dir.resolve("questions.jsonl"), dir.resolve("prompt.yaml"), train));
    Path out = dir.resolve("collated");
    List<String> args = List.of("dataset", "collate", "--resources-server", "example_single_tool_call", "--config",
        dir.resolve("extra.yaml").toString(), "--model-type", "vllm_model", "--mode", "train_preparation",
        "--output-dir", out.toString(), "+policy_base_url=http://h/v1", "+policy_api_key=x", "+policy_model_name=m");
    assertThat(command.run(args.toArray(String[]::new))).as(command.err()).isZero();
    try (var files = Files.list(out)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("benchmark.jsonl",
          "benchmark_metrics.json", "train.jsonl", "train_metrics.json");
    }
    List<tools.jackson.databind.JsonNode> benchmark = Json.readLines(out.resolve("benchmark.jsonl"));
    assertThat(benchmark).extracting(r -> r.at("/responses_create_params/input/0/content").asString())
        .containsExactly("Solve 1+1? in {braces}", "Solve 1+1? in {braces}", "Solve 2+2? in {braces}",
            "Solve 2+2? in {braces}");
    assertThat(benchmark).allSatisfy(r -> assertThat(r.at("/agent_ref/name").asString()).isEqualTo("second_agent"));
    var metrics = Json.parse(Files.readString(out.resolve("benchmark_metrics.json")));
    assertThat(metrics.get("name").asString()).isEqualTo("questions");
    // raw benchmark rows are no run request yet: compute_sample_metrics counts them as offending, not as examples
    assertThat(metrics.get("Number of examples").asInt()).isZero();
    assertThat(Json.readLines(out.resolve("train.jsonl"))).hasSize(1);
    assertThat(Json.parse(Files.readString(out.resolve("train_metrics.json"))).get("Number of examples").asInt())
        .isEqualTo(1);
    // example_validation gathers the example datasets only
    CapturedCommand example = new CapturedCommand();
    assertThat(example.run("dataset", "collate", "--resources-server", "example_single_tool_call", "--model-type",
        "vllm_model", "+mode=example_validation", "+output_dirpath=" + out, "+policy_base_url=http://h/v1",
        "+policy_api_key=x", "+policy_model_name=m")).as(example.err()).isZero();
    assertThat(Json.readLines(out.resolve("example.jsonl"))).hasSize(5);
    // the data changed under a profile already written: NeMo Gym stops and writes the new one beside it
    Files.writeString(train, "{\"responses_create_params\": {\"input\": \"Weather in Rome, today and tomorrow?\"}}"
        + "\n{\"responses_create_params\": {\"input\": \"Rain?\"}}\n");
    CapturedCommand again = new CapturedCommand();
    assertThat(again.run(args.toArray(String[]::new))).isEqualTo(Main.USAGE_ERROR);
    assertThat(again.err()).contains("differ from the ones already in", "train_metrics_conflict.json");
    assertThat(Json.readLines(out.resolve("train.jsonl"))).hasSize(1);
  }

  /**
   * {@code gym eval run} without {@code --no-serve} ({@code nemo_gym/cli/eval.py} {@code e2e_rollout_collection}):
   * the servers of the configs start, the {@code --split} datasets are collated into
   * {@code <output stem>/preprocessed_datasets/<split>.jsonl} and collected; {@code disable_aggregation}
   * ({@code nemo_gym/rollout_collection.py}) leaves out the {@code _aggregate_metrics.json}. gym4j also takes
   * {@code --input} with {@code --prompt-config} and {@code --agent} there (NeMo Gym replaces the input with the split).
   */
  @Test
  void eval_run_starts_the_configs_servers_and_collects_a_split_or_an_input() throws Exception {
    Files.writeString(dir.resolve("questions.jsonl"), "{\"question\": \"1+1?\"}\n{\"question\": \"2+2?\"}\n");
    Files.writeString(dir.resolve("prompt.yaml"), "user: \"Solve {question} in {{braces}}\"\n");
    Files.writeString(dir.resolve("extra.yaml"), """
        second_agent:
          responses_api_agents:
            simple_agent:
              resources_server: {type: resources_servers, name: example_single_tool_call}
              model_server: {type: responses_api_models, name: policy_model}
              datasets:
              - {name: questions, type: benchmark, jsonl_fpath: %s, num_repeats: 2, prompt_config: %s,
                 prepare_script: prepare.py}
        """.formatted(dir.resolve("questions.jsonl"), dir.resolve("prompt.yaml")));
    try (var model = dev.gym4j.testkit.ScriptedUpstream.start()) {
      model.otherwise(dev.gym4j.testkit.Behaviours.callToolThenAnswer(dev.gym4j.testkit.Answer.toolCall("get_weather",
          "{\"city\": \"SF\"}"), "Cold."));
      List<String> serve = List.of("eval", "run", "--config", "environments/example_single_tool_call/config.yaml",
          "--model-type", "vllm_model", "--model", "m", "--model-url", model.baseUrl(), "--model-api-key", "x");
      Path split = dir.resolve("out/split.jsonl");
      assertThat(command.run(concat(serve, "--config", dir.resolve("extra.yaml").toString(), "--split", "benchmark",
          "--output", split.toString(), "--disable-aggregation"))).as(command.err()).isZero();
      assertThat(Json.readLines(split)).hasSize(4).allSatisfy(r ->
          assertThat(r.at("/agent_ref/name").asString()).isEqualTo("second_agent"));
      assertThat(Json.readLines(dir.resolve("out/split/preprocessed_datasets/benchmark.jsonl"))).hasSize(4);
      assertThat(Files.exists(dir.resolve("out/split_aggregate_metrics.json"))).isFalse();
      assertThat(command.out()).contains("metrics:  not computed (--disable-aggregation)");
      assertThat(model.received()).anySatisfy(r -> assertThat(r.body().toString()).contains("Solve 2+2? in {braces}"));

      Path given = dir.resolve("out/input.jsonl");
      List<String> input = List.of(concat(serve, "-a", "example_single_tool_call_simple_agent", "-i",
          dir.resolve("questions.jsonl").toString(), "--prompt-config", dir.resolve("prompt.yaml").toString(),
          "--num-repeats", "2", "-o", given.toString()));
      CapturedCommand first = new CapturedCommand();
      assertThat(first.run(input.toArray(String[]::new))).as(first.err()).isZero();
      assertThat(Json.readLines(given)).hasSize(4).allSatisfy(r ->
          assertThat(r.at("/agent_ref/name").asString()).isEqualTo("example_single_tool_call_simple_agent"));
      assertThat(Files.exists(dir.resolve("out/input_aggregate_metrics.json"))).isTrue();
      CapturedCommand resumed = new CapturedCommand();
      assertThat(resumed.run(concat(input, "--resume"))).as(resumed.err()).isZero();
      assertThat(resumed.out()).contains("4 rollouts: 4 already done, 0 succeeded");
    }
  }

  private static String[] concat(List<String> first, String... more) {
    return java.util.stream.Stream.concat(first.stream(), java.util.Arrays.stream(more)).toArray(String[]::new);
  }

  @Test
  void eval_aggregate_is_metrics_over_the_files_the_globs_match() throws Exception {
    Files.writeString(dir.resolve("shard_1.jsonl"), "");
    Files.writeString(dir.resolve("shard_0.jsonl"), "");
    Files.writeString(dir.resolve("other.jsonl"), "");
    assertThat(NemoGymCommands.translate("eval aggregate", List.of("--input-glob", dir + "/shard_*.jsonl",
        "-o", "merged.jsonl")))
        .containsExactly("metrics", dir.resolve("shard_0.jsonl").toString(), dir.resolve("shard_1.jsonl").toString(),
            "--output", "merged.jsonl");
  }

  /** {@code nemo_gym/cli/main.py} COMMANDS: the flags of each command, its positional NAME and its aliases. */
  @Test
  void every_flag_of_nemo_gyms_parser_is_mapped_or_refused_with_the_reason() throws Exception {
    assertThat(NemoGymCommands.translate("env test", List.of("mcqa"))).containsExactly("test", "mcqa");
    assertThat(NemoGymCommands.translate("env init", List.of("--environment", "my_env")))
        .containsExactly("init", "my_env");
    assertThatThrownBy(() -> NemoGymCommands.translate("env init", List.of("--benchmark", "b")))
        .hasMessageContaining("gym4j scaffolds environments");
    assertThatThrownBy(() -> NemoGymCommands.translate("env start", List.of("--search-dir", "x")))
        .hasMessage("`gym env start` --search-dir is not supported: gym4j finds configs in the working directory "
            + "and its installation only: give the file with --config PATH");
    assertThatThrownBy(() -> NemoGymCommands.translate("dataset collate", List.of("--download", "--mode",
        "train_preparation"))).hasMessageContaining("gym4j downloads no datasets");
    assertThatThrownBy(() -> NemoGymCommands.translate("env test", List.of("--kind", "environment")))
        .hasMessageContaining("no manifest-backed workload catalog");
    assertThatThrownBy(() -> NemoGymCommands.translate("eval reverify", List.of("--environment", "mcqa", "--force")))
        .hasMessageContaining("no reverify_mode guard");
    assertThatThrownBy(() -> NemoGymCommands.translate("dataset collate", List.of("--output-dir", "o")))
        .hasMessageContaining("--mode is train_preparation or example_validation (NeMo Gym has no default)");
    // eval aggregate's -i is --input-glob; its --config is not needed, and the command says so
    Files.writeString(dir.resolve("shard_0.jsonl"), "");
    assertThat(NemoGymCommands.translate("eval aggregate", List.of("-i", dir + "/shard_*.jsonl")))
        .containsExactly("metrics", dir.resolve("shard_0.jsonl").toString());
    List<String> notes = new java.util.ArrayList<>();
    NemoGymCommands.translate("eval aggregate", List.of("-i", dir + "/shard_*.jsonl", "--config", "c.yaml"), notes);
    assertThat(notes).singleElement().asString().startsWith("--config is not needed");
  }

  @Test
  void eval_reverify_keeps_judge_failed_only() {
    // nemo_gym/cli/eval.py reverify: --judge-failed-only re-scores only the rows whose judge failed
    assertThat(NemoGymCommands.translate("eval reverify", List.of("--environment", "simpleqa", "--rollouts",
        "r.jsonl", "--output", "o.jsonl", "--judge-failed-only")))
        .containsSubsequence("reverify", "--env", "simpleqa").contains("--judge-failed-only", "--rollouts", "r.jsonl");
  }

  @Test
  void an_unknown_flag_is_one_line_naming_the_flags_there_are() {
    assertThat(command.run("env", "status", "--jsn")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err().strip()).isEqualTo("error: `gym env status` (gym4j status) has no flag --jsn; its flags: "
        + "--json, --verbose");
  }

  @Test
  void what_gym4j_does_not_do_says_what_to_use_instead() {
    assertThat(command.run("eval", "prepare", "--benchmark", "aime24")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).startsWith("error: `gym eval prepare` is not supported: gym4j downloads no datasets");
    CapturedCommand download = new CapturedCommand();
    assertThat(download.run("dataset", "download", "--repo-id", "x/y")).isEqualTo(Main.USAGE_ERROR);
    assertThat(download.err()).contains("does not talk to dataset hubs");
    CapturedCommand grouped = new CapturedCommand();
    assertThat(grouped.run("env")).isEqualTo(Main.USAGE_ERROR);
    assertThat(grouped.err()).contains("`gym4j env` needs a command: start, test, init, resolve, validate, status");
  }

  @Test
  void help_shows_nemo_gyms_groups_beside_gym4js_commands() {
    assertThat(command.run("--help")).isZero();
    assertThat(command.out()).contains("  run ", "  collect ", "  env ", "  dataset ", "  list ", "  status ",
        "  profile ", "NeMo Gym's command line works too");
    CapturedCommand start = new CapturedCommand();
    assertThat(start.run("env", "start", "--help")).isZero();
    assertThat(start.out()).contains("NeMo Gym's `gym env start`: runs `gym4j run`.", "--model-url VALUE");
  }

  @Test
  void env_validate_checks_a_config_without_starting_it() {
    assertThat(command.run("env", "validate", "--environment", "example_single_tool_call", "--model-type",
        "vllm_model", "--model", "m", "--model-url", "http://127.0.0.1:9/v1", "--model-api-key", "k"))
        .as(command.err()).isZero();
    assertThat(command.out()).startsWith("config is valid: 3 server instances (");
    CapturedCommand missing = new CapturedCommand();
    assertThat(missing.run("env", "validate", "--environment", "example_single_tool_call", "--model-type",
        "vllm_model")).isEqualTo(Main.USAGE_ERROR);
    assertThat(missing.err()).contains("policy_base_url");
  }

  @Test
  void env_status_shows_every_running_server_and_whether_it_answers() {
    try (WeatherStack stack = new WeatherStack(Duration.ZERO)) {
      int port = stack.deployment.head().url().getPort();
      assertThat(command.run("env", "status", "++head_server.port=" + port)).as(command.err()).isZero();
      assertThat(command.out()).contains("✓  example_single_tool_call_simple_agent", "3 of 3 servers healthy");
      CapturedCommand json = new CapturedCommand();
      assertThat(json.run("status", "--head", stack.deployment.head().url().toString(), "--json")).isZero();
      assertThat(Json.parse(json.out())).hasSize(3).allSatisfy(s -> assertThat(s.get("healthy").asBoolean()).isTrue());
    }
  }

  @Test
  void status_without_a_head_server_is_one_line() {
    assertThat(command.run("env", "status", "++head_server.port=9")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err().strip()).startsWith("error: the head server http://127.0.0.1:9 cannot be reached");
  }

  @Test
  void eval_run_no_serve_collects_from_running_servers() {
    try (WeatherStack stack = new WeatherStack(Duration.ZERO)) {
      Path output = dir.resolve("out.jsonl");
      int status = command.run("eval", "run", "--no-serve", "--agent", WeatherStack.AGENT, "--input",
          Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl").toString(),
          "--output", output.toString(), "--num-repeats", "2", "--concurrency", "4",
          "++head_server.port=" + stack.deployment.head().url().getPort());
      assertThat(status).as(command.err()).isZero();
      assertThat(Json.readLines(output)).hasSize(10);
      assertThat(command.out()).contains("10 rollouts: 0 already done, 10 succeeded, 0 failed");
    }
  }

  @Test
  void list_environments_says_what_each_needs_and_ships() {
    assertThat(command.run("list", "environments", "--json")).as(command.err()).isZero();
    java.util.Map<String, tools.jackson.databind.JsonNode> byName = new java.util.HashMap<>();
    Json.parse(command.out()).forEach(e -> byName.put(e.get("name").asString(), e));
    assertThat(byName).containsKeys("mcqa", "math_with_judge", "code_gen", "simpleqa", "example_single_tool_call");
    assertThat(byName.get("simpleqa").get("judge").asString()).isEqualTo("yes");
    assertThat(byName.get("math_with_judge").get("judge").asString()).isEqualTo("optional");
    assertThat(byName.get("mcqa").get("judge").asString()).isEqualTo("no");
    assertThat(byName.get("code_gen").get("sandbox").asBoolean()).isTrue();
    assertThat(byName.get("mcqa").get("sandbox").asBoolean()).isFalse();
    assertThat(byName.get("example_single_tool_call").get("datasets").get(0).get("rows").asInt()).isEqualTo(5);
    assertThat(byName.get("mcqa").get("description").asString()).startsWith("NeMo Gym's multiple-choice environment");
    // NeMo Gym's spelling of the same listing
    CapturedCommand table = new CapturedCommand();
    assertThat(table.run("list", "resources-servers")).isZero();
    assertThat(table.out()).contains("NAME", "JUDGE", "SANDBOX", byName.size() + " environments");
  }
}
