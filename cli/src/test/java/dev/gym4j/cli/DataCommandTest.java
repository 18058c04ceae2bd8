package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code gym4j data} and {@code gym4j metrics --groups} on NeMo Gym's files. */
class DataCommandTest {
  @TempDir
  Path dir;
  private final CapturedCommand command = new CapturedCommand();

  @Test
  void exportsDpoPairsFromARecordedFile() throws Exception {
    Path rollouts = Fixtures.environment("blackjack").resolve("example_rollouts.jsonl");
    Path output = dir.resolve("dpo.jsonl");
    assertThat(command.run("data", "export", rollouts.toString(), "--format", "dpo-pairs", "--output",
        output.toString(), "--all-pairs")).as(command.err()).isZero();
    List<JsonNode> pairs = Json.readLines(output);
    assertThat(pairs).hasSize(6).allSatisfy(pair -> assertThat(pair.get("quality_difference").asDouble()).isEqualTo(2.0));
    assertThat(command.out()).contains("5 rollouts read, 6 rows written");
  }

  /** issue 39: an export that writes nothing says why, on the line that says so. */
  @Test
  void anExportThatWritesNothingSaysWhy() throws Exception {
    Path recorded = Fixtures.environment("example_single_tool_call").resolve("example_rollouts.jsonl");
    Path output = dir.resolve("out.jsonl");
    assertThat(command.run("data", "export", recorded.toString(), "--format", "dpo-pairs", "--output",
        output.toString())).as(command.err()).isZero();
    assertThat(command.out().strip()).isEqualTo("5 rollouts read, 0 rows written to " + output + " (dpo-pairs): no "
        + "task had two rollouts whose rewards differ by at least 0.1 (--min-quality-difference) among 5 tasks, 5 "
        + "of them with a single rollout (collect with --repeats 2 or more)");

    // two rollouts of every task, with the same reward
    Path twice = dir.resolve("twice.jsonl");
    List<String> lines = Files.readAllLines(recorded);
    Files.write(twice, java.util.stream.Stream.concat(lines.stream(), lines.stream()).toList());
    CapturedCommand pairs = new CapturedCommand();
    assertThat(pairs.run("data", "export", twice.toString(), "--format", "dpo-pairs", "--output", output.toString()))
        .isZero();
    assertThat(pairs.out()).contains("10 rollouts read, 0 rows written", "no task had two rollouts whose rewards "
        + "differ by at least 0.1 (--min-quality-difference) among 5 tasks\n");

    CapturedCommand filtered = new CapturedCommand();
    assertThat(filtered.run("data", "export", recorded.toString(), "--format", "sft-messages", "--min-reward", "2",
        "--output", output.toString())).isZero();
    assertThat(filtered.out()).contains("5 rollouts read, 0 rows written to " + output + " (sft-messages): the "
        + "filters kept none of the 5 rollouts: 5 below --min-reward 2.0");

    Path empty = Files.writeString(dir.resolve("empty.jsonl"), "");
    CapturedCommand nothing = new CapturedCommand();
    assertThat(nothing.run("data", "export", empty.toString(), "--format", "rl-scored", "--output",
        output.toString())).isZero();
    assertThat(nothing.out()).contains("0 rollouts read, 0 rows written to " + output + " (rl-scored): the file has "
        + "no rollouts");
  }

