package dev.gym4j.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import dev.gym4j.collect.data.Collator;
import dev.gym4j.collect.data.DatasetValidator;
import dev.gym4j.collect.data.Exporter;
import dev.gym4j.collect.data.RolloutFilter;
import dev.gym4j.collect.data.Transcript;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code gym4j data}: dataset checks, collation and training-data exports. */
@Command(name = "data", mixinStandardHelpOptions = true,
    description = "Validate and collate datasets; export rollouts as SFT, DPO or RL training data.",
    subcommands = {DataCommand.Validate.class, DataCommand.Collate.class, DataCommand.Export.class,
        RenderCommand.class})
final class DataCommand {

  @Command(name = "validate", mixinStandardHelpOptions = true,
      description = {"Check every row of NeMo Gym datasets and profile each one as NeMo Gym does (<data>_metrics.json).",
          "agent_ref must name an agent of --config, or else of the environment's config.yaml when the file is in",
          "an environment's data/ folder. A profile already there is compared, never changed (exit 1 when it differs),",
          "unless --overwrite-metrics; one that is missing is written."})
  static final class Validate implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*")
    List<Path> files;

    @Option(names = "--config", paramLabel = "OVERRIDE", description = "Config overrides (e.g. "
        + "+config_paths=[...]) whose agents agent_ref may name.")
    List<String> config;

    @Option(names = "--overwrite-metrics", description = "Replace a profile that differs from the one computed now "
        + "(NeMo Gym's overwrite_metrics_conflicts).")
    boolean overwriteMetrics;

