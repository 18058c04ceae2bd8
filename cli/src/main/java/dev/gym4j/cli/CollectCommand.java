package dev.gym4j.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.collect.CollectOptions;
import dev.gym4j.collect.RolloutCollector;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.head.HeadDirectory;
import dev.gym4j.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code gym4j collect}: NeMo Gym's {@code ng_collect_rollouts}, against a running deployment. */
@Command(name = "collect", mixinStandardHelpOptions = true,
    description = {"Collect scored rollouts from a running deployment (NeMo Gym's ng_collect_rollouts).",
        "NeMo Gym's +agent_name= +input_jsonl_fpath= +output_jsonl_fpath= +num_repeats= +num_samples_in_parallel=",
        "+limit= +resume_from_cache= +num_repeats_add_seed= +prompt_config= +disable_aggregation= and +responses_create_params.<field>=",
        "overrides work too; +num_repeats= also takes NeMo Gym's per-agent form, +num_repeats={a: 4, _default: 1}.",
        "Exits 1 when any rollout of the input is missing from the output, saying how many and why.",
        "With --shard I/N it runs only the tasks whose index modulo N is I; gym4j collect merge joins the shards."},
    subcommands = CollectMergeCommand.class)
final class CollectCommand implements Callable<Integer> {
  /** How long the collector waits for one /run: longer than simple_agent's default rollout deadline. */
  static final Duration RUN_TIMEOUT = Duration.ofMinutes(65);

  @Spec
  CommandSpec spec;

  @Option(names = {"--agent", "-a"}, description = "The agent for rows without an agent_ref.")
  String agent;

  @Option(names = {"--input", "-i"}, description = "The task rows (NeMo Gym JSONL).")
  Path input;

  @Option(names = {"--output", "-o"}, description = "The rollouts file; failures, materialized inputs and metrics go beside it.")
  Path output;

  @Option(names = "--repeats", description = "Rollouts per task (default 1).")
  Integer repeats;

  @Option(names = "--parallel", description = "Rollouts in flight at once (default 64).")
  Integer parallel;

  @Option(names = "--limit", description = "Only the first N input rows.")
  Integer limit;

  @Option(names = "--resume", description = "Keep the rollouts already in the output and run the rest, failed ones "
      + "included.")
  boolean resume;

  @Option(names = "--skip-failed", description = "With --resume, leave the rollouts that used all their attempts in "
      + "an earlier run (NeMo Gym's resume).")
  boolean skipFailed;

  @Option(names = "--wait-for-servers", paramLabel = "SECONDS", description = "How long a rollout waits for an agent "
      + "or head server it cannot reach to come back, without using attempts (default 600).")
  Long waitForServers;

  @Option(names = "--max-attempts", description = "Tries per rollout before it is given up (default 3).")
  Integer maxAttempts;

  @Option(names = "--disable-aggregation", description = "Compute no aggregate metrics and write no "
      + "<output>_aggregate_metrics.json, for shards whose metrics `gym4j metrics` computes over them all later "
      + "(NeMo Gym's +disable_aggregation=true).")
  boolean disableAggregation;

  @Option(names = "--head", paramLabel = "URL", description = "The deployment's head server (default: head_server "
      + "from the config, http://127.0.0.1:11000).")
  URI head;

  @Option(names = "--shard", paramLabel = "I/N", description = "Only the tasks whose index modulo N is I (0-based), "
      + "every rollout of each; N runs with I = 0..N-1 collect everything once. Task indexes are those of the whole "
      + "input. Default: all tasks.")
  String shard;

