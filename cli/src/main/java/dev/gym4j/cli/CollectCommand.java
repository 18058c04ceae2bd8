package dev.gym4j.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        "+limit= +resume_from_cache= and +responses_create_params.<field>= overrides work too."})
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

  @Option(names = "--resume", description = "Keep the rollouts already in the output and run the rest.")
  boolean resume;

  @Option(names = "--max-attempts", description = "Tries per rollout before it is given up (default 3).")
  Integer maxAttempts;

  @Option(names = "--head", paramLabel = "URL", description = "The deployment's head server (default: head_server "
      + "from the config, http://127.0.0.1:11000).")
  URI head;

  @Parameters(paramLabel = "OVERRIDE", description = "NeMo Gym overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Override
  public Integer call() {
    GlobalConfig config = ConfigLoader.standard().load(overrides);
    CollectOptions options = new CollectOptions(
        agent != null ? agent : text(config, "agent_name"),
        path(input, config, "input_jsonl_fpath", "--input"),
        path(output, config, "output_jsonl_fpath", "--output"),
        repeats != null ? repeats : number(config, "num_repeats", 1),
        parallel != null ? parallel : number(config, "num_samples_in_parallel", 64),
        limit != null ? limit : number(config, "limit", 0),
        resume || config.get("resume_from_cache").map(JsonNode::asBoolean).orElse(false),
        config.get("responses_create_params").filter(JsonNode::isObject).map(n -> (ObjectNode) n).orElse(Json.object()),
        maxAttempts != null ? maxAttempts : number(config, "max_rollout_attempts", CollectOptions.DEFAULT_MAX_ATTEMPTS));
    URI headUrl = head != null ? head : URI.create("http://" + config.headHost() + ":" + config.headPort());
    preflight(headUrl, options.agent());
    ClientSettings settings = ClientSettings.from(config).withRequestTimeout(RUN_TIMEOUT);
    try (ServerClient client = new ServerClient(new HeadDirectory(headUrl), settings)) {
      RolloutCollector.Summary summary = new RolloutCollector(options, client, System.err,
          Terminal.isInteractive()).collect();
      Reports.printSummary(spec.commandLine().getOut(), summary, options);
      return summary.failed() > 0 ? 1 : 0;
    }
  }

  /**
   * The head server answers and knows the agent, and the agent answers: checked once, so a deployment that
   * is not there stops the command with one line instead of failing every rollout.
   */
  private static void preflight(URI headUrl, String agent) {
    Map<String, URI> instances = Preflight.head(headUrl);
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
