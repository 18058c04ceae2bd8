package dev.gym4j.environments.bigcodebench;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.sandbox.CodeBlocks;
import dev.gym4j.sandbox.Execution;
import dev.gym4j.sandbox.ExecutionResult;
import dev.gym4j.sandbox.Outcome;
import dev.gym4j.sandbox.SandboxedServer;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * BigCodeBench (NeMo Gym's bigcodebench): the answer's last code block, after the task's {@code code_prompt}, runs
 * against the task's unittest {@code TestCases} in the sandbox; 1.0 iff every test passes. A task whose own
 * imports (prompt and tests) need a library the sandbox's Python lacks is skipped: a typed failure of the rollout
 * that names the libraries, never a 0. The tests must share the solution's interpreter, so the verdict is not
 * taken from it: {@link Report} decides from its one report line, checked against what only the server knows.
 */
@Implementation("bigcodebench")
public final class BigCodeBench extends SandboxedServer {
  private static final String RUNNER = resource(BigCodeBench.class, "run_unittests.py");
  private static final SecureRandom RANDOM = new SecureRandom();
  private Duration timeLimit;

  @Override
  protected void configure(ObjectNode config) {
    // BigCodeBench's limit per task: the larger of min_time_limit and gt_time_limit
    timeLimit = Duration.ofMillis(Math.round(1000 * Math.max(config.path("min_time_limit").asDouble(1.0),
        config.path("gt_time_limit").asDouble(20.0))));
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String modelOut = request.response().outputTextParts();
    JsonNode meta = request.field("verifier_metadata");
    JsonNode taskId = meta.path("task_id");
    Verification base = Verification.of(0.0).with("task_id", taskId.isMissingNode() ? NullNode.getInstance() : taskId);
    if (modelOut.isBlank()) {
      return base.with("status", "empty_output");
    }
    String extracted = extractCode(modelOut);
    if (extracted.isEmpty()) {
      return base.with("extracted_model_output", modelOut).with("status", "no_code_block");
    }
    for (String field : List.of("test", "entry_point")) {
      if (!meta.path(field).isString()) {
        throw new FieldError(List.of("verifier_metadata", field), "Field required: a string", "missing");
      }
    }
    String codePrompt = meta.path("code_prompt").asString("");
    String code = codePrompt + "\n    pass\n" + extracted;
    ObjectNode outcome = check(code, codePrompt + "\n    pass\n", meta.get("test").asString());
    String status = outcome.path("status").asString("error");
    if (status.equals("skipped")) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, "bigcodebench: skipped " + taskId.asString("")
          + ": the task needs " + outcome.at("/details/missing_libraries") + ", not installed for "
          + sandbox().python(), 0, null);
    }
    return new Verification(status.equals("pass") ? 1.0 : 0.0, Json.object())
        .with("extracted_model_output", modelOut)
        .with("extracted_model_code", extracted)
        .with("status", status)
        .with("details", outcome.path("details"))
        .with("task_id", taskId.isMissingNode() ? NullNode.getInstance() : taskId);
  }

  /** BigCodeBench's extraction: after {@code </think>}, the last {@code ```python} (else {@code ```}) block, stripped. */
  static String extractCode(String text) {
    String completion = CodeBlocks.afterThinking(text);
    // unlike the other code environments, an answer without any fence is taken whole
    return CodeBlocks.last(completion).orElse(completion).strip();
  }

  private ObjectNode check(String code, String prompt, String test) {
    ObjectNode task = Json.object();
    task.put("code", code);
    task.put("prompt", prompt);
    task.put("test_code", test);
    String nonce = HexFormat.of().formatHex(random(16));
    String canary = "c" + HexFormat.of().formatHex(random(8));
    ObjectNode run = Json.object().put("nonce", nonce).put("canary", canary);
    Execution execution = new Execution(List.of(sandbox().python(), "run_unittests.py"), Map.of(
        "run_unittests.py", RUNNER.getBytes(StandardCharsets.UTF_8), "task.json", Json.writeBytes(task)),
        (Json.write(run) + "\n").getBytes(StandardCharsets.UTF_8), sandbox().settings().limits()
        .withWallClock(timeLimit.plusSeconds(1)).withCpu(timeLimit.plusSeconds(1)));
    ExecutionResult result = run(execution);
    if (result.outcome() == Outcome.TIMEOUT || result.outcome() == Outcome.CPU_TIME) {
      return failed("timeout", "reason", result.outcome().wireName());
    }
    if (!result.succeeded()) {
      // the solution took the runner down (memory, a signal, an exit status): a failed run, as in BigCodeBench
      return failed("fail", "ALL", "the test process ended: " + result.outcome().wireName()
          + (result.signal() != 0 ? " (signal " + result.signal() + ")" : " (exit " + result.exitCode() + ")"));
    }
    return Report.judge(result.stdout(), nonce, canary, Report.testNames(test));
  }

  private static ObjectNode failed(String status, String key, String why) {
    ObjectNode failed = Json.object();
    failed.put("status", status);
    failed.putObject("details").put(key, why);
    return failed;
  }

  private static byte[] random(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return value;
  }
}
