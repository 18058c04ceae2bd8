package dev.gym4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.head.HeadSecret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code gym4j k8s}: a deployment on Kubernetes. */
@Command(name = "k8s", mixinStandardHelpOptions = true, subcommands = KubernetesCommand.Render.class,
    description = "Deploy on Kubernetes: gym4j k8s render writes the manifests for kubectl apply.")
final class KubernetesCommand {

  /** {@code gym4j k8s render}: the manifests of a deployment, and of a sharded collection. */
  @Command(name = "render", mixinStandardHelpOptions = true,
      description = {"Write Kubernetes manifests for a deployment: the head server and each server instance as a",
          "Deployment and a Service (probes on GET /, resource limits, Prometheus annotations), the config in a",
          "ConfigMap and its secrets (from env.yaml and overrides) in a Secret, in its own file, owner-only.",
          "With --collect N: an indexed Job of N pods, each collecting one shard onto a shared volume.",
          "Example: gym4j k8s render +config_paths=[environments/example_single_tool_call/config.yaml] -o k8s"})
  static final class Render implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "OVERRIDE", description = "Config overrides, as for run.")
    List<String> overrides = new ArrayList<>();

    @Option(names = {"--output", "-o"}, defaultValue = "results/k8s", paramLabel = "DIR",
        description = "Where to write gym4j.yaml and gym4j-secret.yaml (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--namespace", defaultValue = "gym4j", paramLabel = "NAME",
        description = "The namespace of every object (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(names = "--image", defaultValue = "gym4j:latest", paramLabel = "IMAGE",
        description = "The gym4j image, as pushed to your registry (default: ${DEFAULT-VALUE}).")
    String image;

    @Option(names = "--replicas", paramLabel = "INSTANCE=K", description = "Pods for an instance (default 1); "
        + "with more than one, each caller stays on one pod, so its sessions stay where they began.")
    Map<String, Integer> replicas = new LinkedHashMap<>();

    @Option(names = "--collect", paramLabel = "SHARDS", description = "Add an indexed Job collecting rollouts in "
        + "this many shards (task index modulo SHARDS); merge them with gym4j collect merge.")
    Integer collect;

    @Option(names = "--collect-input", defaultValue = "/data/input.jsonl", paramLabel = "PATH",
        description = "The task rows, on the collection volume (default: ${DEFAULT-VALUE}).")
    String collectInput;

    @Option(names = "--collect-agent", paramLabel = "AGENT", description = "The agent for rows without agent_ref.")
    String collectAgent;

    @Option(names = "--collect-repeats", defaultValue = "1", paramLabel = "K", description = "Rollouts per task.")
    int collectRepeats;

    @Option(names = "--collect-storage", defaultValue = "10Gi", paramLabel = "SIZE",
        description = "The collection volume's size (default: ${DEFAULT-VALUE}).")
    String collectStorage;

    @Override
    public Integer call() {
      GlobalConfig config = ConfigLoader.standard().load(overrides);
      if (config.instances().isEmpty()) {
        throw new ConfigException("no server instances are configured: name config files with "
            + "+config_paths=[environments/<name>/config.yaml]");
      }
      if (!namespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
        throw new ConfigException("--namespace must be a DNS label (lower case letters, digits and '-'), got "
            + namespace);
      }
      replicas.forEach((name, count) -> {
        if (count < 1) {
          throw new ConfigException("--replicas " + name + " must be at least 1, got " + count);
        }
      });
      KubernetesManifests.Collect job = collect == null ? null
          : new KubernetesManifests.Collect(collect, collectInput, collectAgent, collectRepeats, collectStorage);
      var manifests = new KubernetesManifests(config, new KubernetesManifests.Options(namespace, image, replicas,
          job));
      Map<String, String> files = KubernetesManifests.files(manifests.objects(HeadSecret.generate()));
      write(files);
      PrintWriter out = spec.commandLine().getOut();
      out.printf("Wrote %s and %s (%d instances, namespace %s).%n", output.resolve("gym4j.yaml"),
          output.resolve("gym4j-secret.yaml"), config.instances().size(), namespace);
      // the namespace first (in gym4j.yaml); pods wait for the Secret that follows
      out.println("Apply: kubectl apply -f " + output.resolve("gym4j.yaml") + " -f "
          + output.resolve("gym4j-secret.yaml"));
      out.flush();
      return 0;
    }

    private void write(Map<String, String> files) {
      try {
        Files.createDirectories(output);
        for (var file : files.entrySet()) {
          Path path = output.resolve(file.getKey());
          Files.deleteIfExists(path);
          if (file.getKey().contains("secret")) {
            // created owner-only before the secret is in it
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
          }
          Files.writeString(path, file.getValue());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
