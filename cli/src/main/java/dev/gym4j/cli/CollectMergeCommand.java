package dev.gym4j.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.gym4j.collect.ShardMerge;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j collect merge}: one rollouts file from the outputs of a sharded collection. */
@Command(name = "merge", mixinStandardHelpOptions = true,
    description = {"Join the outputs of gym4j collect --shard I/N runs into one rollouts file with each",
        "(task, rollout) pair exactly once, ordered by task, and its aggregate metrics beside it.",
        "Example: gym4j collect merge -o results/rollouts.jsonl results/shards"})
final class CollectMergeCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"--output", "-o"}, required = true, paramLabel = "FILE", description = "The merged rollouts file.")
  Path output;

  @Parameters(arity = "1..*", paramLabel = "SHARD", description = "The shards' rollouts files, or directories holding them (their "
      + "_failures and _materialized_inputs files are skipped).")
  List<Path> shards = new ArrayList<>();

  @Override
  public Integer call() {
    ShardMerge.Result result = ShardMerge.merge(ShardMerge.rolloutFiles(shards), output);
    spec.commandLine().getOut().printf("Merged %d files into %s: %d rollouts%s.%n", result.files(), output,
        result.rows(), result.duplicates() == 0 ? "" : ", " + result.duplicates() + " seen twice and kept once");
    return 0;
  }
}
