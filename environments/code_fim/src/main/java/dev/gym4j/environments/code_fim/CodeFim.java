package dev.gym4j.environments.code_fim;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.sandbox.CodeBlocks;
import dev.gym4j.sandbox.Execution;
import dev.gym4j.sandbox.ExecutionResult;
import dev.gym4j.sandbox.Limits;
import dev.gym4j.sandbox.Outcome;
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxedServer;
import dev.gym4j.sandbox.TaskFile;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Code fill-in-the-middle (NeMo Gym's code_fim) on HumanEval-Infilling: the answer's last code block, cleaned of
 * what repeats the prefix and the suffix, is spliced between them and checked by the task's tests; 1.0 iff they
 * pass. The program runs in a sandbox of its own and the tests in another (see {@link #check}).
 */
@Implementation("code_fim")
public final class CodeFim extends SandboxedServer {
  static final String EXAMPLE_PROBLEMS = "HumanEval-RandomSpanInfilling-example.jsonl";
  /**
   * NeMo Gym's splits (resources_servers/code_fim/app.py, {@code _SUPPORTED_SPLITS}) and the name each has in
   * HumanEval-Infilling: its release file {@code HumanEval-<name>.jsonl.gz} and its task ids {@code <name>/…}.
   */
  static final Map<String, String> SPLITS = Map.of("single_line", "SingleLineInfilling",
      "multi_line", "MultiLineInfilling", "random_span", "RandomSpanInfilling",
      "random_span_light", "RandomSpanInfillingLight");
  private static final String CHECKER = resource(CodeFim.class, "check.py");
  private static final String CANDIDATE = resource(CodeFim.class, "candidate.py");
  private TaskFile problems;
  private String split;
  private double timeout;

  @Override
  protected void configure(ObjectNode config) {
    timeout = config.path("timeout").asDouble(3.0);
    split = config.path("split").asString("random_span");
    String name = SPLITS.get(split);
    if (name == null) {
      throw new ConfigException(context().path("split") + ": expected one of " + new TreeSet<>(SPLITS.keySet())
          + ", got " + split);
    }
    problems = problems(config.path("problems_path").asString(null), name);
  }

  /**
   * The split's problems: from {@code problems_path}, a split file or a folder holding HumanEval-Infilling's
   * release files (the split picks {@code HumanEval-<name>.jsonl.gz}, or {@code .jsonl}); unset, the five
   * random_span problems of the example rows. Every task id must belong to the split, so a file of another split
   * is a config error, not wrong rewards.
   */
  private TaskFile problems(String path, String name) {
    String key = context().path("problems_path");
    TaskFile found;
    if (path == null) {
      if (!split.equals("random_span")) {
        throw new ConfigException(key + ": split " + split + " needs the split's file (HumanEval-" + name
            + ".jsonl.gz); only random_span's example problems are built in");
      }
      found = TaskFile.resource(CodeFim.class, EXAMPLE_PROBLEMS);
    } else {
      Path file = Path.of(path);
      if (Files.isDirectory(file)) {
        Path gz = file.resolve("HumanEval-" + name + ".jsonl.gz");
        file = Files.exists(gz) ? gz : file.resolve("HumanEval-" + name + ".jsonl");
      }
      found = TaskFile.read(file, key);
    }
    for (String taskId : found.ids()) {
      if (!taskId.startsWith(name + "/")) {
        throw new ConfigException(key + ": task " + taskId + " is not of split " + split + " (" + name + "/…)");
      }
    }
    return found;
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String modelOut = request.response().outputTextParts();
    ObjectNode problem = problems.task(request, "split " + split);
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
    String result = check(prefix + completion + suffix, problem.get("test").asString(),
        problem.get("entry_point").asString());
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
    return CodeBlocks.last(CodeBlocks.afterThinking(text)).orElse("");
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

  /**
   * HumanEval-Infilling's check, split in two sandboxes: the candidate's program runs in one and answers calls of
   * its functions; the task's test runs in the other and calls them through proxies. Only the test's process
   * prints the result, and nothing of the candidate's process reaches it but plain values.
   */
  private String check(String program, String test, String entryPoint) {
    ObjectNode settings = Json.object();
    settings.put("timeout", timeout);
    settings.put("entry_point", entryPoint);
    Duration wall = Duration.ofMillis(Math.round(timeout * 1000) + 2000);
    Limits limits = sandbox().settings().limits().withWallClock(wall).withCpu(wall.plusSeconds(1));
    Execution checker = new Execution(List.of(sandbox().python(), "check.py"), Map.of(
        "check.py", CHECKER.getBytes(StandardCharsets.UTF_8),
        "calls.py", Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8),
        "program.py", program.getBytes(StandardCharsets.UTF_8),
        "test.py", test.getBytes(StandardCharsets.UTF_8),
        "settings.json", Json.writeBytes(settings)), new byte[0], limits);
    Execution candidate = new Execution(List.of(sandbox().python(), "candidate.py"), Map.of(
        "candidate.py", CANDIDATE.getBytes(StandardCharsets.UTF_8),
        "calls.py", Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8),
        "program.py", program.getBytes(StandardCharsets.UTF_8)), new byte[0], limits);
    ExecutionResult result = runChecked(checker, candidate);
    if (result.succeeded()) {
      return checkerResult(result).path("result").asString("failed: no result");
    }
    if (result.outcome() == Outcome.TIMEOUT || result.outcome() == Outcome.CPU_TIME) {
      return "timed out";
    }
    // the checker runs no model code, so its failure is the server's, never a 0
    throw new UpstreamException(UpstreamException.Kind.STATUS, "code_fim: the checker failed ("
        + result.outcome().wireName() + ", exit " + result.exitCode() + ")", 0, null);
  }
}
