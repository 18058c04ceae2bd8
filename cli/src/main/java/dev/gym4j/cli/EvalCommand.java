package dev.gym4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.collect.CollectOptions;
import dev.gym4j.collect.RolloutCollector;
import dev.gym4j.collect.data.Collator;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.ServerKind;
import dev.gym4j.config.ServerRef;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code gym4j eval --env NAME}: the environment, its agent and {@code policy_model} in this JVM, a
 * collection over the environment's example data, the metrics, and a clean stop.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = {"Evaluate a model on an environment and print its metrics.",
        "Starts the environment's servers, collects rollouts on its example data, prints the metrics and stops.",
        "The model comes from --model-url/--model/--api-key or from env.yaml",
        "(policy_base_url, policy_model_name, policy_api_key). Without one, replay_model answers with the turns",
        "recorded in the environment's data/example_rollouts.jsonl (tools and verify run for real).",
        "Each model call may take up to client_request_timeout_seconds (default 600) before it fails."})
final class EvalCommand implements Callable<Integer> {
  static final String NO_MODEL = "no model configured: give --model-url URL --model NAME [--api-key KEY], or set "
      + "policy_base_url, policy_model_name and policy_api_key in env.yaml";

  @Spec
  CommandSpec spec;

  @Option(names = "--env", paramLabel = "NAME", description = "The environment, e.g. example_single_tool_call.")
  String environment;

  @Option(names = "--benchmark", paramLabel = "NAME", description = "Instead of --env: a NeMo Gym benchmark (a name "
      + "from `gym4j list benchmarks`, or its folder), run on its data file with its prompt_config and num_repeats.")
  String benchmark;

  @Option(names = "--model-url", paramLabel = "URL", description = "An OpenAI-compatible base URL, e.g. http://localhost:8000/v1.")
  String modelUrl;

  @Option(names = "--model", paramLabel = "NAME", description = "The model name the endpoint serves.")
  String model;

  @Option(names = "--api-key", paramLabel = "KEY", description = "The endpoint's API key (default: policy_api_key, or EMPTY).")
  String apiKey;

  @Option(names = "--model-type", paramLabel = "TYPE", defaultValue = "openai_model",
      description = "openai_model (Responses API), vllm_model (Chat Completions, reasoning parser) or "
          + "azure_openai_model; default ${DEFAULT-VALUE}.")
  String modelType;

  @Option(names = "--limit", description = "Only the first N example rows.")
  int limit;

  @Option(names = "--repeats", defaultValue = "1", description = "Rollouts per task (default ${DEFAULT-VALUE}).")
  int repeats;

  @Option(names = "--parallel", defaultValue = "16", description = "Rollouts in flight (default ${DEFAULT-VALUE}).")
  int parallel;

  @Option(names = "--output", description = "The rollouts file (default results/<env>.jsonl).")
  Path output;

  @Option(names = "--config", paramLabel = "FILE", description = "More config files to load (repeatable); without "
      + "--env or --benchmark, they alone name the servers to run.")
  List<String> configs = new ArrayList<>();

  @Option(names = "--agent", paramLabel = "NAME", description = "The agent instance to collect with (default: the "
      + "environment's or benchmark's agent, else the config's first).")
  String agentName;

  @Option(names = "--input", paramLabel = "FILE", description = "Collect on these task rows instead of the "
      + "environment's example data or the benchmark's data file.")
  Path input;

  @Option(names = "--split", paramLabel = "TYPE", description = "Collect on the config's train, validation or "
      + "benchmark datasets, collated as NeMo Gym's `gym eval run` does into "
      + "<output without .jsonl>/preprocessed_datasets/<TYPE>.jsonl.")
  String split;

  @Option(names = "--prompt-config", paramLabel = "FILE", description = "A NeMo Gym prompt_config that builds each "
      + "row's input (default: the benchmark's own).")
  String promptConfig;

  @Option(names = "--resume", description = "Keep the rollouts already in the output and run the rest.")
  boolean resume;

  @Option(names = "--disable-aggregation", description = "Compute no aggregate metrics and write no "
      + "<output>_aggregate_metrics.json (NeMo Gym's disable_aggregation, for shards).")
  boolean disableAggregation;

