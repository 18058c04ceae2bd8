package dev.gym4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.ServerKind;
import dev.gym4j.config.ServerRef;
import dev.gym4j.json.Json;
import dev.gym4j.metrics.AggregateMetrics;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import tools.jackson.databind.JsonNode;

/**
 * {@code gym4j reverify}: NeMo Gym's {@code gym eval reverify}. Starts the environment in this JVM, sends each
 * recorded rollout's task row and {@code response} to its {@code /verify}, writes the new rollouts file with
 * its failures and aggregate metrics beside it, and prints how the rewards changed.
 */
@Command(name = "reverify", mixinStandardHelpOptions = true,
    description = {"Re-score a rollouts file without inference (NeMo Gym's gym eval reverify).",
        "Each rollout's task row and recorded response go to the environment's /verify; the new rollouts, "
            + "<output>_failures.jsonl and <output>_aggregate_metrics.json are written, and the reward changes "
            + "are summarised."})
final class ReverifyCommand implements Callable<Integer> {
  private static final int EXAMPLES = 3;

  @Spec
  CommandSpec spec;

  @Option(names = "--env", required = true, paramLabel = "NAME", description = "The environment that verifies.")
  String environment;

  @Option(names = "--rollouts", required = true, paramLabel = "JSONL", description = "The rollouts to re-verify.")
  Path rollouts;

  @Option(names = "--inputs", paramLabel = "JSONL", description = "The task rows (materialized inputs) the "
      + "rollouts were made from, for rollouts that lack the task's fields (default: <rollouts>_materialized_inputs"
      + ".jsonl when it exists).")
  Path inputs;

  @Option(names = {"--output", "-o"}, required = true, paramLabel = "JSONL", description = "The re-verified rollouts.")
  Path output;

