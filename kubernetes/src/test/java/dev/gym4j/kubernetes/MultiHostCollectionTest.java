package dev.gym4j.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A deployment across five network hosts: Linux network namespaces joined by veth links to a bridge that
 * lives in a sixth, so no address of this machine is on the network and traffic stays among them. The head
 * server is on one host, the environment on another, the agent on a third, the model (a scripted upstream
 * and its gym4j model server) on a fourth, and two collectors, shards 0/2 and 1/2, on the last. Every
 * process is a separate JVM started with {@code ip netns exec}. Mid-run the agent's host is cut off (its
 * link down) and then restored; the shards, merged, hold each (task, rollout) pair exactly once.
 *
 * <p>Rollout fields and names are NeMo Gym's ({@code nemo_gym/rollout_collection.py}: {@code _ng_task_index},
 * {@code _ng_rollout_index}; {@code resources_servers/example_single_tool_call/app.py}: reward 1.0).
 * Needs root and iproute2: skipped without them, except under {@code GYM4J_CI=1}, where it fails instead.
 */
class MultiHostCollectionTest {
  private static final String AGENT = "example_single_tool_call_simple_agent";
  private static final long WAIT_SECONDS = 120;

  @TempDir
  Path dir;

  private final String tag = "g4j" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0xfffff));
  private final String subnet = "10." + ThreadLocalRandom.current().nextInt(100, 200) + "."
      + ThreadLocalRandom.current().nextInt(1, 250) + ".";
  private final List<String> namespaces = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (Process process : processes.reversed()) {
      process.destroy();
    }
    for (Process process : processes) {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
    for (String namespace : namespaces) {
      ip("netns", "del", namespace);
    }
  }

  @Test
  void aShardedCollectionAcrossHostsSurvivesAHostCutOffAndLandsExactlyOnce() throws Exception {
    requireNamespaces();
    String bridgeHost = namespace("sw");
    run(List.of("ip", "-n", bridgeHost, "link", "add", "br0", "type", "bridge"));
    run(List.of("ip", "-n", bridgeHost, "link", "set", "br0", "up"));
    Map<String, String> address = new LinkedHashMap<>();
    int octet = 1;
    for (String host : List.of("head", "env", "agent", "model", "collect")) { // agent: octet 3
      address.put(host, host(host, bridgeHost, octet++));
    }

    Map<String, String> env = Map.of("GYM4J_HEAD_SECRET", "multi-host-registration-secret-" + tag);
    String model = startModel("model");
    Path root = Fixtures.projectRoot();
    String head = "http://" + address.get("head") + ":11000";
    start("head", env, "run", "+config_paths=[" + root.resolve("models/configs/vllm_model.yaml") + ","
        + root.resolve("environments/example_single_tool_call/config.yaml") + "]", "+policy_base_url=" + model,
        "+policy_api_key=unused", "+policy_model_name=scripted", "++head_server.host=" + address.get("head"),
        "++head_server.port=11000", "--elsewhere", "example_single_tool_call," + AGENT + ",policy_model")
        .awaitLine("All 1 servers ready");
    serve("env", address, env, head, "example_single_tool_call", "resources_servers.example_single_tool_call");
    serve("agent", address, env, head, AGENT, "responses_api_agents.simple_agent");
    serve("model", address, env, head, "policy_model", "responses_api_models.vllm_model");

    Path input = Files.copy(root.resolve("environments/example_single_tool_call/data/example.jsonl"),
        dir.resolve("input.jsonl"));
    List<Running> collectors = new ArrayList<>();
    for (int shard = 0; shard < 2; shard++) {
      collectors.add(start("collect", Map.of(), "collect", "--head", head, "--input", input.toString(), "--output",
          dir.resolve("shards/rollouts-" + shard + ".jsonl").toString(), "--agent", AGENT, "--repeats", "4",
          "--parallel", "1", "--resume", "--shard", shard + "/2"));
    }

    // mid-run: some rollouts landed, most have not
    awaitRows(2);
    assertThat(rows()).isLessThan(10);
    String agentLink = "v" + tag + 3;
    run(List.of("ip", "-n", bridgeHost, "link", "set", agentLink, "down"));
    assertThat(reachable("collect", address.get("agent"))).as("the agent's host is cut off").isFalse();
    Thread.sleep(3000);
    run(List.of("ip", "-n", bridgeHost, "link", "set", agentLink, "up"));
    assertThat(reachable("collect", address.get("agent"))).as("the agent's host is back").isTrue();

    for (Running collector : collectors) {
      assertThat(collector.process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).as(collector.output()).isTrue();
      assertThat(collector.process.exitValue()).as(collector.output()).isZero();
    }
    Running merge = start("collect", Map.of(), "collect", "merge", "-o", dir.resolve("rollouts.jsonl").toString(),
        dir.resolve("shards").toString());
    assertThat(merge.process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(merge.output()).contains("Merged 2 files", "20 rollouts");

    List<JsonNode> merged = Json.readLines(dir.resolve("rollouts.jsonl"));
    Set<String> pairs = new HashSet<>();
    for (JsonNode row : merged) {
      assertThat(row.get("reward").asDouble()).isEqualTo(1.0);
      pairs.add(row.get("_ng_task_index").asInt() + ":" + row.get("_ng_rollout_index").asInt());
    }
    assertThat(merged).hasSize(20);
    assertThat(pairs).hasSize(20);
    for (int task = 0; task < 5; task++) {
      for (int rollout = 0; rollout < 4; rollout++) {
        assertThat(pairs).contains(task + ":" + rollout);
      }
    }
    // each shard holds its own tasks, once
    for (int shard = 0; shard < 2; shard++) {
      int expected = shard;
      assertThat(Json.readLines(dir.resolve("shards/rollouts-" + shard + ".jsonl")))
          .allSatisfy(row -> assertThat(row.get("_ng_task_index").asInt() % 2).isEqualTo(expected));
    }
  }

  /** Root and iproute2, or a reason to skip; under CI their absence is a failure, not a skip. */
  private void requireNamespaces() throws Exception {
    boolean ci = "1".equals(System.getenv("GYM4J_CI"));
    String probe = tag + "probe";
    String problem = null;
    try {
      Result added = ip("netns", "add", probe);
      if (added.status() != 0) {
        problem = "cannot create a network namespace: " + added.output();
      } else {
        ip("netns", "del", probe);
      }
    } catch (IOException e) {
      problem = "iproute2 (ip) is not installed: " + e.getMessage();
    }
    if (problem != null) {
      assertThat(ci).as("GYM4J_CI=1 needs this test to run, but " + problem).isFalse();
      Assumptions.abort(problem);
    }
  }

  private String namespace(String name) throws Exception {
    String namespace = tag + "-" + name;
    run(List.of("ip", "netns", "add", namespace));
    namespaces.add(namespace);
    run(List.of("ip", "-n", namespace, "link", "set", "lo", "up"));
    return namespace;
  }

  /** A host: its namespace, a veth pair whose far end is on the bridge, and its address. */
  private String host(String name, String bridgeHost, int octet) throws Exception {
    String namespace = namespace(name);
    // interface names have at most 15 characters
    String near = "h" + tag + octet;
    String far = "v" + tag + octet;
    run(List.of("ip", "link", "add", near, "netns", namespace, "type", "veth", "peer", "name", far, "netns",
        bridgeHost));
    run(List.of("ip", "-n", bridgeHost, "link", "set", far, "master", "br0", "up"));
    run(List.of("ip", "-n", namespace, "link", "set", near, "name", "eth0"));
    String address = subnet + octet;
    run(List.of("ip", "-n", namespace, "addr", "add", address + "/24", "dev", "eth0"));
    run(List.of("ip", "-n", namespace, "link", "set", "eth0", "up"));
    return address;
  }

  private String startModel(String host) throws Exception {
    Running model = start(host, Map.of(), ScriptedModelMain.class.getName(), "300");
    return model.awaitLine("http").strip();
  }

  private void serve(String host, Map<String, String> address, Map<String, String> env, String head, String instance,
      String block) throws Exception {
    String prefix = "++" + instance + "." + block + ".";
    start(host, env, "serve", instance, "--head", head, "++policy_api_key=unused", prefix + "host=0.0.0.0",
        prefix + "port=8000", prefix + "announce_host=" + address.get(host)).awaitLine("Serving " + instance);
  }

  /** A JVM in a host's namespace: gym4j's command line, or a main class named first. */
  private Running start(String host, Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", tag + "-" + host,
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path")));
    if (!args[0].contains(".")) {
      command.add("dev.gym4j.cli.Main");
    }
    command.addAll(List.of(args));
    Path log = dir.resolve("logs/" + host + "-" + processes.size() + ".log");
    Files.createDirectories(log.getParent());
    ProcessBuilder builder = new ProcessBuilder(command).directory(Files.createDirectories(dir.resolve(host)).toFile())
        .redirectErrorStream(true);
    builder.environment().putAll(env);
    Process process = builder.start();
    processes.add(process);
    return new Running(process, log);
  }

  private int rows() throws IOException {
    int rows = 0;
    for (int shard = 0; shard < 2; shard++) {
      Path file = dir.resolve("shards/rollouts-" + shard + ".jsonl");
      if (Files.exists(file)) {
        rows += (int) Files.readString(file).chars().filter(c -> c == '\n').count();
      }
    }
    return rows;
  }

  private void awaitRows(int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (rows() < count) {
      assertThat(System.nanoTime()).as("rollouts landing in %s", dir.resolve("shards")).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /** Whether a TCP connection from one host to the agent's port opens within two seconds. */
  private boolean reachable(String from, String address) throws Exception {
    return run(List.of("ip", "netns", "exec", tag + "-" + from, "timeout", "2", "bash", "-c",
        "exec 3<>/dev/tcp/" + address + "/8000"), false).status() == 0;
  }

  private record Result(int status, String output) {}

  private static Result ip(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(args));
    return run(command, false);
  }

  private static void run(List<String> command) throws Exception {
    run(command, true);
  }

  private static Result run(List<String> command, boolean mustSucceed) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish");
    }
    if (mustSucceed) {
      assertThat(process.exitValue()).as(String.join(" ", command) + ": " + output).isZero();
    }
    return new Result(process.exitValue(), output);
  }

  /** A child process whose output is copied to a log and searched line by line. */
  private static final class Running {
    final Process process;
    final Path log;
    private final List<String> lines = new ArrayList<>();

    Running(Process process, Path log) {
      this.process = process;
      this.log = log;
      Thread.ofVirtual().start(() -> {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = reader.readLine()) != null) {
            synchronized (lines) {
              lines.add(line);
              lines.notifyAll();
            }
            Files.writeString(log, line + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
          }
        } catch (IOException ignored) {
          // the process ended
        }
      });
    }

    String awaitLine(String prefix) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      synchronized (lines) {
        while (true) {
          for (String line : lines) {
            if (line.startsWith(prefix)) {
              return line;
            }
          }
          long left = deadline - System.nanoTime();
          if (left <= 0 || !process.isAlive() && lines.stream().noneMatch(l -> l.startsWith(prefix))) {
            throw new AssertionError("no line starting '" + prefix + "' from the process; it printed:\n"
                + String.join("\n", lines));
          }
          lines.wait(Math.max(1, Math.min(200, TimeUnit.NANOSECONDS.toMillis(left))));
        }
      }
    }

    String output() {
      synchronized (lines) {
        return String.join("\n", lines);
      }
    }
  }
}
