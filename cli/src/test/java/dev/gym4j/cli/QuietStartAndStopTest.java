package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * issue 39, the noise a user meets: SLF4J's warnings, an error line when Ctrl-C comes early, a wait message with
 * a placeholder in it, help texts cut mid-sentence.
 */
@ExtendWith(ProjectHome.class)
class QuietStartAndStopTest {
  private static final Path ROLLOUTS = Fixtures.projectRoot()
      .resolve("environments/example_single_tool_call/data/example_rollouts.jsonl");

  @TempDir
  Path dir;

  /**
   * {@code gym4j view FILE} stopped by Ctrl-C (SIGINT) at moments from its very start to after it is ready:
   * every time it exits 130 and prints no error and no SLF4J line.
   */
  @Test
  void ctrlCAtAnyMomentExitsQuietlyWith130() throws Exception {
    for (long delay = 0; delay <= 1200; delay += 300) {
      Process view = start("view", "--port", "0", ROLLOUTS.toString());
      Thread.sleep(delay);
      interrupt(view);
      assertQuiet130(view, "Ctrl-C " + delay + " ms after start");
    }
    Process view = start("view", "--port", "0", ROLLOUTS.toString());
    String ready = new java.io.BufferedReader(new java.io.InputStreamReader(view.getInputStream(),
        StandardCharsets.UTF_8)).readLine();
    assertThat(ready).as(lastStderr()).contains("(Ctrl-C stops)");
    interrupt(view);
    assertQuiet130(view, "Ctrl-C once ready");
  }

  @Test
  void runNamesTheServeCommandOfEachInstanceItWaitsFor() {
    CapturedCommand run = new CapturedCommand();
    assertThat(run.run("run", "+config_paths=[models/configs/vllm_model.yaml,environments/example_single_tool_call/"
        + "config.yaml]", "++policy_base_url=http://127.0.0.1:9/v1", "++policy_model_name=m",
        "++policy_api_key=EMPTY", "++head_server.port=0", "--elsewhere", "example_single_tool_call", "--check",
        "--head-secret-file", dir.resolve("head-secret").toString())).as(run.err()).isZero();
    assertThat(run.out()).containsPattern("Waiting for example_single_tool_call to be announced; on its machine run "
        + "gym4j serve example_single_tool_call --head http://127\\.0\\.0\\.1:\\d+").doesNotContain("<instance>");
  }

  /** Each paragraph of the help of profile and view is whole: picocli wraps it, no line break cuts a sentence. */
  @Test
  void helpParagraphsEndWithTheirSentence() {
    for (String command : List.of("profile", "view")) {
      CapturedCommand help = new CapturedCommand();
      assertThat(help.run(command, "--help")).isZero();
      CommandLine line = Main.commandLine().getSubcommands().get(command);
      assertThat(line.getCommandSpec().usageMessage().description()).as(command)
          .allSatisfy(paragraph -> assertThat(paragraph).endsWith("."));
      String text = String.join(" ", help.out().lines().map(String::strip).toList());
      assertThat(text).contains(String.join(" ", line.getCommandSpec().usageMessage().description()[0].split(" "))
          .substring(0, 60));
    }
  }

  private Process start(String... args) throws Exception {
    // as from a terminal: a build tool may start its tests with SIGINT ignored, which a child inherits
    List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dgym4j.home=" + Fixtures.projectRoot(), "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).directory(dir.toFile())
        .redirectError(dir.resolve("stderr-" + System.nanoTime() + ".txt").toFile()).start();
  }

  private static void interrupt(Process process) throws Exception {
    new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor(30, TimeUnit.SECONDS);
  }

  private void assertQuiet130(Process process, String when) throws Exception {
    boolean ended = process.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      process.destroyForcibly();
    }
    assertThat(ended).as(when).isTrue();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = lastStderr();
    assertThat(process.exitValue()).as("%s%n%s%s", when, out, err).isEqualTo(Main.INTERRUPTED);
    assertThat(err).as(when).doesNotContain("error", "SLF4J", "Exception");
    assertThat(out).as(when).doesNotContain("error", "SLF4J");
  }

  private String lastStderr() throws Exception {
    try (var files = Files.list(dir)) {
      Path last = files.filter(f -> f.getFileName().toString().startsWith("stderr-")).sorted().toList().getLast();
      return Files.readString(last);
    }
  }
}
