package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.gym4j.testing.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gym4j init} on a copy of the project makes an environment that {@code gym4j test} then builds,
 * tests (Maven, offline: this build has fetched everything) and checks the data of.
 */
class InitAndTestCommandTest {
  @TempDir
  Path copy;
  private final CapturedCommand command = new CapturedCommand();
  private final String previousHome = System.getProperty("gym4j.home");

  @AfterEach
  void restore() {
    if (previousHome == null) {
      System.clearProperty("gym4j.home");
    } else {
      System.setProperty("gym4j.home", previousHome);
    }
  }

  @Test
  void aNewEnvironmentBuildsAndPassesItsTestsAtOnce() throws IOException {
    copyProject(Fixtures.projectRoot(), copy);
    System.setProperty("gym4j.home", copy.toString());

    assertThat(command.run("init", "letter_counting")).as(command.err()).isZero();
    Path env = copy.resolve("environments/letter_counting");
    assertThat(env.resolve("src/main/java/dev/gym4j/environments/letter_counting/LetterCounting.java")).exists();
    assertThat(env.resolve("data/example.jsonl")).exists();
    assertThat(Files.readString(copy.resolve("environments/pom.xml"))).contains("<module>letter_counting</module>");
    assertThat(Files.readString(copy.resolve("cli/pom.xml"))).contains("gym4j-env-letter-counting");

    assertThat(command.run("init", "letter_counting")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.run("init", "Bad-Name")).isEqualTo(Main.USAGE_ERROR);

    assertThat(command.run("test", "letter_counting", "--offline")).as(command.out()).isZero();
    assertThat(command.out()).contains("tests passed", "data/example.jsonl: 5 rows, 0 bad");

    Files.writeString(env.resolve("data/extra.jsonl"), "{\"responses_create_params\": {\"input\": 7}}\n"
        + "{\"responses_create_params\": {\"input\": \"q\"}, \"agent_ref\": {\"name\": \"lc_letter_agent\"}}\n");
    assertThat(command.run("test", "letter_counting", "--offline")).isEqualTo(1);
    assertThat(command.out()).contains("extra.jsonl:1: responses_create_params.input",
        "extra.jsonl:2: agent_ref.name: no agent named lc_letter_agent in the config");
  }

  /** The project's sources, without build output or git metadata. */
  private static void copyProject(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path relative = from.relativize(file);
        String first = relative.getNameCount() == 0 ? "" : relative.getName(0).toString();
        if (first.equals(".git") || relative.toString().contains("target") || first.equals("results")) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
          target.toFile().setExecutable(file.toFile().canExecute());
        }
      }
    }
  }
}
