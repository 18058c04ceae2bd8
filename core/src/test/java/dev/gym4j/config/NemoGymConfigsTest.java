package dev.gym4j.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.gym4j.testing.Fixtures;
import dev.gym4j.testing.NemoGymConfigs;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NeMo Gym's own config files for every environment gym4j has ({@link NemoGymConfigs}) load as NeMo Gym's loader
 * (nemo_gym/global_config.py, {@code GlobalConfigDictParser.parse}) loads them, with the policy model from
 * responses_api_models/openai_model/configs/openai_model.yaml and what a user gives along with each.
 */
class NemoGymConfigsTest {
  static List<String> environmentConfigs() {
    return NemoGymConfigs.environmentConfigs();
  }

  static GlobalConfig load(String config, String... more) {
    return new ConfigLoader(List.of(NemoGymConfigs.root()), Map.of())
        .load(NemoGymConfigs.arguments(config, "http://127.0.0.1:1/v1", more));
  }

  @ParameterizedTest
  @MethodSource("environmentConfigs")
  void eachLoads(String config) {
    GlobalConfig loaded = load(config);
    assertThat(loaded.instances()).isNotEmpty();
  }

  static List<String> benchmarkConfigs() {
    return NemoGymConfigs.benchmarkConfigs();
  }

  @ParameterizedTest
  @MethodSource("benchmarkConfigs")
  void eachBenchmarkLoads(String config) {
    assertThat(load(config).instances()).isNotEmpty();
  }

  @Test
  void thereAreNemoGymsConfigsForEveryBenchmarkGym4jShips() throws IOException {
    Set<String> copied = new TreeSet<>();
    benchmarkConfigs().forEach(config -> copied.add(config.split("/")[1]));
    Set<String> shipped = new TreeSet<>();
    try (var folders = Files.list(Fixtures.projectRoot().resolve("benchmarks"))) {
      folders.filter(Files::isDirectory).map(folder -> folder.getFileName().toString())
          .filter(name -> !name.equals("prompts")).forEach(shipped::add);
    }
    assertThat(copied).isEqualTo(shipped);
  }

  @Test
  void thereAreConfigsForEveryEnvironmentOfGym4jThatNemoGymHas() throws IOException {
    Set<String> copied = new TreeSet<>();
    environmentConfigs().forEach(config -> copied.add(config.split("/")[1]));
    Set<String> ours = new TreeSet<>();
    try (var modules = Files.list(Fixtures.projectRoot().resolve("environments"))) {
      // an environment is a module with a config.yaml (circle_scenes is a library two of them share)
      modules.filter(module -> Files.isRegularFile(module.resolve("config.yaml")))
          .forEach(module -> ours.add(module.getFileName().toString()));
    }
    // conformance is gym4j's own test environment; NeMo Gym's execute_python is a tool of others, with no config
    ours.removeAll(Set.of("conformance", "execute_python"));
    assertThat(copied).isEqualTo(ours);
  }

  @Test
  void mcqaGivesTheTreeNemoGymsHeadServerWouldServe() {
    // Reasoned from GlobalConfigDictParser.parse: the command line (+config_paths, policy_*) goes over env.yaml
    // (none here); load_extra_config_paths returns [mcqa.yaml, openai_model.yaml] (no includes), merged in that
    // order, then the command line over both; no directive and no ??? to act on; host and port are then filled
    // per instance (gym4j binds them at start, so they are not compared). /global_config_dict_yaml serves
    // OmegaConf.to_yaml of that tree unresolved, so ${policy_base_url} stays as written: raw() here.
    ObjectNode raw = load("resources_servers/mcqa/configs/mcqa.yaml").raw();
    ObjectNode mcqaFile = (ObjectNode) Yaml.read(NemoGymConfigs.root().resolve("resources_servers/mcqa/configs/mcqa.yaml"));
    ObjectNode modelFile = (ObjectNode) Yaml.read(NemoGymConfigs.root().resolve(NemoGymConfigs.POLICY_MODEL));
    assertThat(raw.get("mcqa")).isEqualTo(mcqaFile.get("mcqa"));
    assertThat(raw.get("mcqa_simple_agent")).isEqualTo(mcqaFile.get("mcqa_simple_agent"));
    assertThat(raw.get("policy_model")).isEqualTo(modelFile.get("policy_model"));
    assertThat(raw.get("policy_model").toString()).contains("\"openai_base_url\":\"${policy_base_url}\"");
    assertThat(raw.get("config_paths").toString())
        .isEqualTo("[\"resources_servers/mcqa/configs/mcqa.yaml\",\"" + NemoGymConfigs.POLICY_MODEL + "\"]");
    assertThat(raw.get("policy_model_name").stringValue()).isEqualTo("policy");
  }