  @Parameters(paramLabel = "OVERRIDE", description = "Config overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Override
  public Integer call() {
    ConfigLoader loader = ConfigLoader.standard();
    Benchmark bench = benchmark == null ? null : Benchmark.resolve(benchmark);
    if (bench != null && environment != null || bench == null && environment == null && configs.isEmpty()) {
      throw new ConfigException("give --env NAME or --benchmark NAME (one of them), or --config FILE");
    }
    if (input != null && split != null) {
      throw new ConfigException("give --input FILE or --split TYPE, not both");
    }
    if (split != null && !List.of("train", "validation", "benchmark").contains(split)) {
      throw new ConfigException("--split is train, validation or benchmark (NeMo Gym's split), not " + split);
    }
    // the data file first: without it nothing else is worth starting
    Path benchData = bench == null || input != null ? null : bench.requireData();
    if (bench != null) {
      environment = bench.environment().orElse(bench.name());
    }
    List<String> paths = new ArrayList<>();
    if (bench != null || environment != null) {
      paths.add(bench != null ? bench.config().toString() : "environments/" + environment + "/config.yaml");
    }
    paths.addAll(configs);
    String envConfig = String.join(",", paths);
    List<String> arguments = new ArrayList<>(overrides);
    arguments.add("++head_server.port=0");
    // what the model choice reads is top-level (policy_*); a dotted override such as pointing an environment's
    // judge_model_server elsewhere names part of a server block, which is whole only with the files loaded below
    GlobalConfig local = loader.load(arguments.stream().filter(EvalCommand::isTopLevel).toList());
    boolean hasUrl = modelUrl != null || local.get("policy_base_url").filter(JsonNode::isString).isPresent();
    boolean hasModel = model != null || local.get("policy_model_name").filter(JsonNode::isString).isPresent();
    boolean replay = !hasUrl && !hasModel;
    if (!replay && (!hasUrl || !hasModel)) {
      throw new ConfigException(NO_MODEL);
    }
    if (replay && (environment == null || input != null || split != null)) {
      throw new ConfigException(NO_MODEL + " (without one, replay_model replays an environment's recorded example "
          + "rollouts: --input, --split and a --config without --env need a model)");
    }
    Path recordings = replay ? RecordedReplay.locate(environment, noEnvironment()) : null;
    var out = spec.commandLine().getOut();
    out.println(modelChoice(replay, local));
    out.flush();
    if (replay) {
      arguments.add("+config_paths=[models/configs/replay_model.yaml," + envConfig + "]");
      arguments.add("++policy_recordings=[" + recordings + "]");
    } else {
      arguments.add("+config_paths=[models/configs/" + modelType + ".yaml," + envConfig + "]");
      addModelArguments(arguments, local);
    }
    GlobalConfig config = loadEnvironment(loader, arguments);
    ServerInstance agent = agentName != null ? agentNamed(config, agentName)
        : bench != null ? config.require(bench.agent()) : agentOf(config);
    if (environment == null) {
      environment = ServerRef.from(agent.config().get("resources_server")).map(ServerRef::name).orElse(agent.name());
    }
    Path rollouts = output != null ? output
        : Path.of("results", (bench != null ? bench.name().replace('/', '_') : environment) + ".jsonl");
    Path input = this.input != null ? this.input : split != null ? collated(config, rollouts)
        : bench != null ? benchData : exampleData(config, agent);
    RecordedReplay recorded = null;
    if (replay && bench == null) {
      recorded = RecordedReplay.of(recordings, input);
      input = recorded.writeTasks(beside(rollouts, "replay_tasks.jsonl"));
      out.println(recorded.describe());
    } else if (!replay) {
      Preflight.modelEndpoint(text(config, "policy_base_url"), text(config, "policy_api_key"));
    }
    ObjectNode params = config.get("responses_create_params").filter(JsonNode::isObject).map(n -> (ObjectNode) n)
        .orElse(null);
    // collated rows are already repeated num_repeats times, as NeMo Gym's collate writes them
    int perTask = bench != null && split == null && !spec.commandLine().getParseResult().hasMatchedOption("--repeats")
        ? bench.numRepeats() : repeats;
    CollectOptions options = new CollectOptions(agent.name(), input, rollouts, perTask, parallel, limit, false, params,
        CollectOptions.DEFAULT_MAX_ATTEMPTS).withAggregation(!disableAggregation).withResume(resume, true);
    if (promptConfig != null) {
      options = options.withPromptConfig(InstallPaths.locate(promptConfig));
    } else if (bench != null && split == null && bench.promptConfig().isPresent()) {
      // a collated split has the benchmark's prompt applied already
      options = options.withPromptConfig(InstallPaths.locate(bench.promptConfig().get()));
    }
    try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of())) {
      out.printf("%s: %d servers ready in %.2f s; model %s%n", bench != null ? "benchmark " + bench.name()
          : environment, deployment.servers().size() + 1,
          Deployment.sinceJvmStart().toMillis() / 1000.0, replay ? "replay_model (recorded turns)"
              : text(config, "policy_model_name") + " at " + text(config, "policy_base_url"));
      out.flush();
      ClientSettings settings = ClientSettings.from(config).withRequestTimeout(CollectCommand.RUN_TIMEOUT);
      try (ServerClient client = new ServerClient(deployment.directory(), settings)) {
        Preflight.agent(deployment.directory().find(agent.name()).orElseThrow(), agent.name());
        RolloutCollector.Summary summary = new RolloutCollector(options, client, System.err,
            Terminal.isInteractive()).collect();
        Reports.printSummary(out, summary, options);
        if (recorded != null) {
          out.println(recorded.compare(rollouts));
          out.flush();
        }
        return summary.failed() > 0 ? 1 : 0;
      }
    }
  }

  /**
   * NeMo Gym's {@code e2e_rollout_collection}: the config's datasets of the {@code --split} type collated (as
   * {@code gym dataset collate} does) into {@code <output without .jsonl>/preprocessed_datasets/}, and that file.
   */
  private Path collated(GlobalConfig config, Path rollouts) {
    String name = rollouts.getFileName().toString();
    Path dir = rollouts.resolveSibling(name.endsWith(".jsonl") ? name.substring(0, name.length() - 6) : name)
        .resolve("preprocessed_datasets");
    boolean overwrite = config.get("overwrite_metrics_conflicts").map(JsonNode::asBoolean).orElse(false);
    Collator.collateByType(config, List.of(split), dir, overwrite, InstallPaths::locate);
    spec.commandLine().getOut().println("collated the " + split + " datasets into " + dir.resolve(split + ".jsonl"));
    return dir.resolve(split + ".jsonl");
  }

  private static ServerInstance agentNamed(GlobalConfig config, String name) {
    ServerInstance agent = config.instance(name).filter(i -> i.kind() == ServerKind.AGENT).orElse(null);
    if (agent == null) {
      throw new ConfigException("--agent " + name + " is no agent of this config; its agents: " + String.join(", ",
          config.instances().stream().filter(i -> i.kind() == ServerKind.AGENT).map(ServerInstance::name).toList()));
    }
    return agent;
  }

  /** {@code +key=value}, {@code ++key=value} or {@code ~key} with an undotted key. */
  private static boolean isTopLevel(String override) {
    String key = override.replaceFirst("^[+~]+", "");
    int equals = key.indexOf('=');
    return !(equals < 0 ? key : key.substring(0, equals)).contains(".");
  }

  private void addModelArguments(List<String> arguments, GlobalConfig local) {
    if (modelUrl != null) {
      Preflight.baseUrl("--model-url", modelUrl);
      arguments.add("++policy_base_url=" + modelUrl);
    } else {
      Preflight.baseUrl("policy_base_url", text(local, "policy_base_url"));
    }
    if (model != null) {
      arguments.add("++policy_model_name=" + model);
    }
    if (apiKey != null) {
      arguments.add("++policy_api_key=" + apiKey);
    } else if (local.get("policy_api_key").isEmpty()) {
      arguments.add("++policy_api_key=EMPTY");
    }
  }

  /**
   * The first line of every eval: which model answers and why, so an {@code env.yaml} in the working directory
   * never switches from replay to a live model unseen.
   */
  private String modelChoice(boolean replay, GlobalConfig local) {
    if (replay) {
      return "model: replay_model, because no model is configured (no --model-url, and no policy_base_url in "
          + ConfigLoader.ENV_FILE + " or the overrides)";
    }
    String url = modelUrl != null ? modelUrl : text(local, "policy_base_url");
    String name = model != null ? model : text(local, "policy_model_name");
    String why;
    if (modelUrl != null) {
      why = "--model-url";
    } else if (ConfigLoader.ENV_FILE.equals(local.origins().of("policy_base_url"))) {
      why = ConfigLoader.ENV_FILE + " at " + Path.of(ConfigLoader.ENV_FILE).toAbsolutePath()
          + " (policy_base_url; --model-url overrides it)";
    } else {
      why = "the override of policy_base_url on the command line";
    }
    return "model: " + name + " at " + url + ", live, from " + why;
  }

  private static String text(GlobalConfig config, String key) {
    return config.get(key).map(JsonNode::asString).orElse("?");
  }

  /** {@code results/x.jsonl} → {@code results/x_<suffix>}. */
  private static Path beside(Path output, String suffix) {
    String name = output.getFileName().toString();
    String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
    return output.resolveSibling(stem + "_" + suffix);
  }

  private GlobalConfig loadEnvironment(ConfigLoader loader, List<String> arguments) {
    try {
      return loader.load(arguments);
    } catch (ConfigException e) {
      if (e.getMessage().startsWith("config file not found: environments/")) {
        throw noEnvironment();
      }
      throw e;
    }
  }

  private ConfigException noEnvironment() {
    return unknownEnvironment(environment);
  }

  /** One line: no such environment, the closest names, and where the list is. */
  static ConfigException unknownEnvironment(String name) {
    return new ConfigException("no environment named " + name
        + Spelling.didYouMean(name, ListCommand.environments().keySet()) + " (gym4j list environments lists them)");
  }

  /** The environment's agent: the first agent instance whose resources_server is in this config. */
  private static ServerInstance agentOf(GlobalConfig config) {
    return config.instances().stream().filter(instance -> instance.kind() == ServerKind.AGENT)
        .filter(instance -> ServerRef.from(instance.config().get("resources_server")).isPresent())
        .findFirst().orElseThrow(() -> new ConfigException("the environment's config has no agent (a "
            + "responses_api_agents block such as simple_agent) to run it"));
  }

  /** The agent's example dataset, or the environment's data/example.jsonl. */
  private Path exampleData(GlobalConfig config, ServerInstance agent) {
    for (JsonNode dataset : agent.config().path("datasets")) {
      if ("example".equals(dataset.path("type").asString()) && dataset.path("jsonl_fpath").isString()) {
        return InstallPaths.locate(dataset.get("jsonl_fpath").asString());
      }
    }
    return InstallPaths.locate("environments/" + environment + "/data/example.jsonl");
  }



}
