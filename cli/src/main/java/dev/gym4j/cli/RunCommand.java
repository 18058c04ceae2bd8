package dev.gym4j.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j run}: NeMo Gym's {@code ng_run}, with every server in this JVM. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {"Start the head server and every configured server instance in this JVM (NeMo Gym's ng_run).",
        "Each instance gets its own port; all stay up until Ctrl-C or SIGTERM.",
        "Example: gym4j run +config_paths=[environments/example_single_tool_call/config.yaml]"})
final class RunCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "OVERRIDE", description = "Config overrides: +config_paths=[a.yaml,b.yaml], key=value, "
      + "+key=value, ++key=value, ~key.")
  List<String> overrides = new ArrayList<>();

  @Option(names = "--elsewhere", split = ",", paramLabel = "INSTANCE",
      description = "Instances not to start here: another process serves them (gym4j serve) and announces them.")
  Set<String> elsewhere = new LinkedHashSet<>();

  @Option(names = "--head-secret-file", paramLabel = "FILE", defaultValue = HeadSecrets.DEFAULT_FILE,
      description = "Where to write the secret gym4j serve needs to announce an instance (owner-only, 0600), "
          + "unless $GYM4J_HEAD_SECRET gives one. The secret is never printed. Default: ${DEFAULT-VALUE}.")
  Path headSecretFile;

  @Option(names = "--check", description = "Start everything, report, and stop: a smoke test of the config.")
  boolean check;

  @Override
  public Integer call() throws InterruptedException {
    GlobalConfig config = ConfigLoader.standard().load(overrides);
    if (config.instances().isEmpty()) {
      throw new ConfigException("no server instances are configured: name config files with "
          + "+config_paths=[environments/<name>/config.yaml]");
    }
    PrintWriter out = spec.commandLine().getOut();
    HeadSecrets.ForRun secret = HeadSecrets.forRun(headSecretFile);
    Deployment deployment = Deployment.start(config, Implementations.load(), elsewhere, secret.secret());
    Tables.printInstances(out, deployment.head().url().toString(), deployment.instances());
    out.printf("All %d servers ready in %.2f s after JVM start.%n", deployment.servers().size() + 1,
        Deployment.sinceJvmStart().toMillis() / 1000.0);
    out.println("Registration secret for gym4j serve (sha256 " + secret.secret().fingerprint() + "): "
        + secret.where() + ".");
    if (!elsewhere.isEmpty()) {
      out.println("Waiting for " + String.join(", ", elsewhere) + " to be announced; on its machine run "
          + String.join(", and ", elsewhere.stream().map(name -> "gym4j serve " + name + " --head "
              + deployment.head().url()).toList()));
    }
    out.flush();
    if (check) {
      deployment.close();
      return 0;
    }
    Shutdown.awaitSignal(deployment, out, "gym4j stopped.");
    return 0;
  }
}
