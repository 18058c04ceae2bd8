package dev.gym4j.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import dev.gym4j.config.ConfigException;
import dev.gym4j.viewer.Viewer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j view}: a local web page over rollout files, until Ctrl-C. */
@Command(name = "view", mixinStandardHelpOptions = true,
    description = {"Open rollout files (gym4j's or NeMo Gym's) in a local web page: overview with metrics and charts, "
        + "a filterable table with GRPO groups, each rollout's conversation and verify result, and a compare view.",
        "Failures (<stem>_failures.jsonl) and recorded metrics (<stem>_aggregate_metrics.json) beside a file are "
        + "shown too; a file a running collection appends to is followed. Stop with Ctrl-C."})
final class ViewCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Rollouts files (JSONL).")
  List<Path> files;

  @Option(names = "--port", defaultValue = "8765", description = "Port to listen on (default ${DEFAULT-VALUE}; 0: any "
      + "free port).")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default ${DEFAULT-VALUE}, "
      + "this machine only; the page shows the rollouts to whoever reaches it).")
  String host;

  @Override
  public Integer call() {
    Viewer viewer;
    try {
      viewer = Viewer.start(files, host, port);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      viewer.close();
      stopped.countDown();
    });
    Runtime.getRuntime().addShutdownHook(hook);
    spec.commandLine().getOut().println("gym4j view: open " + viewer.uri() + " (Ctrl-C stops)");
    spec.commandLine().getOut().flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      // stopped from inside this JVM (a test, an embedding program): close as Ctrl-C would
      Runtime.getRuntime().removeShutdownHook(hook);
      viewer.close();
    }
    return 0;
  }
}
