package dev.gym4j.environments.evalplus;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxedServer;
import dev.gym4j.sandbox.TaskFile;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * EvalPlus (NeMo Gym's evalplus): function completion checked against HumanEval+ base and plus inputs. The
 * answer's last code block (after the task's prompt when it does not start with it) runs in a sandbox of its own
 * and is called, input by input, from a checker in another; the expected outputs and reference times come from
 * the canonical solution, run in the checker first, and never reach the candidate. The reward is 1.0 iff
 * both the base and the plus checks pass.
 */
@Implementation("evalplus")
public final class EvalPlus extends SandboxedServer {
  /**
   * NeMo Gym's datasets and the problems built in for each when {@code problems_path} is unset: HumanEval+ v0.1.10
   * HumanEval/0 to /4 (the example rows' tasks), and MBPP+ Mbpp/2, /3, /4, /6, /7 (see the README and NOTICE).
   */
  static final Map<String, String> EXAMPLE_PROBLEMS = Map.of("humaneval", "HumanEvalPlus-v0.1.10-example.jsonl",
      "mbpp", "MbppPlus-example.jsonl");
  private static final String CHECKER = resource(EvalPlus.class, "check.py");
  private static final String CANDIDATE = resource(EvalPlus.class, "candidate.py");
  private TaskFile problems;
  private String dataset;
  private ObjectNode settings;

  @Override
  protected void configure(ObjectNode config) {
    dataset = config.path("dataset").asString("humaneval");
    if (!EXAMPLE_PROBLEMS.containsKey(dataset)) {
      throw new ConfigException(context().path("dataset") + ": expected humaneval or mbpp, got " + dataset);
    }
    String path = config.path("problems_path").asString(null);
    problems = path == null ? TaskFile.resource(EvalPlus.class, EXAMPLE_PROBLEMS.get(dataset))
        : TaskFile.read(Path.of(path), context().path("problems_path"));
    settings = Json.object();
    settings.put("dataset", dataset);
    settings.put("min_time_limit", config.path("min_time_limit").asDouble(1.0));
    settings.put("gt_time_limit_factor", config.path("gt_time_limit_factor").asDouble(4.0));
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String modelOut = request.response().outputTextParts();
    ObjectNode problem = problems.task(request, "dataset " + dataset);
    if (modelOut.isBlank()) {
      return Verification.of(0.0);
    }
    String code = extractCode(modelOut);
    if (code.isEmpty()) {
      return Verification.of(0.0).with("extracted_model_output", modelOut);
    }
    String prompt = problem.get("prompt").asString();
    String solution = code.startsWith(prompt) ? code : prompt + code;
    JsonNode result = run(problem, solution);
    boolean base = "pass".equals(result.at("/base/0").asString(""));
    boolean plus = base && "pass".equals(result.at("/plus/0").asString(""));
    ObjectNode metadata = Json.object();
    metadata.set("base_details", result.at("/base/1"));
    metadata.set("plus_details", result.at("/plus/1"));
    return Verification.of(plus ? 1.0 : 0.0)
        .with("extracted_model_output", modelOut)
        .with("extracted_model_code", code)
        .with("base_status", result.at("/base/0"))
        .with("plus_status", result.at("/plus/0"))
        .with("is_correct", base)
        .with("is_correct_plus", plus)
        .with("metadata", metadata);
  }

  /** The last {@code ```python} block (else the last {@code ```} block), stripped; empty without a closing fence. */
  static String extractCode(String text) {
    return CodeBlocks.last(text).orElse("").strip();
  }

  private JsonNode run(ObjectNode problem, String solution) {
    // the checker's own budget per phase is at most 60 s + 2, as EvalPlus's; the canonical runs come first
    Duration wall = Duration.ofSeconds(2 * 62 + 30);
    Limits limits = sandbox().settings().limits().withWallClock(wall).withCpu(wall);
    Execution checker = new Execution(List.of(sandbox().python(), "check.py"), Map.of(
        "check.py", CHECKER.getBytes(StandardCharsets.UTF_8),
        "calls.py", Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8),
        "problem.json", Json.writeBytes(problem),
        "settings.json", Json.writeBytes(settings)), new byte[0], limits.withOutputBytes(1 << 20, 1 << 20));
    // the candidate's answers are bounded per line: 8 MiB holds the largest plus outputs
    Execution candidate = new Execution(List.of(sandbox().python(), "candidate.py"), Map.of(
        "candidate.py", CANDIDATE.getBytes(StandardCharsets.UTF_8),
        "calls.py", Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8),
        "solution.py", solution.getBytes(StandardCharsets.UTF_8)), new byte[0],
        limits.withOutputBytes(8 << 20, 1 << 20));
    ExecutionResult result = runChecked(checker, candidate);
    if (!result.succeeded()) {
      // the canonical solution or the checker failed, never the candidate's code (which runs apart)
      throw new UpstreamException(UpstreamException.Kind.STATUS, "evalplus: the checker failed ("
          + result.outcome().wireName() + ", exit " + result.exitCode() + ")", 0, null);
    }
    return checkerResult(result);
  }
}