  @Test
  void theClineMathConfigInheritsTheAgentOfTheFileItIncludes() {
    // Reasoned from parse: math_with_judge_cline_agent.yaml includes cline_agent.yaml, so the merge order is
    // [cline_agent.yaml, math_with_judge_cline_agent.yaml, openai_model.yaml] (post-order) and the written-back
    // config_paths is [math…, openai…, cline_agent.yaml] (includes appended as found). Then
    // _recursively_swap_keys: math_with_judge_cline_agent = OmegaConf.merge(cline_agent block, its own keys), so
    // resources_server.name's ??? gives way to math_with_judge, the datasets list replaces null, every other
    // setting (command, cline_version, model: ${policy_model_name}) comes from cline_agent.yaml; and cline_agent
    // itself is popped, so the generic harness block no longer starts.
    ObjectNode raw = load("resources_servers/math_with_judge/configs/math_with_judge_cline_agent.yaml").raw();
    JsonNode agent = raw.path("math_with_judge_cline_agent").path("responses_api_agents").path("cline_agent");
    assertThat(raw.has("cline_agent")).isFalse();
    assertThat(agent.path("resources_server").toString())
        .isEqualTo("{\"type\":\"resources_servers\",\"name\":\"math_with_judge\"}");
    assertThat(agent.path("model").stringValue()).isEqualTo("${policy_model_name}");
    assertThat(agent.path("cline_version").stringValue()).isEqualTo("3.0.55");
    assertThat(agent.path("command").stringValue()).isEqualTo("cline");
    assertThat(agent.path("system_prompt").stringValue()).startsWith("You are a precise math assistant");
    assertThat(agent.path("datasets").toString()).isEqualTo("[{\"name\":\"example\",\"type\":\"example\","
        + "\"jsonl_fpath\":\"resources_servers/math_with_judge/data/example.jsonl\"}]");
    assertThat(raw.get("config_paths").toString()).isEqualTo("[\"resources_servers/math_with_judge/configs/"
        + "math_with_judge_cline_agent.yaml\",\"" + NemoGymConfigs.POLICY_MODEL
        + "\",\"responses_api_agents/cline_agent/configs/cline_agent.yaml\"]");
  }

  @Test
  void mcqasDatasetsComeByTypeWithTheirMetadata() {
    ServerInstance agent = load("resources_servers/mcqa/configs/mcqa.yaml").require("mcqa_simple_agent");
    assertThat(agent.datasets()).extracting(Dataset::name)
        .containsExactly("train", "validation", "example", "example_with_template_metadata");
    assertThat(agent.datasets(Dataset.EXAMPLE)).extracting(Dataset::jsonlFpath).containsExactly(
        "resources_servers/mcqa/data/example.jsonl", "resources_servers/mcqa/data/example_with_template_metadata.jsonl");
    Dataset train = agent.datasets(Dataset.TRAIN).getFirst();
    assertThat(train.license()).contains("Apache 2.0");
    assertThat(train.numRepeats()).isEqualTo(1);
    assertThat(train.entry().path("huggingface_identifier").path("repo_id").stringValue())
        .isEqualTo("nvidia/Nemotron-RL-knowledge-mcqa");
    assertThat(train.entry().path("gitlab_identifier").path("version").stringValue()).isEqualTo("1.1.2");
    assertThat(agent.datasets(Dataset.VALIDATION).getFirst().source().orElseThrow().path("type").stringValue())
        .isEqualTo("huggingface");
    assertThat(agent.datasets(Dataset.BENCHMARK)).isEmpty();
  }
}