  @Option(names = "--concurrency", defaultValue = "16", description = "Verify calls in flight (default ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(names = "--limit", description = "Only the first N rollouts.")
  int limit;

  @Option(names = "--resume", description = "Keep the rollouts already in the output and re-verify the rest.")
  boolean resume;

  @Option(names = "--overwrite", description = "Delete an existing output (and its failures) and start afresh.")
  boolean overwrite;

  @Option(names = "--judge-failed-only", description = "Failure recovery (NeMo Gym's judge_failed_only): copy the "
      + "rollouts of --rollouts to the output unchanged and re-verify only the rows of <rollouts>_failures.jsonl "
      + "whose judge failed (judge_error, judge_unparseable).")
  boolean judgeFailedOnly;

  @Option(names = "--disable-aggregation", description = "Compute and write no aggregate metrics (NeMo Gym's "
      + "disable_aggregation).")
  boolean disableAggregation;

  @Parameters(paramLabel = "OVERRIDE", description = "Config overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Override
  public Integer call() {
    if (!ListCommand.environments().containsKey(environment)) {
      throw EvalCommand.unknownEnvironment(environment);
    }
    Path failures = beside(output, "failures.jsonl");
    prepareOutput(failures);
    List<JsonNode> recorded = Json.readLines(rollouts);
    List<JsonNode> toVerify = recorded;
    if (judgeFailedOnly) {
      toVerify = judgeFailures(recorded);
    }
    Path inputFile = inputs != null ? inputs : beside(rollouts, "materialized_inputs.jsonl");
    List<JsonNode> tasks = inputs != null || Files.exists(inputFile) ? Json.readLines(inputFile) : List.of();
    List<String> arguments = new ArrayList<>(overrides);
    // the agents reference policy_model; replay_model over the same file stands in for it and is never asked
    arguments.addAll(List.of("++head_server.port=0", "+config_paths=[models/configs/replay_model.yaml,environments/"
        + environment + "/config.yaml]", "++policy_recordings=[" + rollouts.toAbsolutePath() + "]"));
    GlobalConfig config = ConfigLoader.standard().load(arguments);
    Map<String, String> byAgent = resourcesByAgent(config);
    String only = byAgent.values().stream().distinct().count() == 1 ? byAgent.values().iterator().next() : null;
    PrintWriter out = spec.commandLine().getOut();
    try (Deployment deployment = Deployment.start(config, Implementations.load(), Set.of());
         ServerClient client = new ServerClient(deployment.directory(), ClientSettings.from(config))) {
      var reverification = new Reverification(client, row -> byAgent.getOrDefault(
          row.path("agent_ref").path("name").asString(""), only), concurrency, row -> true);
      Reverification.Outcome outcome = reverification.run(toVerify, tasks, output, failures, limit);
      out.printf("%d rollouts: %d already done, %d re-verified, %d failed%n", outcome.total(), outcome.alreadyDone(),
          outcome.verified(), outcome.failed());
      out.println("rollouts: " + output);
      if (outcome.failed() > 0) {
        out.println("failures: " + failures);
      }
      List<JsonNode> rescored = Reverification.readTolerant(output);
      if (disableAggregation) {
        out.println("metrics:  not computed (--disable-aggregation)");
      } else {
        Path metrics = beside(output, "aggregate_metrics.json");
        Files.writeString(metrics, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(
            AggregateMetrics.compute(rescored)));
        out.println("metrics:  " + metrics);
      }
      RewardDiff.of(Reverification.keyed(new ArrayList<>(recorded)), rescored).print(out, EXAMPLES);
      out.flush();
      return outcome.failed() > 0 ? 1 : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The recovery run's rows: the judge-failed rows of {@code <rollouts>_failures.jsonl}, after the successful
   * rollouts are written to the output as they are (unless a resumed output has them already).
   */
  private List<JsonNode> judgeFailures(List<JsonNode> successes) {
    Path sidecar = beside(rollouts, "failures.jsonl");
    if (!Files.exists(sidecar)) {
      throw new ConfigException("--judge-failed-only re-verifies the judge failures of " + rollouts + ", read from "
          + sidecar + ", which does not exist");
    }
    List<JsonNode> failed = Json.readLines(sidecar);
    List<JsonNode> judged = failed.stream().filter(Reverification::judgeFailed).toList();
    spec.commandLine().getOut().printf("--judge-failed-only: %d of %d rows of %s failed in their judge; the %d "
        + "rollouts of %s are kept as they are%n", judged.size(), failed.size(), sidecar.getFileName(),
        successes.size(), rollouts.getFileName());
    java.util.Set<String> done = new java.util.HashSet<>();
    Reverification.readTolerant(output).forEach(row -> done.add(Reverification.key(row)));
    List<String> carried = Reverification.keyed(new ArrayList<>(successes)).stream()
        .filter(row -> !done.contains(Reverification.key(row))).map(Json::write).toList();
    try {
      Files.createDirectories(output.toAbsolutePath().getParent());
      Files.write(output, carried, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return judged;
  }

  /** A fresh run never appends to or clobbers an earlier one unless asked (as NeMo Gym). */
  private void prepareOutput(Path failures) {
    if (resume) {
      return;
    }
    for (Path file : List.of(output, failures)) {
      if (Files.exists(file)) {
        if (!overwrite) {
          throw new ConfigException("output file already exists: " + file + "; give --overwrite to start afresh, "
              + "or --resume to continue it");
        }
        try {
          Files.delete(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  /** Each agent's resources server, by agent name. */
  private static Map<String, String> resourcesByAgent(GlobalConfig config) {
    Map<String, String> byAgent = new HashMap<>();
    for (ServerInstance instance : config.instances()) {
      if (instance.kind() == ServerKind.AGENT) {
        ServerRef.from(instance.config().get("resources_server"))
            .ifPresent(ref -> byAgent.put(instance.name(), ref.name()));
      }
    }
    if (byAgent.isEmpty()) {
      config.instances().stream().filter(i -> i.kind() == ServerKind.RESOURCES).findFirst()
          .ifPresent(resources -> byAgent.put("", resources.name()));
    }
    return byAgent;
  }

  private static Path beside(Path file, String suffix) {
    String name = file.getFileName().toString();
    String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
    return file.resolveSibling(stem + "_" + suffix);
  }
}