    @Override
    public Integer call() {
      Set<String> given = config == null ? null : agents(ConfigLoader.standard().load(config));
      var out = spec.commandLine().getOut();
      int bad = 0;
      for (Path file : files) {
        Optional<Map<String, JsonNode>> environment = given == null ? environmentAgents(file) : Optional.empty();
        Set<String> agents = given != null ? given : environment.map(a -> Set.copyOf(a.keySet())).orElse(null);
        DatasetValidator.Report report = DatasetValidator.validate(file, agents, given != null,
            overwriteMetrics ? DatasetValidator.MetricsFile.OVERWRITE : DatasetValidator.MetricsFile.WRITE_IF_ABSENT,
            environment.flatMap(a -> datasetEntry(a, file)).orElse(null));
        report.problems().forEach(out::println);
        bad += report.problems().size();
        out.printf("%s: %d rows, %d bad%s; profile %s: %s%n", file, report.rows(), report.problems().size(),
            agents == null ? "" : " (agent_ref checked against " + (given != null ? "--config" : "the environment's "
                + "config.yaml") + ")", report.metricsStatus(), report.metrics());
        if (!report.differences().isEmpty()) {
          report.differences().forEach(d -> out.println("  " + d));
          out.println("  the profile was left as it is: check the data, or replace it with --overwrite-metrics");
          bad++;
        }
      }
      out.flush();
      return bad == 0 ? 0 : 1;
    }
  }

  @Command(name = "collate", mixinStandardHelpOptions = true,
      description = {"Gather the datasets of the config's agents into one shuffled training file with agent_ref "
          + "on every row (NeMo Gym's prepare_data).", "With --split, each part goes to <name>.jsonl beside --output.",
          "With --output-dir instead, as NeMo Gym's `gym dataset collate` does: one <type>.jsonl per dataset type, in "
              + "config order, with its <type>_metrics.json (+overwrite_metrics_conflicts=true replaces one that "
              + "differs)."})
  static final class Collate implements Callable<Integer> {
    /** Under results/, which git ignores: a README command run in a clone leaves no untracked file. */
    static final String DEFAULT_COLLATED = "results/data/train.jsonl";

    @Spec
    CommandSpec spec;

    @Option(names = "--output", description = "One shuffled file (default " + DEFAULT_COLLATED + " when "
        + "--output-dir is not given either).")
    Path output;

    @Option(names = "--output-dir", paramLabel = "DIR", description = "One file per dataset type (NeMo Gym's "
        + "output_dirpath).")
    Path outputDir;

    @Option(names = "--types", split = ",", defaultValue = "train,validation",
        description = "Dataset types to gather (default ${DEFAULT-VALUE}; also example, benchmark).")
    Set<String> types;

    @Option(names = "--split", split = ",", paramLabel = "NAME=FRACTION", description = "e.g. train=0.95,validation=0.05")
    Map<String, Double> split = new LinkedHashMap<>();

    @Option(names = "--seed", defaultValue = "0", description = "Shuffle seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Parameters(paramLabel = "OVERRIDE", description = "Config overrides: +config_paths=[...].")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() {
      if (output != null && outputDir != null) {
        throw new ConfigException("give --output FILE (one shuffled file) or --output-dir DIR (one file per dataset "
            + "type), not both");
      }
      if (output == null && outputDir == null) {
        output = Path.of(DEFAULT_COLLATED);
      }
      if (outputDir != null && !split.isEmpty()) {
        throw new ConfigException("--split divides the one file of --output; --output-dir writes a file per type");
      }
      GlobalConfig config = ConfigLoader.standard().load(overrides);
      Collator.Result result = outputDir != null
          ? Collator.collateByType(config, List.of("example", "train", "validation", "benchmark").stream()
              .filter(types::contains).toList(), outputDir, config.get("overwrite_metrics_conflicts")
              .map(JsonNode::asBoolean).orElse(false), InstallPaths::locate)
          : Collator.collate(config, types, output, split, seed, InstallPaths::locate);
      var out = spec.commandLine().getOut();
      result.files().forEach((file, rows) -> out.printf("%s: %d rows%n", file, rows));
      out.flush();
      return 0;
    }
  }

  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Turn a rollouts file into training data: sft-messages, dpo-pairs, rl-scored or verl-jsonl.")
  static final class Export implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ROLLOUTS")
    Path rollouts;

    @Option(names = "--format", required = true, description = "sft-messages, dpo-pairs, rl-scored or verl-jsonl.")
    String format;

    @Option(names = "--output", paramLabel = "JSONL",
        description = "The training data (default results/<rollouts' name>_<format>.jsonl).")
    Path output;

    @Option(names = "--min-reward")
    Double minReward;

    @Option(names = "--max-reward")
    Double maxReward;

    @Option(names = "--drop-failed", description = "Drop rows without a reward or marked as failures.")
    boolean dropFailed;

    @Option(names = "--drop-truncated", description = "Drop rollouts whose response is incomplete.")
    boolean dropTruncated;

    @Option(names = "--agent", description = "Only this agent's rollouts.")
    String agent;

    @Option(names = "--min-quality-difference", defaultValue = "0.1",
        description = "dpo-pairs: the smallest reward gap of a pair (default ${DEFAULT-VALUE}).")
    double minQualityDifference;

    @Option(names = "--all-pairs", description = "dpo-pairs: every pair far enough apart, not only best against worst.")
    boolean allPairs;

    @Option(names = "--with-advantages", description = "Add group mean, std and GRPO advantage to each rollout.")
    boolean withAdvantages;

    @Option(names = "--keep-developer-role", description = "Keep the developer role in chat messages; by default "
        + "it is written as system, which every chat template knows.")
    boolean keepDeveloperRole;

    @Option(names = "--reasoning", defaultValue = "drop",
        description = "Model reasoning in assistant messages: drop, think (inline <think>) or field (reasoning_content).")
    String reasoning;

    @Override
    public Integer call() throws Exception {
      Exporter.Options options = new Exporter.Options(Exporter.Format.parse(format),
          new RolloutFilter(minReward, maxReward, dropFailed, dropTruncated, agent), minQualityDifference,
          allPairs ? Exporter.Pairing.ALL : Exporter.Pairing.BEST_VS_WORST, withAdvantages,
          Transcript.Reasoning.valueOf(reasoning.toUpperCase(java.util.Locale.ROOT)), keepDeveloperRole);
      List<JsonNode> rows = Json.readLines(rollouts);
      if (output == null) {
        output = Path.of("results", rollouts.getFileName().toString().replaceFirst("\\.jsonl?$", "") + "_"
            + format.toLowerCase(java.util.Locale.ROOT) + ".jsonl");
      }
      List<ObjectNode> exported = Exporter.export(rows, options);
      java.nio.file.Files.createDirectories(output.toAbsolutePath().getParent());
      java.nio.file.Files.write(output, exported.stream().map(Json::write).collect(Collectors.toList()));
      spec.commandLine().getOut().printf("%d rollouts read, %d rows written to %s (%s)%s%n", rows.size(),
          exported.size(), output, format, exported.isEmpty() ? ": " + Exporter.whyEmpty(rows, options) : "");
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  /** The agents of the environment whose data/ folder holds the file, if it is one: name → settings. */
  static Optional<Map<String, JsonNode>> environmentAgents(Path file) {
    Path data = file.toAbsolutePath().normalize().getParent();
    Path config = data == null || data.getParent() == null ? null : data.getParent().resolve("config.yaml");
    if (config == null || !data.getFileName().toString().equals("data") || !Files.isRegularFile(config)) {
      return Optional.empty();
    }
    return Optional.of(agentsOf(config));
  }

  /**
   * The agent blocks of one config file, read as written: its model server is not configured there, so it is
   * not loaded as a deployment.
   */
  static Map<String, JsonNode> agentsOf(Path config) {
    Map<String, JsonNode> agents = new LinkedHashMap<>();
    for (var instance : dev.gym4j.config.Yaml.read(config).properties()) {
      JsonNode kind = instance.getValue().path(ServerKind.AGENT.key());
      if (kind.isObject() && kind.size() == 1) {
        agents.put(instance.getKey(), kind.properties().iterator().next().getValue());
      }
    }
    return agents;
  }

  /** The agent dataset entry whose jsonl_fpath is this file. */
  static Optional<JsonNode> datasetEntry(Map<String, JsonNode> agents, Path file) {
    for (JsonNode agent : agents.values()) {
      for (JsonNode dataset : agent.path("datasets")) {
        Path named = Path.of(dataset.path("jsonl_fpath").asString(""));
        if (named.getFileName() != null && named.getFileName().equals(file.getFileName())) {
          return Optional.of(dataset);
        }
      }
    }
    return Optional.empty();
  }

  static Set<String> agents(GlobalConfig config) {
    Set<String> agents = new LinkedHashSet<>();
    for (ServerInstance instance : config.instances()) {
      if (instance.kind() == ServerKind.AGENT) {
        agents.add(instance.name());
      }
    }
    if (agents.isEmpty()) {
      throw new ConfigException("the config has no agents for agent_ref to name");
    }
    return agents;
  }
}
