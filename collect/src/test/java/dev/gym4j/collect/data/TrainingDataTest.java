package dev.gym4j.collect.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.collect.CollectOptions;
import dev.gym4j.collect.RolloutCollector;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testing.TestConfigs;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.ScriptedUpstream;
import dev.gym4j.wire.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every export format built from a rollouts file of our own (the counter environment, where a scripted
 * model gets half its rollouts right) and from NeMo Gym's recorded rollouts, checked field by field.
 */
class TrainingDataTest {
  @TempDir
  static Path dir;
  static List<JsonNode> ours;

  @BeforeAll
  static void collect() throws Exception {
    Path input = dir.resolve("tasks.jsonl");
    List<String> rows = new ArrayList<>();
    for (int task = 0; task < 3; task++) {
      rows.add("{\"responses_create_params\": {\"input\": [{\"role\": \"system\", \"content\": \"Count.\"}, "
          + "{\"role\": \"user\", \"content\": \"add 3 to " + task + "\"}], \"tools\": [{\"type\": \"function\", "
          + "\"name\": \"increment_counter\", \"parameters\": {\"type\": \"object\", \"properties\": "
          + "{\"count\": {\"type\": \"integer\"}}, \"required\": [\"count\"]}}]}, \"initial_count\": " + task
          + ", \"expected_count\": " + (task + 3) + "}");
    }
    Files.write(input, rows);
    AtomicInteger rollouts = new AtomicInteger();
    try (ScriptedUpstream model = ScriptedUpstream.start()) {
      model.otherwise(request -> {
        JsonNode messages = request.get("messages");
        if ("tool".equals(messages.get(messages.size() - 1).path("role").asString())) {
          return Answer.text("Done.").withReasoning("counted");
        }
        int count = rollouts.getAndIncrement() % 2 == 0 ? 3 : 2;
        return Answer.toolCall("increment_counter", "{\"count\": " + count + "}");
      });
      var config = TestConfigs.load(dir, TestConfigs.counterAgentYaml(model.baseUrl()));
      try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of());
          ServerClient client = new ServerClient(deployment.directory(), ClientSettings.defaults())) {
        CollectOptions options = new CollectOptions("agent", input, dir.resolve("rollouts.jsonl"), 4, 1, 0, false,
            null, 1);
        new RolloutCollector(options, client, new PrintStream(OutputStream.nullOutputStream()), false).collect();
      }
    }
    ours = Json.readLines(dir.resolve("rollouts.jsonl"));
  }

  private static List<ObjectNode> export(List<JsonNode> rows, Exporter.Format format, RolloutFilter filter,
      Exporter.Pairing pairing, boolean advantages, Transcript.Reasoning reasoning) {
    return Exporter.export(rows, new Exporter.Options(format, filter, 0.1, pairing, advantages, reasoning));
  }

  @Test
  void ourRolloutsHaveBothOutcomesPerTask() {
    assertThat(ours).hasSize(12);
    assertThat(ours.stream().filter(r -> r.get("reward").asDouble() == 1.0)).hasSize(6);
  }

  @Test
  void sftMessagesKeepTheRewardedRolloutsAsChatTranscripts() {
    List<ObjectNode> sft = export(ours, Exporter.Format.SFT_MESSAGES, new RolloutFilter(1.0, null, true, true, null),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.DROP);
    assertThat(sft).hasSize(6);
    ObjectNode row = sft.getFirst();
    JsonNode messages = row.get("messages");
    assertThat(messages).hasSize(5);
    assertThat(messages.get(0)).isEqualTo(Json.parse("{\"role\": \"system\", \"content\": \"Count.\"}"));
    assertThat(messages.get(1).get("role").asString()).isEqualTo("user");
    assertThat(messages.get(2).get("role").asString()).isEqualTo("assistant");
    assertThat(messages.get(2).get("content").isNull()).isTrue();
    assertThat(messages.get(2).at("/tool_calls/0/function/arguments").asString()).isEqualTo("{\"count\": 3}");
    String callId = messages.get(2).at("/tool_calls/0/id").asString();
    assertThat(messages.get(3)).isEqualTo(Json.parse("{\"role\": \"tool\", \"tool_call_id\": \"" + callId
        + "\", \"content\": \"{\\\"count\\\":" + (row.get("_ng_task_index").asInt() + 3) + "}\"}"));
    assertThat(messages.get(4)).isEqualTo(Json.parse("{\"role\": \"assistant\", \"content\": \"Done.\"}"));
    assertThat(row.at("/tools/0/function/name").asString()).isEqualTo("increment_counter");
    assertThat(row.get("reward").asDouble()).isEqualTo(1.0);

    List<ObjectNode> thinking = export(ours, Exporter.Format.SFT_MESSAGES, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.THINK);
    assertThat(thinking.getFirst().at("/messages/4/content").asString()).isEqualTo("<think>counted</think>Done.");
    List<ObjectNode> field = export(ours, Exporter.Format.SFT_MESSAGES, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.FIELD);
    assertThat(field.getFirst().at("/messages/4")).isEqualTo(Json.parse(
        "{\"role\": \"assistant\", \"content\": \"Done.\", \"reasoning_content\": \"counted\"}"));
  }

  @Test
  void dpoPairsPutTheBetterRolloutOfATaskAgainstTheWorse() {
    List<ObjectNode> pairs = export(ours, Exporter.Format.DPO_PAIRS, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.DROP);
    assertThat(pairs).hasSize(3);
    for (ObjectNode pair : pairs) {
      assertThat(pair.get("prompt")).hasSize(2);
      assertThat(pair.at("/prompt/1/role").asString()).isEqualTo("user");
      assertThat(pair.at("/chosen/0/tool_calls/0/function/arguments").asString()).isEqualTo("{\"count\": 3}");
      assertThat(pair.at("/rejected/0/tool_calls/0/function/arguments").asString()).isEqualTo("{\"count\": 2}");
      assertThat(pair.get("chosen_reward").asDouble()).isEqualTo(1.0);
      assertThat(pair.get("rejected_reward").asDouble()).isEqualTo(0.0);
      assertThat(pair.get("quality_difference").asDouble()).isEqualTo(1.0);
    }
    List<ObjectNode> all = export(ours, Exporter.Format.DPO_PAIRS, RolloutFilter.none(), Exporter.Pairing.ALL,
        false, Transcript.Reasoning.DROP);
    assertThat(all).as("2 right x 2 wrong per task").hasSize(12);
  }

  @Test
  void rlScoredKeepsTheWholeRolloutWithTokenIdsAndGroupAdvantages() {
    List<ObjectNode> scored = export(ours, Exporter.Format.RL_SCORED, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, true, Transcript.Reasoning.DROP);
    assertThat(scored).hasSize(12);
    double std = Math.sqrt(4 * 0.25 / 3);
    for (ObjectNode row : scored) {
      double reward = row.get("reward").asDouble();
      assertThat(row.get("group_mean_reward").asDouble()).isEqualTo(0.5);
      assertThat(row.get("group_std_reward").asDouble()).isCloseTo(std, within(1e-12));
      assertThat(row.get("advantage").asDouble()).isCloseTo((reward - 0.5) / (std + TaskGroups.EPSILON), within(1e-12));
      Response response = Response.of(row.get("response"));
      assertThat(response.output().stream().filter(item -> item.hasTokenInfo())).hasSize(2);
      assertThat(row.get("prompt")).hasSize(2);
      assertThat(row.get("completion")).hasSize(3);
    }
  }

  @Test
  void verlRowsAreOnePerTaskInVerlsColumns() {
    List<ObjectNode> tasks = export(ours, Exporter.Format.VERL_JSONL, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.DROP);
    assertThat(tasks).hasSize(3);
    ObjectNode task = tasks.getFirst();
    assertThat(task.get("data_source").asString()).isEqualTo("agent");
    assertThat(task.get("prompt")).hasSize(2);
    assertThat(task.at("/reward_model/style").asString()).isEqualTo("rule");
    assertThat(task.at("/extra_info/agent_ref/name").asString()).isEqualTo("agent");
  }

  @Test
  void nemoGymFixturesExportToo() {
    List<JsonNode> math = Json.readLines(Fixtures.environment("math_with_judge").resolve("example_rollouts.jsonl"));
    List<ObjectNode> sft = export(math, Exporter.Format.SFT_MESSAGES, new RolloutFilter(1.0, null, true, false, null),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.DROP);
    List<JsonNode> rewarded = math.stream().filter(r -> r.get("reward").asDouble() == 1.0).toList();
    assertThat(sft).hasSize(3);
    for (int i = 0; i < sft.size(); i++) {
      JsonNode messages = sft.get(i).get("messages");
      JsonNode last = messages.get(messages.size() - 1);
      assertThat(last.get("role").asString()).isEqualTo("assistant");
      assertThat(last.get("content").asString()).isEqualTo(Response.of(rewarded.get(i).get("response")).outputText());
      assertThat(messages.get(messages.size() - 2).get("role").asString()).isEqualTo("user");
    }

    List<JsonNode> blackjack = Json.readLines(Fixtures.environment("blackjack").resolve("example_rollouts.jsonl"));
    List<ObjectNode> pairs = export(blackjack, Exporter.Format.DPO_PAIRS, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.DROP);
    assertThat(pairs).hasSize(1);
    assertThat(pairs.getFirst().get("quality_difference").asDouble()).isEqualTo(2.0);
    assertThat(pairs.getFirst().get("chosen")).isNotEmpty();
    List<ObjectNode> scored = export(blackjack, Exporter.Format.RL_SCORED, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, true, Transcript.Reasoning.DROP);
    assertThat(scored).hasSize(5);
    for (int i = 0; i < 5; i++) {
      assertThat(scored.get(i).get("response")).isEqualTo(blackjack.get(i).get("response"));
      assertThat(scored.get(i).get("reward")).isEqualTo(blackjack.get(i).get("reward"));
      assertThat(Math.signum(scored.get(i).get("advantage").asDouble()))
          .isEqualTo(Math.signum(blackjack.get(i).get("reward").asDouble() - 0.2));
    }
    List<ObjectNode> verl = export(math, Exporter.Format.VERL_JSONL, RolloutFilter.none(),
        Exporter.Pairing.BEST_VS_WORST, false, Transcript.Reasoning.DROP);
    assertThat(verl).hasSize(5);
    for (int i = 0; i < 5; i++) {
      assertThat(verl.get(i).at("/reward_model/ground_truth")).isEqualTo(math.get(i).get("expected_answer"));
      assertThat(verl.get(i).at("/extra_info/responses_create_params")).isEqualTo(math.get(i).get("responses_create_params"));
    }
    List<TaskGroups.Group> groups = TaskGroups.of(blackjack);
    assertThat(groups).hasSize(1);
    assertThat(groups.getFirst().mean()).isCloseTo(0.2, within(1e-12));
  }



  @Test
  void groupReportCountsZeroVarianceGroups() {
    List<JsonNode> rows = new ArrayList<>(ours);
    rows.add(Json.parse("{\"_ng_task_index\": 9, \"reward\": 1.0}"));
    rows.add(Json.parse("{\"_ng_task_index\": 9, \"reward\": 1.0}"));
    ObjectNode report = TaskGroups.report(TaskGroups.of(rows));
    assertThat(report.get("num_groups").asInt()).isEqualTo(4);
    assertThat(report.get("num_zero_variance_groups").asInt()).isEqualTo(1);
    assertThat(report.get("zero_variance_share").asDouble()).isEqualTo(0.25);
  }

  @Test
  void validationNamesBadRowsByLineAndProfilesTheGoodOnes() throws Exception {
    Path good = Fixtures.projectRoot().resolve("environments/example_single_tool_call/data/example.jsonl");
    Path copy = dir.resolve("example.jsonl");
    Files.copy(good, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    DatasetValidator.Report ok = DatasetValidator.validate(copy, null);
    assertThat(ok.problems()).isEmpty();
    JsonNode profile = Json.parse(Files.readString(ok.metrics()));
    assertThat(profile.get("Number of examples").asInt()).isEqualTo(5);
    assertThat(profile.at("/Number of tools/Average").asDouble()).isEqualTo(1.0);
    assertThat(profile.at("/Number of turns/Max").asDouble()).isEqualTo(1.0);

    Path bad = dir.resolve("bad.jsonl");
    Files.write(bad, List.of(Files.readAllLines(good).getFirst(), "{not json",
        "{\"responses_create_params\": {\"input\": 3}}",
        "{\"responses_create_params\": {\"input\": \"q\", \"tools\": [{\"type\": \"function\", \"name\": \"bad name\"}]}}",
        "{\"responses_create_params\": {\"input\": \"q\", \"tools\": [{\"type\": \"function\", \"name\": \"f\", "
            + "\"parameters\": {\"type\": \"object\", \"properties\": {}, \"required\": [\"x\"]}}]}}",
        "{\"responses_create_params\": {\"input\": \"q\"}, \"agent_ref\": {\"name\": \"ghost\"}}"));
    DatasetValidator.Report report = DatasetValidator.validate(bad, Set.of("weather_agent"));
    assertThat(report.problems()).extracting(DatasetValidator.Problem::line).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(report.problems().get(0).message()).contains("agent_ref: missing");
    assertThat(report.problems().get(1).message()).contains("not valid JSON");
    assertThat(report.problems().get(2).message()).startsWith("responses_create_params.input");
    assertThat(report.problems().get(3).message()).startsWith("responses_create_params.tools.0.name");
    assertThat(report.problems().get(4).message()).contains("requires 'x'");
    assertThat(report.problems().get(5).message()).contains("no agent named ghost");
  }

  @Test
  void collationRoutesShufflesAndSplitsDeterministically() throws Exception {
    var config = new dev.gym4j.config.ConfigLoader(List.of(Fixtures.projectRoot()), Map.of()).load(List.of(
        "+config_paths=[environments/example_single_tool_call/config.yaml]", "+policy_model.responses_api_models."
            + "openai_model={openai_base_url: x, openai_api_key: x, openai_model: x}",
        "++example_single_tool_call_simple_agent.responses_api_agents.simple_agent.datasets.0.num_repeats=4"));
    java.util.function.Function<String, Path> locate = path -> Fixtures.projectRoot().resolve(path);
    var split = new java.util.LinkedHashMap<String, Double>();
    split.put("train", 0.75);
    split.put("validation", 0.25);
    Collator.Result first = Collator.collate(config, Set.of("example"), dir.resolve("collated/train.jsonl"),
        split, 7, locate);
    assertThat(first.files().values()).containsExactly(15, 5);
    List<JsonNode> train = Json.readLines(dir.resolve("collated/train.jsonl"));
    assertThat(train).allSatisfy(row -> assertThat(row.at("/agent_ref/name").asString())
        .isEqualTo("example_single_tool_call_simple_agent"));
    String before = Files.readString(dir.resolve("collated/train.jsonl"));
    Collator.collate(config, Set.of("example"), dir.resolve("collated/train.jsonl"),
        split, 7, locate);
    assertThat(Files.readString(dir.resolve("collated/train.jsonl"))).isEqualTo(before);
    assertThat(Files.exists(dir.resolve("collated/train_metrics.json"))).isTrue();
  }
}