  @Parameters(paramLabel = "OVERRIDE", description = "NeMo Gym overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Override
  public Integer call() {
    GlobalConfig config = ConfigLoader.standard().load(overrides);
    JsonNode numRepeats = config.get("num_repeats").orElse(null);
    CollectOptions.Retries retries = CollectOptions.Retries.defaults();
    if (waitForServers != null) {
      retries = new CollectOptions.Retries(retries.initialBackoff(), retries.maxBackoff(), retries.deadline(),
          Duration.ofSeconds(waitForServers));
    }
    CollectOptions options = new CollectOptions(
        agent != null ? agent : text(config, "agent_name"),
        path(input, config, "input_jsonl_fpath", "--input"),
        path(output, config, "output_jsonl_fpath", "--output"),
        repeats != null ? repeats : number(config, "num_repeats", 1),
        parallel != null ? parallel : number(config, "num_samples_in_parallel", 64),
        limit != null ? limit : number(config, "limit", 0),
        resume || config.get("resume_from_cache").map(JsonNode::asBoolean).orElse(false),
        config.get("responses_create_params").filter(JsonNode::isObject).map(n -> (ObjectNode) n).orElse(Json.object()),
        maxAttempts != null ? maxAttempts : number(config, "max_rollout_attempts", CollectOptions.DEFAULT_MAX_ATTEMPTS),
        repeats == null ? repeatsByAgent(numRepeats) : Map.of(),
        config.get("num_repeats_add_seed").map(JsonNode::asBoolean).orElse(false),
        Optional.ofNullable(text(config, "prompt_config")).map(InstallPaths::locate).orElse(null),
        !skipFailed, retries, !disableAggregation && !config.get("disable_aggregation").map(JsonNode::asBoolean)
            .orElse(false), CollectOptions.Shard.ALL);
    if (shard != null) {
      try {
        options = options.withShard(CollectOptions.Shard.parse(shard));
      } catch (IllegalArgumentException e) {
        throw new ConfigException("--shard: " + e.getMessage());
      }
    }
    URI headUrl = head != null ? head : URI.create("http://" + config.headHost() + ":" + config.headPort());
    preflight(headUrl, options.agent());
    ClientSettings settings = ClientSettings.from(config).withRequestTimeout(RUN_TIMEOUT);
    try (ServerClient client = new ServerClient(new HeadDirectory(headUrl), settings)) {
      RolloutCollector.Summary summary = new RolloutCollector(options, client, System.err,
          Terminal.isInteractive()).collect();
      Reports.printSummary(spec.commandLine().getOut(), summary, options);
      return summary.missing() > 0 ? 1 : 0;
    }
  }

  /**
   * The head server answers and knows the agent, the agent answers, and every model server reaches its
   * upstream: checked once, so a deployment that
   * is not there stops the command with one line instead of failing every rollout.
   */
  private static void preflight(URI headUrl, String agent) {
    Preflight.Instances listed = Preflight.head(headUrl);
    Preflight.models(listed);
    Map<String, URI> instances = listed.urls();
    if (agent == null) {
      return;
    }
    URI agentUrl = instances.get(agent);
    if (agentUrl == null) {
      throw new ConfigException("no agent named " + agent + " at the head server " + headUrl + "; running there: "
          + (instances.isEmpty() ? "nothing" : String.join(", ", instances.keySet())));
    }
    Preflight.agent(agentUrl, agent);
  }

  /** NeMo Gym's dict form of num_repeats: a count per agent name, {@code _default} for the rest. */
  private static Map<String, Integer> repeatsByAgent(JsonNode numRepeats) {
    if (numRepeats == null || !numRepeats.isObject()) {
      if (numRepeats != null && !numRepeats.isNull() && !numRepeats.isIntegralNumber()) {
        throw new ConfigException("num_repeats must be a whole number or a map of agent name to number, got "
            + numRepeats);
      }
      return Map.of();
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (var entry : numRepeats.properties()) {
      if (!entry.getValue().isIntegralNumber() || entry.getValue().asInt() < 1) {
        throw new ConfigException("num_repeats." + entry.getKey() + " must be a whole number of at least 1, got "
            + entry.getValue());
      }
      counts.put(entry.getKey(), entry.getValue().asInt());
    }
    return counts;
  }

  private static String text(GlobalConfig config, String key) {
    return config.get(key).filter(JsonNode::isString).map(JsonNode::asString).orElse(null);
  }

  private static int number(GlobalConfig config, String key, int fallback) {
    return config.get(key).filter(JsonNode::isNumber).map(JsonNode::asInt).orElse(fallback);
  }

  private static Path path(Path flag, GlobalConfig config, String key, String option) {
    if (flag != null) {
      return flag;
    }
    String value = text(config, key);
    if (value == null) {
      throw new ConfigException("give " + option + " (or +" + key + "=)");
    }
    return Path.of(value);
  }
}
