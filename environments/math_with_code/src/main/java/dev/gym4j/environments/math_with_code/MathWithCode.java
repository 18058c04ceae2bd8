package dev.gym4j.environments.math_with_code;

import java.time.Duration;

import dev.gym4j.json.Json;
import dev.gym4j.math.MathVerifier;
import dev.gym4j.resources.Description;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.sandbox.Limits;
import dev.gym4j.sandbox.PythonRepl;
import dev.gym4j.sandbox.PythonSessions;
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxException;
import dev.gym4j.sandbox.SandboxedServer;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Math with a Python tool (NeMo Gym's math_with_code): the model calls {@code execute_python} as often as it
 * likes, in one interpreter per rollout that keeps its variables between calls and runs in the sandbox; the
 * rollout is right when the last {@code \boxed{}} of its final answer equals {@code expected_result}.
 */
@Implementation("math_with_code")
public final class MathWithCode extends SandboxedServer {
  private PythonSessions sessions;

  public record ExecutePython(@Description("The Python code to execute for the calculation.") String code) {}

  public record Nothing() {}

  @Override
  protected void started(Sandbox sandbox) {
    var config = context().config();
    Duration perCall = Duration.ofSeconds(config.path("max_execution_time").asLong(10));
    // the interpreter of one rollout lives at most this long, whatever it does
    Limits lifetime = sandbox.settings().limits().withWallClock(Duration.ofSeconds(
        config.path("session_lifetime_seconds").asLong(1800))).withCpu(Duration.ofSeconds(
        config.path("session_cpu_seconds").asLong(600)));
    sessions = new PythonSessions(sandbox, lifetime, perCall, config.path("max_output_chars").asInt(65536),
        Duration.ofSeconds(config.path("session_ttl_seconds").asLong(DEFAULT_SESSION_TTL.toSeconds())));
  }

  /**
   * The rollout's interpreter ends with its session, however the session ended: verified, closed by an agent
   * whose rollout failed, idle past session_ttl_seconds or evicted. NeMo Gym's math_with_code keeps it until
   * end_session, verify or the server stops.
   */
  @Override
  protected void sessionEnded(String sessionId) {
    if (sessions != null) {
      sessions.end(sessionId);
    }
  }

  @Override
  protected void stop() {
    if (sessions != null) {
      sessions.close();
    }
    super.stop();
  }

  @Tool(description = "Execute Python code to perform calculations. You have access to numpy, scipy, pandas and "
      + "basic math operations.")
  public ObjectNode executePython(ExecutePython request, Session session) {
    try {
      return sessions.execute(session.id(), request.code() == null ? "" : request.code()).toJson();
    } catch (SandboxException e) {
      throw upstream(e);
    }
  }

  @Tool(description = "End this rollout's Python session.")
  public ObjectNode endSession(Nothing nothing, Session session) {
    sessions.end(session.id());
    return new PythonRepl.Reply(true, "", "", null, null).toJson();
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    try {
      String expected = request.field("expected_result").asString(null);
      if (expected == null) {
        throw new dev.gym4j.json.FieldError(java.util.List.of("expected_result"), "Field required: a string",
            "missing");
      }
      String actual = answer(request.json().path("response").path("output"));
      boolean accuracy = answersMatch(actual, expected);
      return Verification.of(accuracy ? 1.0 : 0.0).with("extracted_answer", actual == null
          ? tools.jackson.databind.node.NullNode.getInstance() : Json.toTree(actual)).with("accuracy", accuracy);
    } finally {
      sessions.end(session.id());
    }
  }

  /** The last box of the last assistant message that has one; failing that, of the last tool stdout that has one. */
  static String answer(JsonNode output) {
    for (int i = output.size() - 1; i >= 0; i--) {
      JsonNode item = output.get(i);
      if ("message".equals(item.path("type").asString("")) && "assistant".equals(item.path("role").asString(""))) {
        StringBuilder text = new StringBuilder();
        for (JsonNode content : item.path("content")) {
          if ("output_text".equals(content.path("type").asString(""))) {
            text.append(content.path("text").asString(""));
          }
        }
        String boxed = lastBoxed(text.toString());
        if (boxed != null) {
          return boxed;
        }
      }
    }
    for (int i = output.size() - 1; i >= 0; i--) {
      JsonNode item = output.get(i);
      if ("function_call_output".equals(item.path("type").asString(""))) {
        String boxed = lastBoxed(toolStdout(item.path("output").asString("")));
        if (boxed != null) {
          return boxed;
        }
      }
    }
    return null;
  }

  /** The {@code stdout} of a tool answer in JSON; the raw text when it is not a JSON object. */
  private static String toolStdout(String output) {
    try {
      JsonNode parsed = Json.parse(output);
      if (parsed.isObject()) {
        JsonNode stdout = parsed.path("stdout");
        return stdout.isMissingNode() ? "" : stdout.isString() ? stdout.asString() : stdout.toString();
      }
    } catch (RuntimeException e) {
      // not JSON: the text itself
    }
    return output;
  }

  /** The content of the last {@code \boxed{…}}, braces balanced, stripped; null when unclosed or empty. */
  static String lastBoxed(String text) {
    String marker = "\\boxed{";
    int at = text.lastIndexOf(marker);
    if (at < 0) {
      return null;
    }
    int start = at + marker.length();
    int depth = 1;
    int i = start;
    for (; i < text.length() && depth > 0; i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}') {
        depth--;
      }
    }
    if (depth != 0) {
      return null;
    }
    String content = text.substring(start, i - 1).strip();
    return content.isEmpty() ? null : content;
  }

  static boolean answersMatch(String actual, String expected) {
    if (actual == null) {
      return false;
    }
    String a = normalize(actual);
    String e = normalize(expected);
    if (a.equals(e)) {
      return true;
    }
    try {
      double fa = pythonFloat(a);
      double fe = pythonFloat(e);
      return Math.abs(fa - fe) < 1e-6 * Math.max(1.0, Math.abs(fe));
    } catch (NumberFormatException ex) {
      return false;
    }
  }

  /** Strip; unwrap {@code \(…\)}, then {@code $…$}, then {@code \text{…}}; collapse whitespace. */
  static String normalize(String answer) {
    String s = MathVerifier.stripMathDelimiters(answer);
    if (s.startsWith("\\text{") && s.endsWith("}")) {
      s = s.substring(6, s.length() - 1).strip();
    }
    return String.join(" ", s.strip().split("\\s+"));
  }

  /** Python's {@code float()} on a plain decimal: digits with underscores between them, inf and nan included. */
  private static double pythonFloat(String text) {
    String s = text.strip();
    if (!s.matches("[+-]?(\\d(_?\\d)*(\\.(\\d(_?\\d)*)?)?|\\.\\d(_?\\d)*)([eE][+-]?\\d(_?\\d)*)?")
        && !s.toLowerCase(java.util.Locale.ROOT).matches("[+-]?(inf|infinity|nan)")) {
      throw new NumberFormatException(s);
    }
    String lower = s.toLowerCase(java.util.Locale.ROOT).replace("_", "");
    if (lower.contains("inf")) {
      return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (lower.contains("nan")) {
      return Double.NaN;
    }
    return Double.parseDouble(lower);
  }
}
