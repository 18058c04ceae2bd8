package dev.gym4j.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;

/**
 * The scripted model in a JVM of its own, as a remote model would be: the benchmark's heap figure is then
 * gym4j's (collector and servers), not the stand-in's. Each rollout gets a {@code get_weather} call, then
 * the answer "Cold.", each after the given latency. The child prints its base URL, then runs until its
 * standard input closes.
 */
public final class ScriptedModelProcess implements AutoCloseable {
  private final Process process;
  private final String baseUrl;

  private ScriptedModelProcess(Process process, String baseUrl) {
    this.process = process;
    this.baseUrl = baseUrl;
  }

  public static void main(String[] args) throws IOException {
    Duration latency = Duration.ofMillis(Long.parseLong(args[0]));
    try (ScriptedUpstream upstream = ScriptedUpstream.start().keepReceived(0)) {
      upstream.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"SF\"}")
          .after(latency), "Cold.").andThen(answer -> answer.after(latency)));
      System.out.println(upstream.baseUrl());
      System.out.flush();
      while (System.in.read() >= 0) {
        // the parent holds our standard input open for as long as it needs us
      }
    }
  }

  /** Starts the child with this JVM's java and class path, and waits for its base URL. */
  static ScriptedModelProcess start(Duration latency) throws IOException {
    // a bounded heap of its own (the launcher lets the benchmark's JVM take half the memory; -Xmx wins)
    List<String> command = ChildJvm.command(List.of("-Xmx4g"), ScriptedModelProcess.class.getName(),
        List.of(Long.toString(latency.toMillis())));
    // its log, for when a run errors
    Path log = Path.of(System.getProperty("java.io.tmpdir"), "gym4j-bench-model.log");
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("http")) {
      process.destroyForcibly();
      throw new IOException("the scripted model process did not start (it printed " + line + ")");
    }
    return new ScriptedModelProcess(process, line.strip());
  }

  String baseUrl() {
    return baseUrl;
  }

  @Override
  public void close() throws IOException {
    process.getOutputStream().close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
