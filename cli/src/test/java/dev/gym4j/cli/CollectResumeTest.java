package dev.gym4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.testing.Fixtures;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** {@code gym4j collect --resume}: what is missing is said, retried, and a damaged file is named by line. */
class CollectResumeTest {
  private static final Path EXAMPLE = Fixtures.projectRoot()
      .resolve("environments/example_single_tool_call/data/example.jsonl");

  @TempDir
  Path dir;

  @Test
  void missing_rollouts_exit_non_zero_with_count_and_reason_and_resume_retries_them_issue_14() throws Exception {
    try (WeatherStack stack = new WeatherStack(Duration.ZERO)) {
      Path output = dir.resolve("run.jsonl");
      stack.model.otherwise(request -> Answer.error(500, "{\"error\": \"engine down\"}"));
      CapturedCommand failing = new CapturedCommand();
      assertThat(failing.run(collect(stack, output, "--max-attempts", "1"))).isEqualTo(1);
      assertThat(failing.out()).contains("5 of 5 rollouts are missing from " + output + ":")
          .contains("5 model_error, e.g. ").contains("--resume");

      stack.model.otherwise(Behaviours.callToolThenAnswer(
          Answer.toolCall("get_weather", "{\"city\": \"Paris\"}"), "It is cold."));
      CapturedCommand resumed = new CapturedCommand();
      assertThat(resumed.run(collect(stack, output, "--resume"))).as(resumed.err()).isZero();
      assertThat(resumed.out()).contains("5 rollouts: 0 already done, 5 succeeded, 0 failed")
          .doesNotContain("missing");
      assertThat(Json.readLines(output)).hasSize(5);
    }
  }

  @Test
  void skip_failed_leaves_earlier_failures_and_still_exits_non_zero() throws Exception {
    try (WeatherStack stack = new WeatherStack(Duration.ZERO)) {
      Path output = dir.resolve("run.jsonl");
      stack.model.otherwise(request -> Answer.error(500, "{\"error\": \"engine down\"}"));
      new CapturedCommand().run(collect(stack, output, "--max-attempts", "1"));
      int calls = stack.model.calls();
      CapturedCommand skipping = new CapturedCommand();
      assertThat(skipping.run(collect(stack, output, "--max-attempts", "1", "--resume", "--skip-failed"))).isEqualTo(1);
      assertThat(stack.model.calls()).isEqualTo(calls);
      assertThat(skipping.out()).contains("5 of 5 rollouts are missing");
    }
  }

  @Test
  void a_damaged_middle_line_is_named_by_line_without_a_java_class_issue_14() throws Exception {
    try (WeatherStack stack = new WeatherStack(Duration.ZERO)) {
      Path output = dir.resolve("run.jsonl");
      new CapturedCommand().run(collect(stack, output));
      List<String> lines = new ArrayList<>(Files.readAllLines(output));
      lines.set(1, "{\"reward\": 1.0, \"respo");
      Files.write(output, lines);
      CapturedCommand resumed = new CapturedCommand();
      assertThat(resumed.run(collect(stack, output, "--resume"))).isEqualTo(Main.USAGE_ERROR);
      assertThat(resumed.err()).contains(output + " line 2 is not a JSON object")
          .doesNotContain("Exception").doesNotContain("null");
    }
  }

  @Test
  void rows_naming_an_agent_that_is_not_running_are_refused_before_any_rollout_runs() throws Exception {
    Path input = dir.resolve("tasks.jsonl");
    List<String> rows = new ArrayList<>();
    for (var row : Json.readLines(EXAMPLE)) {
      ((ObjectNode) row).putObject("agent_ref").put("type", "responses_api_agents").put("name",
          "lc_equivalence_rule_simple_agent");
      rows.add(Json.write(row));
    }
    Files.write(input, rows);
    try (WeatherStack stack = new WeatherStack(Duration.ZERO)) {
      CapturedCommand command = new CapturedCommand();
      int status = command.run("collect", "--head", stack.deployment.head().url().toString(), "--input",
          input.toString(), "--output", dir.resolve("run.jsonl").toString());
      assertThat(status).isEqualTo(Main.USAGE_ERROR);
      assertThat(command.err()).contains("agent_ref names an agent the deployment does not run: "
          + "lc_equivalence_rule_simple_agent (5 rollouts)");
      assertThat(stack.model.calls()).isZero();
      assertThat(dir.resolve("run_failures.jsonl")).doesNotExist();
    }
  }

  private static String[] collect(WeatherStack stack, Path output, String... more) {
    List<String> args = new ArrayList<>(List.of("collect", "--head", stack.deployment.head().url().toString(),
        "--agent", WeatherStack.AGENT, "--input", EXAMPLE.toString(), "--output", output.toString()));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }
}
