package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 39: every command that reads a JSONL file names the file and the line of a row that is not JSON, in one
 * line, exit 2, without the parser's "[Source: …; byte offset: …]".
 */
@ExtendWith(ProjectHome.class)
class BadJsonlRowTest {
  @TempDir
  Path dir;

  @Test
  void metricsOfTheReadmeNamesTheFileAndTheLine() {
    Path readme = Fixtures.projectRoot().resolve("README.md");
    CapturedCommand metrics = new CapturedCommand();
    assertThat(metrics.run("metrics", readme.toString())).isEqualTo(Main.USAGE_ERROR);
    assertThat(metrics.err().lines().toList()).singleElement().asString()
        .startsWith("error: " + readme + " line 1 is not JSON (column 1: Unexpected character ('#'")
        .endsWith("; a JSONL file holds one JSON value per line")
        .doesNotContain("Source", "byte offset");
  }

  /** A rollouts file whose third line was cut: each command reading it says so, naming the file and line 3. */
  @Test
  void everyCommandReadingRolloutsNamesTheBadLine() throws Exception {
    Path rollouts = dir.resolve("rollouts.jsonl");
    List<String> good = Files.readAllLines(Fixtures.projectRoot()
        .resolve("environments/example_single_tool_call/data/example_rollouts.jsonl")).subList(0, 2);
    Files.write(rollouts, List.of(good.get(0), good.get(1), "{\"reward\": 1.0, \"responses_create_params\": {\"inp"));
    String expected = "error: " + rollouts + " line 3 is not JSON (column ";
    List<List<String>> commands = List.of(
        List.of("metrics", rollouts.toString()),
        List.of("data", "export", rollouts.toString(), "--format", "sft-messages", "--output",
            dir.resolve("sft.jsonl").toString()),
        List.of("profile", "--inputs", rollouts.toString(), "--rollouts", rollouts.toString()),
        List.of("reverify", "--env", "example_single_tool_call", "--rollouts", rollouts.toString(), "--output",
            dir.resolve("again.jsonl").toString()));
    for (List<String> command : commands) {
      CapturedCommand run = new CapturedCommand();
      assertThat(run.run(command.toArray(String[]::new))).as(command + "\n" + run.err()).isEqualTo(Main.USAGE_ERROR);
      assertThat(run.err().lines().toList()).as(command.toString()).singleElement().asString().startsWith(expected)
          .doesNotContain("Source", "byte offset");
    }
  }
}
