package dev.gym4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.gym4j.collect.data.RewardProfile;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import tools.jackson.databind.JsonNode;

/** {@code gym4j profile}: NeMo Gym's {@code gym eval profile} ({@code ng_reward_profile}). */
@Command(name = "profile", mixinStandardHelpOptions = true,
    description = {"Per-task pass rates and reward statistics of a collection, for curriculum filtering (NeMo Gym's "
        + "gym eval profile): writes <rollouts>_reward_profiling.jsonl (one line per task: mean/std/min/max/median of "
        + "reward and every numeric field, the task's row, its rollouts) and <rollouts>_agent_metrics.json.",
        "NeMo Gym's +materialized_inputs_jsonl_fpath= +rollouts_jsonl_fpath= +allow_partial_rollouts= work too."})
final class ProfileCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--inputs", paramLabel = "JSONL", description = "The materialized inputs of the collection "
      + "(<output>_materialized_inputs.jsonl).")
  Path inputs;

  @Option(names = "--rollouts", paramLabel = "JSONL", description = "The rollouts.")
  Path rollouts;

  @Option(names = "--allow-partial", description = "Profile the rollouts there are when some are missing.")
  boolean allowPartial;

  @Parameters(paramLabel = "OVERRIDE", description = "NeMo Gym overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    GlobalConfig config = ConfigLoader.standard().load(overrides);
    Path in = inputs != null ? inputs : path(config, "materialized_inputs_jsonl_fpath", "--inputs");
    Path out = rollouts != null ? rollouts : path(config, "rollouts_jsonl_fpath", "--rollouts");
    for (Path file : List.of(in, out)) {
      if (!Files.isRegularFile(file)) {
        throw new ConfigException("no such file: " + file);
      }
    }
    boolean partial = allowPartial || config.get("allow_partial_rollouts").map(JsonNode::asBoolean).orElse(false);
    RewardProfile profile = RewardProfile.of(Json.readLines(in), Json.readLines(out), partial);
    String stem = out.getFileName().toString().replaceFirst("\\.jsonl?$", "");
    Path tasks = out.resolveSibling(stem + "_reward_profiling.jsonl");
    Path agents = out.resolveSibling(stem + "_agent_metrics.json");
    Files.write(tasks, profile.tasks().stream().map(Json::write).toList());
    Files.writeString(agents, Json.write(Json.MAPPER.valueToTree(profile.agents())));
    JsonNode s = profile.summary();
    var printer = spec.commandLine().getOut();
    printer.printf("Reward profile completion: %d/%d rollout rows (%.2f%%)%n", s.get("completed_rollout_rows").asInt(),
        s.get("expected_rollout_rows").asInt(), s.get("reward_profile_completion_pct").asDouble());
    printer.printf("Input rows: %d total; %d complete; %d partial; %d without rollouts%n",
        s.get("total_input_rows").asInt(), s.get("complete_input_rows").asInt(), s.get("partial_input_rows").asInt(),
        s.get("missing_input_rows").asInt());
    long solved = profile.tasks().stream().filter(t -> t.path("mean/reward").asDouble(0) == 1.0).count();
    long unsolved = profile.tasks().stream().filter(t -> t.path("mean/reward").asDouble(0) == 0.0).count();
    printer.printf("Tasks always solved: %d; never solved: %d; in between: %d%n", solved, unsolved,
        profile.tasks().size() - solved - unsolved);
    printer.println("Reward profiling outputs: " + tasks);
    printer.println("Agent-level metrics: " + agents);
    printer.flush();
    return 0;
  }

  private static Path path(GlobalConfig config, String key, String flag) {
    return config.get(key).filter(JsonNode::isString).map(n -> Path.of(n.asString()))
        .orElseThrow(() -> new ConfigException("give " + flag + " (or +" + key + "=)"));
  }
}
