package dev.gym4j.environments.code_gen;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.sandbox.Execution;
import dev.gym4j.sandbox.ExecutionResult;
import dev.gym4j.sandbox.Limits;
import dev.gym4j.sandbox.Outcome;
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxedServer;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Competitive programming, LiveCodeBench style (NeMo Gym's code_gen, formerly comp_coding): the code between the
 * last two fence lines of the answer runs against the row's unit tests, standard input/output or call-based, each
 * test with its own time limit; the reward is 1.0 iff every test passes. The code runs in a sandbox of its own;
 * a checker in another holds the expected outputs and compares what the code printed or returned.
 */
@Implementation("code_gen")
public final class CodeGen extends SandboxedServer {
  private static final String CHECKER = resource(CodeGen.class, "check.py");
  private static final String CANDIDATE = resource(CodeGen.class, "candidate.py");
  private int unitTestTimeout;
  private double formatPenalty;

  @Override
  protected void configure(ObjectNode config) {
    unitTestTimeout = config.path("unit_test_timeout_secs").asInt(10);
    formatPenalty = config.path("reasoning_format_penalty").asDouble(0.0);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String modelOut = request.response().outputTextParts();
    JsonNode difficulty = request.field("verifier_metadata").path("difficulty");
    Verification zero = Verification.of(0.0).with("difficulty", difficulty.isMissingNode() ? NullNode.getInstance()
        : difficulty);
    if (modelOut.isBlank()) {
      return zero;
    }
    JsonNode tests = request.field("verifier_metadata").path("unit_tests");
    if (!tests.path("inputs").isArray() || !tests.path("outputs").isArray()) {
      throw new FieldError(List.of("verifier_metadata", "unit_tests"), "Field required: {inputs, outputs, fn_name}",
          "missing");
    }
    String code = extractCode(modelOut);
    if (code.isEmpty()) {
      return zero.with("extracted_model_output", modelOut);
    }
    long started = System.nanoTime();
    ObjectNode outcome = check(code, tests);
    double seconds = (System.nanoTime() - started) / 1e9;
    boolean violation = reasoningFormatViolation(request, modelOut);
    boolean allPassed = true;
    for (JsonNode result : outcome.get("results")) {
      allPassed &= result.isBoolean() && result.asBoolean();
    }
    Verification verification = new Verification(violation ? formatPenalty : allPassed ? 1.0 : 0.0, Json.object())
        .with("extracted_model_output", modelOut)
        .with("extracted_model_code", code)
        .with("result", outcome.get("results"))
        .with("metadata", outcome.get("metadata"))
        .with("unit_tests_time_taken", seconds)
        .with("reasoning_format_violation_rate", violation ? 1.0 : 0.0)
        .with("difficulty", difficulty.isMissingNode() ? NullNode.getInstance() : difficulty);
    return outcome.has("sandbox_outcome") ? verification.with("sandbox_outcome", outcome.get("sandbox_outcome"))
        : verification;
  }

  /** LiveCodeBench's OpenAIChat extraction: the lines between the last two lines that contain three backticks. */
  static String extractCode(String modelOut) {
    String[] lines = modelOut.split("\n", -1);
    int last = -1;
    int beforeLast = -1;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].contains("```")) {
        beforeLast = last;
        last = i;
      }
    }
    if (beforeLast < 0) {
      return "";
    }
    return String.join("\n", java.util.Arrays.asList(lines).subList(beforeLast + 1, last));
  }

  /**
   * Runs the tests; LiveCodeBench's shapes: {@code results} (True, or -2/-3/-4 at the first failure) and
   * {@code metadata}. A runner that outlives every test's time limit together is LiveCodeBench's global time-out:
   * every test counts as -1.
   */
  private ObjectNode check(String code, JsonNode tests) {
    int count = tests.get("inputs").size();
    ObjectNode spec = Json.object();
    spec.set("inputs", tests.get("inputs"));
    spec.set("outputs", tests.get("outputs"));
    spec.set("fn_name", tests.path("fn_name").isString() ? tests.get("fn_name") : NullNode.getInstance());
    spec.put("timeout", unitTestTimeout);
    long expectedBytes = 0;
    for (JsonNode output : tests.get("outputs")) {
      expectedBytes = Math.max(expectedBytes, output.asString("").length());
    }
    long outputLimit = Math.min(2 * expectedBytes + (1 << 20), 64L << 20);
    Duration global = Duration.ofSeconds((long) (unitTestTimeout + 1) * count + 5);
    Limits limits = sandbox().settings().limits().withWallClock(global).withCpu(global);
    // the expected outputs stay with the checker; the candidate gets the code and, call by call, one input
    Execution checker = new Execution(List.of(sandbox().python(), "check.py"), Map.of(
        "check.py", CHECKER.getBytes(StandardCharsets.UTF_8),
        "calls.py", Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8),
        "tests.json", Json.writeBytes(spec)), new byte[0], limits.withOutputBytes(1 << 20, 1 << 20));
    String fnName = tests.path("fn_name").isString() ? tests.get("fn_name").asString() : "";
    Execution candidate = new Execution(List.of(sandbox().python(), "candidate.py", fnName,
        String.valueOf(outputLimit)), Map.of(
        "candidate.py", CANDIDATE.getBytes(StandardCharsets.UTF_8),
        "calls.py", Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8),
        "solution.py", code.getBytes(StandardCharsets.UTF_8)), new byte[0],
        limits.withOutputBytes((int) Math.min(Integer.MAX_VALUE - 65536, 6 * outputLimit) + 65536, 1 << 20));
    ExecutionResult result = runChecked(checker, candidate);
    if (result.succeeded()) {
      return checkerResult(result);
    }
    if (result.outcome() == Outcome.EXITED) {
      // the checker runs no model code, so its failure is the server's: a failure of the rollout, never a 0
      throw new UpstreamException(UpstreamException.Kind.STATUS, "code_gen: the checker failed (exit "
          + result.exitCode() + ")", 0, null);
    }
    ObjectNode timedOut = Json.object();
    ArrayNode results = timedOut.putArray("results");
    for (int i = 0; i < count; i++) {
      results.add(-1);
    }
    timedOut.set("metadata", NullNode.getInstance());
    timedOut.put("sandbox_outcome", result.outcome().wireName());
    return timedOut;
  }

  /** {@code <think>} tags in the final answer, or more than one of either tag in the reasoning. */
  private static boolean reasoningFormatViolation(VerifyRequest request, String finalAnswer) {
    if (finalAnswer.contains("<think>") || finalAnswer.contains("</think>")) {
      return true;
    }
    StringBuilder reasoning = new StringBuilder();
    for (JsonNode item : request.json().path("response").path("output")) {
      if ("reasoning".equals(item.path("type").asString(""))) {
        for (JsonNode summary : item.path("summary")) {
          if (summary.path("text").isString()) {
            reasoning.append(summary.get("text").asString());
          }
        }
      }
    }
    return count(reasoning, "<think>") > 1 || count(reasoning, "</think>") > 1;
  }

  private static int count(CharSequence text, String tag) {
    int n = 0;
    for (int at = text.toString().indexOf(tag); at >= 0; at = text.toString().indexOf(tag, at + tag.length())) {
      n++;
    }
    return n;
  }
}
