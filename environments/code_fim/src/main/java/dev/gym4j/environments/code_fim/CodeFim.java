package dev.gym4j.environments.code_fim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.sandbox.Execution;
import dev.gym4j.sandbox.ExecutionResult;
import dev.gym4j.sandbox.Outcome;
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxException;
import dev.gym4j.sandbox.SandboxSettings;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Code fill-in-the-middle (NeMo Gym's code_fim) on HumanEval-Infilling: the answer's last code block, cleaned of
 * what repeats the prefix and the suffix, is spliced between them and run with the task's tests in the sandbox;
 * 1.0 iff the program runs through.
 */
@Implementation("code_fim")
public final class CodeFim extends ResourcesServer {
  static final String EXAMPLE_PROBLEMS = "HumanEval-RandomSpanInfilling-example.jsonl";
  private static final String CHECKER = resource("check.py");
  private Sandbox sandbox;
  private Map<String, ObjectNode> problems;
  private double timeout;

  @Override
  protected void start() {
    ObjectNode config = context().config();
    timeout = config.path("timeout").asDouble(3.0);
    problems = load(config.path("problems_path").asString(null));
    SandboxSettings settings = SandboxSettings.from(config, context().name());
    if (config.has("num_processes") && !config.has("sandbox_concurrency")) {
      settings = settings.withConcurrency(config.get("num_processes").asInt(), settings.queueTimeout());
    }
    sandbox = Sandbox.start(settings);
  }

  @Override
  protected void stop() {
    if (sandbox != null) {
      sandbox.close();
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String modelOut = request.response().outputTextParts();
    JsonNode taskId = request.field("verifier_metadata").path("task_id");
    if (!taskId.isString()) {
      throw new FieldError(List.of("verifier_metadata", "task_id"), "Field required: a string", "missing");
    }
    ObjectNode problem = problems.get(taskId.asString());
    if (problem == null) {
      throw new FieldError(List.of("verifier_metadata", "task_id"), "unknown task " + taskId.asString()
          + " (set problems_path to the HumanEval-Infilling split's file)", "value_error");
    }
    if (modelOut.isEmpty()) {
      return Verification.of(0.0);
    }
    String code = extractCode(modelOut);
    if (code.isEmpty()) {
      return Verification.of(0.0).with("extracted_model_output", modelOut);
    }
    String prefix = problem.get("prompt").asString();
    String suffix = problem.get("suffix").asString();
    String completion = postprocess(code, prefix, suffix);
    String program = prefix + completion + suffix + "\n" + problem.get("test").asString() + "\n" + "check("
        + problem.get("entry_point").asString() + ")";
    String result = run(program);
    boolean passed = result.equals("passed");
    return Verification.of(passed ? 1.0 : 0.0)
        .with("extracted_model_output", modelOut)
        .with("extracted_model_code", code)
        .with("completion", completion)
        .with("status", result)
        .with("passed", passed)
        .with("metadata", NullNode.getInstance());
  }

  /** After {@code </think>}, the last {@code ```python} (else {@code ```}) block, unstripped; empty if unclosed. */
  static String extractCode(String text) {
    String completion = text.replace("\r", "");
    int think = completion.indexOf("</think>");
    if (think >= 0) {
      completion = completion.substring(think + "</think>".length());
    }
    int start = completion.lastIndexOf("```python");
    int fence = "```python".length();
    if (start < 0) {
      start = completion.lastIndexOf("```");
      fence = 3;
    }
    if (start < 0) {
      return "";
    }
    String rest = completion.substring(start + fence);
    int end = rest.indexOf("```");
    return end < 0 ? "" : rest.substring(0, end);
  }

  /** One leading newline dropped; then what repeats the prefix's end or the suffix's start is cut. */
  static String postprocess(String code, String prefix, String suffix) {
    String completion = code.startsWith("\n") ? code.substring(1) : code;
    completion = cutRepeatedPrefix(prefix, completion);
    return cutRepeatedSuffix(completion, suffix);
  }

  /** The longest end of {@code preceding} that {@code following} starts with is cut from {@code following}. */
  static String cutRepeatedPrefix(String preceding, String following) {
    for (int i = Math.min(preceding.length(), following.length()); i > 0; i--) {
      String overlap = preceding.substring(preceding.length() - i);
      if (overlap.isBlank() && !overlap.contains("\n")) {
        continue;
      }
      if (following.startsWith(overlap)) {
        return following.substring(i);
      }
    }
    return following;
  }

  /** The longest start of {@code following} that {@code preceding} ends with is cut from {@code preceding}. */
  static String cutRepeatedSuffix(String preceding, String following) {
    for (int i = Math.min(preceding.length(), following.length()); i > 0; i--) {
      String overlap = following.substring(0, i);
      if (overlap.isBlank() && !overlap.contains("\n")) {
        continue;
      }
      if (preceding.endsWith(overlap)) {
        return preceding.substring(0, preceding.length() - i);
      }
    }
    return preceding;
  }

  private String run(String program) {
    ObjectNode settings = Json.object();
    settings.put("timeout", timeout);
    Duration wall = Duration.ofMillis(Math.round(timeout * 1000) + 2000);
    Execution execution = new Execution(List.of(sandbox.python(), "check.py"), Map.of(
        "check.py", CHECKER.getBytes(StandardCharsets.UTF_8),
        "program.py", program.getBytes(StandardCharsets.UTF_8),
        "settings.json", Json.writeBytes(settings)), new byte[0],
        sandbox.settings().limits().withWallClock(wall).withCpu(wall.plusSeconds(1)));
    ExecutionResult result;
    try {
      result = sandbox.run(execution);
    } catch (SandboxException e) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "code_fim: " + e.getMessage(), 0, e);
    }
    if (result.succeeded() && !result.stdout().isBlank()) {
      String[] lines = result.stdout().strip().split("\n");
      return Json.parse(lines[lines.length - 1]).path("result").asString("failed: no result");
    }
    if (result.outcome() == Outcome.TIMEOUT || result.outcome() == Outcome.CPU_TIME) {
      return "timed out";
    }
    // the program took the checker down with it (memory, a signal, os._exit): a failed run
    return "failed: the program ended the checker (" + result.outcome().wireName() + ")";
  }

  private Map<String, ObjectNode> load(String path) {
    Map<String, ObjectNode> byId = new HashMap<>();
    try (InputStream raw = path == null ? CodeFim.class.getResourceAsStream(EXAMPLE_PROBLEMS)
        : Files.newInputStream(Path.of(path));
        InputStream in = path != null && path.endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (!line.isBlank()) {
          ObjectNode problem = (ObjectNode) Json.parse(line);
          byId.put(problem.get("task_id").asString(), problem);
        }
      }
    } catch (IOException e) {
      throw new ConfigException(context().path("problems_path") + ": cannot read " + path + ": " + e.getMessage(), e);
    }
    return byId;
  }

  private static String resource(String name) {
    try (InputStream in = CodeFim.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
