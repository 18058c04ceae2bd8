package dev.gym4j.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import dev.gym4j.collect.data.DatasetValidator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j test NAME}: an environment's tests, then a check of every row of its data. */
@Command(name = "test", mixinStandardHelpOptions = true,
    description = {"Run an environment's tests (with Maven) and check its data.",
        "Every data/*.jsonl row must be a NeMo Gym row (responses_create_params valid, tools well-formed);",
        "agent_ref must name an agent of the environment's config.yaml; bad rows are reported by line."})
final class TestCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "NAME", description = "The environment, e.g. mcqa.")
  String name;

  @Option(names = "--offline", description = "Pass -o to Maven: use only what the local repository holds.")
  boolean offline;

  /** Task rows, not NeMo Gym's recorded rollouts or materialized inputs, which are not dataset rows. */
  private static boolean isDataset(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".jsonl") && !name.endsWith("_metrics.jsonl") && !name.contains("rollouts")
        && !name.contains("materialized_inputs");
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    Path dir = Project.environment(name);
    Path root = Project.root();
    var out = spec.commandLine().getOut();
    List<String> command = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-ntp", "-q"));
    if (offline) {
      command.add("-o");
    }
    // -am builds what the environment needs; the filter runs only the environment's own tests
    command.addAll(List.of("-pl", "environments/" + name, "-am", "test", "-Dsurefire.failIfNoSpecifiedTests=false",
        "-Dtest=dev.gym4j.environments." + name + ".**"));
    out.println("Running " + name + "'s tests...");
    out.flush();
    int tests = new ProcessBuilder(command).directory(root.toFile()).inheritIO().start().waitFor();
    out.println(tests == 0 ? "tests passed" : "tests FAILED (Maven exit status " + tests + ")");
    int badRows = 0;
    // agent_ref must name an agent of the environment's own config, or eval fails every rollout
    java.util.Set<String> agents = java.util.Set.copyOf(DataCommand.agentsOf(dir.resolve("config.yaml")).keySet());
    try (Stream<Path> files = Files.list(dir.resolve("data"))) {
      for (Path file : files.filter(f -> isDataset(f))
          .sorted().toList()) {
        DatasetValidator.Report report = DatasetValidator.validate(file, agents, false,
            DatasetValidator.MetricsFile.CHECK_ONLY, null);
        report.problems().forEach(out::println);
        badRows += report.problems().size();
        out.printf("%s: %d rows, %d bad%n", root.relativize(file), report.rows(), report.problems().size());
        report.differences().forEach(d -> out.println("  " + report.metrics().getFileName() + ": " + d));
        badRows += report.differences().isEmpty() ? 0 : 1;
      }
    }
    out.flush();
    return tests == 0 && badRows == 0 ? 0 : 1;
  }
}
