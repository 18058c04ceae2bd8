package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gym4j eval}, the main job, in-process against a scripted model. */
class EvalCommandTest {
  @TempDir
  Path dir;
  private final CapturedCommand command = new CapturedCommand();
  private String previousHome;

  @BeforeEach
  void installation() {
    previousHome = System.getProperty("gym4j.home");
    System.setProperty("gym4j.home", Fixtures.projectRoot().toString());
  }

  @AfterEach
  void restore() {
    if (previousHome == null) {
      System.clearProperty("gym4j.home");
    } else {
      System.setProperty("gym4j.home", previousHome);
    }
  }

  private int run(String... args) {
    return command.run(args);
  }

  @Test
  void evaluatesTheExampleEnvironmentAndPrintsItsMetrics() throws Exception {
    try (ScriptedUpstream model = ScriptedUpstream.start()) {
      model.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"SF\"}"), "Cold."));
      Path output = dir.resolve("eval.jsonl");
      int status = run("eval", "--env", "example_single_tool_call", "--model-url", model.baseUrl(), "--model", "m",
          "--model-type", "vllm_model", "--repeats", "2", "--output", output.toString());
      assertThat(status).as(command.err()).isZero();
      assertThat(command.out()).contains("10 rollouts: 0 already done, 10 succeeded, 0 failed", "mean/reward",
          "pass@2/accuracy");
      assertThat(Json.readLines(output)).hasSize(10).allSatisfy(row ->
          assertThat(row.get("reward").asDouble()).isEqualTo(1.0));
      assertThat(Files.exists(dir.resolve("eval_aggregate_metrics.json"))).isTrue();
    }
  }

  @Test
  void withoutAModelItSaysSoInOneLine() {
    assertThat(run("eval", "--env", "example_single_tool_call")).isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err().strip()).isEqualTo("error: " + EvalCommand.NO_MODEL);
  }

  @Test
  void anUnknownEnvironmentIsNamed() {
    assertThat(run("eval", "--env", "no_such_env", "--model-url", "http://127.0.0.1:9/v1", "--model", "m"))
        .isEqualTo(Main.USAGE_ERROR);
    assertThat(command.err()).contains("no environment named no_such_env");
  }

  @Test
  void metricsOfANeMoGymFileAreItsMeanReward() {
    Path file = Fixtures.environment("math_with_judge").resolve("example_rollouts.jsonl");
    assertThat(run("metrics", file.toString())).isZero();
    assertThat(command.out()).contains("mean/reward                  0.6000", "pass@1/accuracy              60.0000");
  }
}
