package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.head.HeadDirectory;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code gym4j run} in one JVM process and {@code gym4j serve} in another: the served instance announces
 * itself to the head server and is reached through it; both processes stop cleanly on SIGTERM.
 */
class DiscoveryAcrossProcessesTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Pattern URL = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+)");

  @TempDir
  Path dir;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    processes.forEach(Process::destroyForcibly);
  }

  @Test
  void aServedInstanceIsFoundThroughTheHeadServer() throws Exception {
    Files.writeString(dir.resolve("deployment.yaml"), """
        policy_api_key: sk-head-secret
        weather:
          resources_servers:
            example_single_tool_call: {domain: agent}
        counter:
          resources_servers:
            test_counter: {domain: other, api_key: "${policy_api_key}"}
        """);
    Running run = start("run", "+config_paths=[deployment.yaml]", "++head_server.port=0", "--elsewhere", "counter");
    String headLine = run.awaitLine(line -> line.startsWith("head_server"));
    URI head = URI.create(match(headLine));
    run.awaitLine(line -> line.startsWith("All 2 servers ready"));
    // issue 14: run writes the registration secret owner-only and prints only its fingerprint; serve,
    // started in the same directory, reads it from there
    String secretLine = run.awaitLine(line -> line.startsWith("Registration secret for gym4j serve"));
    String secret = Files.readString(dir.resolve(".gym4j/head-secret")).strip();
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dir.resolve(".gym4j/head-secret")))).isEqualTo("rw-------");
    assertThat(secretLine).doesNotContain(secret).contains(dev.gym4j.head.HeadSecret.of(secret, "test").fingerprint());

    Running serve = start("serve", "counter", "--head", head.toString(), "++policy_api_key=sk-local");
    String served = serve.awaitLine(line -> line.startsWith("Serving counter at"));
    URI counterUrl = URI.create(match(served));

    HeadDirectory directory = new HeadDirectory(head);
    JsonNode instances = directory.instances();
    assertThat(instances).hasSize(2);
    JsonNode counter = find(instances, "counter");
    JsonNode weather = find(instances, "weather");
    assertThat(counter.get("url").asString()).isEqualTo(counterUrl.toString());
    assertThat(counter.get("pid").asLong()).isEqualTo(serve.process.pid());
    assertThat(weather.get("pid").asLong()).isEqualTo(run.process.pid());

    try (ServerClient client = new ServerClient(directory, ClientSettings.defaults())) {
      Map<String, String> cookies = client.post("counter", "/seed_session", Json.parse("{\"initial_count\": 2}"), Map.of())
          .cookies();
      HttpReply counted = client.post("counter", "/increment_counter", Json.parse("{\"count\": 3}"), cookies);
      assertThat(counted.json().get("count").asInt()).isEqualTo(5);
      HttpReply weatherReply = client.post("weather", "/get_weather", Json.parse("{\"city\": \"Oslo\"}"), Map.of());
      assertThat(weatherReply.json().get("weather_description").asString()).isEqualTo("The weather in Oslo is cold.");
      String yaml = client.send(head.resolve("/global_config_dict_yaml"), "GET", null, Map.of(), Map.of()).json()
          .asString();
      assertThat(yaml).doesNotContain("sk-head-secret").contains("port: " + counterUrl.getPort());
    }

    serve.stop();
    run.stop();
    assertThat(run.awaitLine(line -> line.equals("gym4j stopped."))).isNotNull();
  }

  private static JsonNode find(JsonNode instances, String name) {
    for (JsonNode instance : instances) {
      if (instance.get("process_name").asString().equals(name)) {
        return instance;
      }
    }
    throw new AssertionError("no instance " + name + " in " + instances);
  }

  private static String match(String line) {
    Matcher matcher = URL.matcher(line);
    assertThat(matcher.find()).as("a URL in: %s", line).isTrue();
    return matcher.group(1);
  }

  private Running start(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    processes.add(process);
    return new Running(process);
  }

  /** A child process whose output lines are collected as they come. */
  private static final class Running {
    final Process process;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final StringBuilder seen = new StringBuilder();
    volatile boolean ended;

    Running(Process process) {
      this.process = process;
      Thread.ofVirtual().start(() -> {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
          String line;
          while ((line = reader.readLine()) != null) {
            lines.add(line);
          }
        } catch (IOException ignored) {
          // the process ended
        }
        ended = true;
      });
    }

    String awaitLine(java.util.function.Predicate<String> wanted) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (System.nanoTime() < deadline) {
        String line = lines.poll(100, TimeUnit.MILLISECONDS);
        if (line == null && ended && lines.isEmpty()) {
          throw new AssertionError("the process ended with status " + process.waitFor() + "; output:\n" + seen);
        }
        if (line != null) {
          seen.append(line).append('\n');
          if (wanted.test(line)) {
            return line;
          }
        }
      }
      throw new AssertionError("the expected line did not come within " + WAIT + "; output so far:\n" + seen);
    }

    void stop() throws InterruptedException {
      // SIGTERM through the handle: Process.destroy() would also close our end of the output pipe
      process.toHandle().destroy();
      assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("stopped on SIGTERM").isTrue();
    }
  }
}
