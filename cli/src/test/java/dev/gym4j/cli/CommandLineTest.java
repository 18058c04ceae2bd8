package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands as a user meets them: help, version, and errors without stack traces. */
class CommandLineTest {
  @TempDir
  Path dir;

  private final CapturedCommand command = new CapturedCommand();

  private int run(String... args) {
    return command.run(args);
  }

  @Test
  void helpListsTheCommandsAndVersionPrintsIt() {
    assertThat(run("--help")).isZero();
    assertThat(command.out()).contains("run", "serve", "config");
    command.out.getBuffer().setLength(0);
    assertThat(run("--version")).isZero();
    assertThat(command.out()).startsWith("gym4j 0.").contains("Java 25");
  }

  @Test
  void aMissingRequiredValueIsReportedByPathAndFileWithStatus2AndNoStackTrace() throws IOException {
    Path file = dir.resolve("x.yaml");
    Files.writeString(file, """
        policy_model:
          responses_api_models:
            openai_model:
              openai_api_key: ???
        """);
    assertThat(run("config", "+config_paths=[" + file + "]")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).startsWith("error: missing required value "
        + "policy_model.responses_api_models.openai_model.openai_api_key (" + file + ")");
    assertThat(command.err()).doesNotContain("\tat ", "Exception");
  }

  @Test
  void debugAddsTheStackTrace() {
    assertThat(run("--debug", "config", "+config_paths=[" + dir.resolve("nowhere.yaml") + "]"))
        .isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).contains("config file not found", "\tat dev.gym4j.config.ConfigLoader");
  }

  @Test
  void configPrintsTheResolvedConfigWithSecretsMasked() throws IOException {
    Path file = dir.resolve("c.yaml");
    Files.writeString(file, "policy_api_key: sk-123\nm:\n  resources_servers:\n    x: {domain: other, "
        + "api_key: '${policy_api_key}', temperature: '${t}'}\nt: 0.5\n");
    assertThat(run("config", "+config_paths=[" + file + "]")).isZero();
    assertThat(command.out()).doesNotContain("sk-123").contains("api_key: '****'", "temperature: 0.5");
  }

  @Test
  void runWithoutInstancesSaysHowToNameThem() {
    assertThat(run("run", "++head_server.port=0")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).contains("no server instances are configured");
  }

  @Test
  void an_unknown_option_is_named_as_one_with_the_valid_options_issue_16() {
    assertThat(run("collect", "--num-repeats", "4")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).startsWith("error: unknown option '--num-repeats' for gym4j collect")
        .contains("valid options: ", "--repeats", "--resume").doesNotContain("bad override");
  }

  @Test
  void overrides_still_reach_commands_as_positional_arguments() {
    assertThat(run("config", "+a.b=1", "++c=x", "+d=2", "~d")).as(command.err()).isZero();
    assertThat(command.out()).contains("b: 1", "c: x");
  }

  @Test
  void help_texts_never_break_a_url() {
    for (String sub : java.util.List.of("eval", "run", "serve", "collect", "metrics", "data", "test", "init", "bench",
        "config")) {
      command.out.getBuffer().setLength(0);
      assertThat(run(sub, "--help")).isZero();
      assertThat(command.out()).as(sub).doesNotContain("http: //", "https: //");
      for (String line : command.out().split("\n")) {
        assertThat(line.length()).as(sub + ": " + line).isLessThanOrEqualTo(120);
      }
    }
    command.out.getBuffer().setLength(0);
    run("eval", "--help");
    assertThat(command.out()).contains("http://localhost:8000/v1");
  }

  @Test
  void a_missing_file_is_named_without_a_java_class() {
    Path missing = dir.resolve("missing.jsonl");
    assertThat(run("data", "export", missing.toString(), "--format", "sft-messages", "--output",
        dir.resolve("o.jsonl").toString())).isNotZero();
    assertThat(command.err()).startsWith("error: no such file: " + missing).doesNotContain("Exception");
  }
}