  @Test
  void validatesADatasetAndExitsNonZeroOnABadRow() throws Exception {
    Path good = dir.resolve("good.jsonl");
    Files.copy(Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl"), good);
    assertThat(command.run("data", "validate", good.toString())).isZero();
    assertThat(command.out()).contains("5 rows, 0 bad");
    assertThat(Files.exists(dir.resolve("good_metrics.json"))).isTrue();
    Path bad = dir.resolve("bad.jsonl");
    Files.writeString(bad, "{\"responses_create_params\": {\"input\": 1}}\n");
    assertThat(command.run("data", "validate", bad.toString())).isEqualTo(1);
    assertThat(command.out()).contains(bad + ":1: responses_create_params.input");
  }

  @Test
  void every_shipped_environments_rows_name_an_agent_of_its_config_issue_16() throws Exception {
    try (var envs = Files.list(Fixtures.projectRoot().resolve("environments"))) {
      for (Path env : envs.filter(e -> Files.exists(e.resolve("config.yaml"))).toList()) {
        Path copy = dir.resolve("environments").resolve(env.getFileName().toString());
        Files.createDirectories(copy.resolve("data"));
        Files.copy(env.resolve("config.yaml"), copy.resolve("config.yaml"));
        Files.copy(env.resolve("data/example.jsonl"), copy.resolve("data/example.jsonl"));
        assertThat(command.run("data", "validate", copy.resolve("data/example.jsonl").toString()))
            .as(env + ": " + command.out() + command.err()).isZero();
      }
    }
    assertThat(command.out()).contains("agent_ref checked against the environment's config.yaml");
  }

  @Test
  void a_row_naming_an_agent_its_environment_does_not_define_is_bad_without_config_issue_16() throws Exception {
    Path env = dir.resolve("environments/equivalence_rule");
    Files.createDirectories(env.resolve("data"));
    Files.writeString(env.resolve("config.yaml"), Files.readString(Fixtures.projectRoot()
        .resolve("environments/equivalence_rule/config.yaml")).replace("lc_equivalence_rule_simple_agent:",
        "equivalence_rule_simple_agent:"));
    Files.copy(Fixtures.projectRoot().resolve("environments/equivalence_rule/data/example.jsonl"),
        env.resolve("data/example.jsonl"));
    assertThat(command.run("data", "validate", env.resolve("data/example.jsonl").toString())).isEqualTo(1);
    assertThat(command.out()).contains("example.jsonl:1: agent_ref.name: no agent named "
        + "lc_equivalence_rule_simple_agent in the config (agents: [equivalence_rule_simple_agent])");
  }

  @Test
  void a_profile_that_differs_is_reported_and_left_unchanged() throws Exception {
    Path data = dir.resolve("example.jsonl");
    Files.copy(Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl"), data);
    String profile = Files.readString(Fixtures.projectRoot()
        .resolve("environments/example_single_tool_call/data/example_metrics.json"));
    Files.writeString(dir.resolve("example_metrics.json"), profile);
    assertThat(command.run("data", "validate", data.toString())).as(command.out()).isZero();
    assertThat(command.out()).contains("profile up to date");

    String edited = profile.replace("\"Average\": 53.0", "\"Average\": 23.0");
    Files.writeString(dir.resolve("example_metrics.json"), edited);
    assertThat(command.run("data", "validate", data.toString())).isEqualTo(1);
    assertThat(command.out()).contains("Json-dumped number of words (proxy for token count).Average: 23.0 in the "
        + "file, 53.0 now");
    assertThat(Files.readString(dir.resolve("example_metrics.json"))).isEqualTo(edited);
  }

  @Test
  void sft_messages_write_the_developer_role_as_system_unless_asked_to_keep_it_issue_16() throws Exception {
    Path rollouts = dir.resolve("run.jsonl");
    Files.writeString(rollouts, "{\"responses_create_params\": {\"input\": [{\"role\": \"developer\", \"content\": "
        + "\"Be brief.\"}, {\"role\": \"user\", \"content\": \"Hi\"}]}, \"response\": {\"output\": [{\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": \"Hello\"}]}]}, "
        + "\"reward\": 1.0}\n");
    Path sft = dir.resolve("sft.jsonl");
    assertThat(command.run("data", "export", rollouts.toString(), "--format", "sft-messages", "--output",
        sft.toString())).as(command.err()).isZero();
    assertThat(Json.readLines(sft).getFirst().at("/messages/0/role").asString()).isEqualTo("system");
    assertThat(command.run("data", "export", rollouts.toString(), "--format", "sft-messages", "--output",
        sft.toString(), "--keep-developer-role")).isZero();
    assertThat(Json.readLines(sft).getFirst().at("/messages/0/role").asString()).isEqualTo("developer");
  }

  @Test
  void collating_types_the_config_does_not_list_names_those_it_lists_issue_16() {
    Path root = Fixtures.projectRoot();
    assertThat(command.run("data", "collate", "+config_paths=[" + root.resolve("models/configs/vllm_model.yaml") + ","
        + root.resolve("environments/example_single_tool_call/config.yaml") + "]", "+policy_base_url=http://h/v1",
        "+policy_api_key=x", "+policy_model_name=m", "--types", "train,validation",
        "--output", dir.resolve("train.jsonl").toString())).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).contains("no datasets of type [train, validation] in the agents of this config; they "
        + "list example_single_tool_call_simple_agent: example (example): choose with --types");
  }

  @Test
  void groupsShowWhichTasksGiveGrpoNoSignal() {
    Path file = Fixtures.environment("math_with_judge").resolve("example_rollouts.jsonl");
    assertThat(command.run("metrics", "--groups", file.toString())).isZero();
    assertThat(command.out()).contains("5 task groups, 5 with zero reward variance (100.0 %)");
  }
}
