package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 39: the first line of every {@code gym4j eval} says which model answers and why (replay because none is
 * configured, live from --model-url, or live from the env.yaml in the working directory, named by its path).
 */
@ExtendWith(ProjectHome.class)
class EvalModelChoiceTest {
  @TempDir
  Path dir;

  @Test
  void withoutAModelTheFirstLineSaysReplayAndWhy() {
    CapturedCommand eval = new CapturedCommand();
    assertThat(eval.run("eval", "--env", "example_single_tool_call", "--limit", "1", "--output",
        dir.resolve("replay.jsonl").toString())).as(eval.err()).isZero();
    assertThat(eval.out().lines().findFirst()).hasValue("model: replay_model, because no model is configured (no "
        + "--model-url, and no policy_base_url in env.yaml or the overrides)");
  }

  @Test
  void aModelUrlIsNamedOnTheFirstLine() {
    try (ScriptedUpstream model = weatherModel()) {
      CapturedCommand eval = new CapturedCommand();
      assertThat(eval.run("eval", "--env", "example_single_tool_call", "--model-url", model.baseUrl(), "--model",
          "m", "--model-type", "vllm_model", "--limit", "1", "--output", dir.resolve("live.jsonl").toString()))
          .as(eval.err()).isZero();
      assertThat(eval.out().lines().findFirst()).hasValue("model: m at " + model.baseUrl()
          + ", live, from --model-url");
    }
  }

  /** As a user types it: {@code gym4j eval --env NAME} in a directory whose env.yaml names a model. */
  @Test
  void anEnvYamlInTheWorkingDirectoryIsNamedOnTheFirstLine() throws Exception {
    try (ScriptedUpstream model = weatherModel()) {
      Files.writeString(dir.resolve("env.yaml"), "policy_base_url: " + model.baseUrl()
          + "\npolicy_model_name: from-env-yaml\npolicy_api_key: EMPTY\n");
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-Dgym4j.home=" + Fixtures.projectRoot(), "-cp", System.getProperty("java.class.path"),
          Main.class.getName(), "eval", "--env", "example_single_tool_call", "--model-type", "vllm_model",
          "--limit", "1"));
      Process process = new ProcessBuilder(command).directory(dir.toFile())
          .redirectError(dir.resolve("stderr.txt").toFile()).start();
      try {
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out + Files.readString(dir.resolve("stderr.txt"))).isZero();
        assertThat(out.lines().findFirst()).hasValue("model: from-env-yaml at " + model.baseUrl() + ", live, from "
            + "env.yaml at " + dir.toRealPath().resolve("env.yaml") + " (policy_base_url; --model-url overrides it)");
        assertThat(dir.resolve("results/example_single_tool_call.jsonl")).exists();
      } finally {
        process.destroyForcibly();
      }
    }
  }

  private static ScriptedUpstream weatherModel() {
    ScriptedUpstream model = ScriptedUpstream.start();
    model.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"SF\"}"), "Cold."));
    return model;
  }
}
