package dev.gym4j.cli;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import dev.gym4j.config.ConfigLoader;
import dev.gym4j.run.Deployment;
import dev.gym4j.run.ServedInstance;
import dev.gym4j.server.Implementations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j serve}: one instance in this process, joined to a deployment's head server. */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve one instance of a deployment in this process, announced to its head server.",
        "Every other server then finds it. Secrets come from this machine's env.yaml or overrides."})
final class ServeCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "INSTANCE", description = "The instance name in the deployment's config.")
  String instance;

  @Parameters(index = "1..*", paramLabel = "OVERRIDE", description = "Config overrides, as for run.")
  List<String> overrides = new ArrayList<>();

  @Option(names = "--head", required = true, paramLabel = "URL", description = "The head server, e.g. http://10.0.0.5:11000")
  URI head;

  @Option(names = "--head-secret-file", paramLabel = "FILE", description = "A file holding the deployment's "
      + "registration secret, which gym4j run wrote (default " + HeadSecrets.DEFAULT_FILE + " on its machine). Without "
      + "this option: $GYM4J_HEAD_SECRET, then " + HeadSecrets.DEFAULT_FILE + " if it exists here.")
  Path headSecretFile;

  @Override
  public Integer call() throws InterruptedException {
    ServedInstance served = ServedInstance.start(head, instance, overrides, ConfigLoader.standard(),
        Implementations.load(), HeadSecrets.forServe(headSecretFile));
    PrintWriter out = spec.commandLine().getOut();
    out.printf("Serving %s at %s, announced to %s (ready %.2f s after JVM start).%n", instance,
        served.server().url(), head, Deployment.sinceJvmStart().toMillis() / 1000.0);
    out.flush();
    Shutdown.awaitSignal(served, out, "gym4j stopped serving " + instance + ".");
    return 0;
  }
}
