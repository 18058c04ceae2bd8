package dev.gym4j.viewer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import dev.gym4j.json.Json;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generated rollouts in NeMo Gym's verify-response shape, for the viewer's benchmark and demos: tasks with repeats
 * (some always solved, some never), a tool call per rollout, reasoning, a Markdown answer with LaTeX, usage and
 * token counts. The same seed gives the same file.
 */
public final class SampleRollouts {
  private final int tasks;
  private final int repeats;
  private final long seed;
  private final int padding;

  /**
   * @param padding characters of extra reasoning text per row (0 for none): makes rows as large as real ones
   */
  public SampleRollouts(int tasks, int repeats, long seed, int padding) {
    this.tasks = tasks;
    this.repeats = repeats;
    this.seed = seed;
    this.padding = padding;
  }

  /** Writes the rollouts ({@code tasks × repeats} lines); a task's rollouts are consecutive. */
  public void write(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int task = 0; task < tasks; task++) {
        for (int rollout = 0; rollout < repeats; rollout++) {
          out.write(Json.write(row(task, rollout)));
          out.write('\n');
        }
      }
    }
  }

  /**
   * Writes whole tasks ({@code repeats} rollouts each, ignoring the task count given) until the file holds at
   * least {@code bytes}; returns the number of rows written.
   */
  public long writeAtLeast(Path file, long bytes) throws IOException {
    long written = 0;
    long rows = 0;
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int task = 0; written < bytes; task++) {
        for (int rollout = 0; rollout < repeats; rollout++) {
          String line = Json.write(row(task, rollout));
          out.write(line);
          out.write('\n');
          written += line.length() + 1;
          rows++;
        }
      }
    }
    return rows;
  }

  /** Writes a failures file beside a rollouts file: the failure rows of {@code count} rollouts that never finished. */
  public static void writeFailures(Path rollouts, int count) throws IOException {
    String stem = rollouts.getFileName().toString().replaceFirst("\\.jsonl?$", "");
    String[] classes = {"timeout", "judge_error", "upstream_error"};
    try (BufferedWriter out = Files.newBufferedWriter(rollouts.resolveSibling(stem + "_failures.jsonl"))) {
      for (int i = 0; i < count; i++) {
        ObjectNode row = Json.object();
        row.putObject("responses_create_params").putArray("input").addObject().put("role", "user")
            .put("content", "What is " + (i + 2) + " squared?");
        row.put("_ng_task_index", 1000 + i).put("_ng_rollout_index", 0)
            .put("_ng_failure_class", classes[i % classes.length])
            .put("_ng_failure_message", "the model server did not answer within 60 s");
        out.write(Json.write(row));
        out.write('\n');
      }
    }
  }

  /** One rollout: whether it is solved depends on the task's difficulty and the repeat. */
  ObjectNode row(int task, int rollout) {
    SplittableRandom random = new SplittableRandom(seed * 1_000_003L + task * 7919L + rollout);
    double difficulty = new SplittableRandom(seed + task).nextDouble();
    boolean solved = random.nextDouble() > difficulty;
    int a = 3 + task % 17;
    int b = 5 + task % 11;
    String city = new String[] {"Paris", "Tokyo", "Lima", "Oslo", "Cairo"}[task % 5];
    ObjectNode row = Json.object();
    ObjectNode params = row.putObject("responses_create_params");
    ArrayNode input = params.putArray("input");
    input.addObject().put("role", "system").put("content", "You are a careful assistant. Use tools when useful.");
    input.addObject().put("role", "user").put("content", "Task " + task + ": the temperature in " + city
        + " is a·b degrees with a = " + a + " and b = " + b + ". What is it? Answer in \\boxed{}.");
    ObjectNode tool = params.putArray("tools").addObject().put("type", "function").put("name", "get_weather");
    tool.put("description", "Current weather for a city");
    tool.putObject("parameters").put("type", "object").putObject("properties").putObject("city").put("type", "string");
    ObjectNode response = row.putObject("response");
    response.put("id", "resp_" + task + "_" + rollout).put("object", "response").put("model", "sample-model");
    ArrayNode output = response.putArray("output");
    output.addObject().put("type", "reasoning").putArray("summary").addObject().put("type", "summary_text")
        .put("text", "I should look up the weather, then multiply. " + "thinking ".repeat(padding / 9));
    output.addObject().put("type", "function_call").put("name", "get_weather").put("call_id", "call_" + rollout)
        .put("arguments", "{\"city\": \"" + city + "\"}");
    output.addObject().put("type", "function_call_output").put("call_id", "call_" + rollout)
        .put("output", "{\"city\": \"" + city + "\", \"sky\": \"clear\"}");
    int answer = solved ? a * b : a * b + 1 + random.nextInt(5);
    output.addObject().put("type", "message").put("role", "assistant").putArray("content").addObject()
        .put("type", "output_text").put("text", "The sky in **" + city + "** is clear.\n\nWe need $a \\cdot b = "
            + a + " \\times " + b + "$, so\n\n$$T = \\frac{" + 2 * answer + "}{2} = " + answer + "$$\n\n\\boxed{"
            + answer + "}");
    int outputTokens = 40 + random.nextInt(400) + padding / 4;
    response.putObject("usage").put("input_tokens", 120).put("output_tokens", outputTokens)
        .put("total_tokens", 120 + outputTokens);
    row.put("reward", solved ? 1.0 : 0.0);
    row.put("expected_answer", Integer.toString(a * b));
    row.put("extracted_answer", Integer.toString(answer));
    row.put("_ng_task_index", task).put("_ng_rollout_index", rollout);
    row.putObject("agent_ref").put("name", "sample_agent");
    return row;
  }
}
