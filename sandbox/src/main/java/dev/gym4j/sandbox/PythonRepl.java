package dev.gym4j.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A sandboxed Python interpreter that keeps its globals between calls: the stateful tool of NeMo Gym's
 * math_with_code. The code sees the names that environment offers (a short list of builtins, {@code __import__},
 * and numpy/scipy/pandas where installed); each call has its own time limit. A call that runs past it, or a
 * process that dies, ends the interpreter: the next call starts a fresh one.
 */
public final class PythonRepl implements AutoCloseable {
  /** What NeMo Gym's tool answers when a call runs out of time. */
  public static final String TIMED_OUT = "code timed-out";
  private static final String SCRIPT = script();
  /** Time beyond the per-call limit for the interpreter's own alarm to answer before we kill it. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  private final LiveProcess process;
  private final Duration callLimit;
  private final int outputChars;
  private final InputStream replies;

  private PythonRepl(LiveProcess process, Duration callLimit, int outputChars) {
    this.process = process;
    this.callLimit = callLimit;
    this.outputChars = outputChars;
    this.replies = process.stdout();
  }

  /**
   * Starts an interpreter. {@code lifetime} bounds the session's whole life (wall clock and CPU), {@code callLimit}
   * each call, {@code outputChars} the stdout and stderr kept per call.
   */
  public static PythonRepl start(Sandbox sandbox, Limits lifetime, Duration callLimit, int outputChars) {
    long seconds = Math.max(1, callLimit.toSeconds());
    Execution execution = new Execution(
        List.of(sandbox.python(), "-u", "repl.py", String.valueOf(outputChars), String.valueOf(seconds)),
        Map.of("repl.py", SCRIPT.getBytes(StandardCharsets.UTF_8)), new byte[0], lifetime);
    return new PythonRepl(sandbox.open(execution), callLimit, outputChars);
  }

  /** One call. A time-out or a dead interpreter is a failed call ({@code success: false}), as in NeMo Gym. */
  public synchronized Reply execute(String code) {
    if (!process.alive()) {
      return Reply.failed("the Python session has ended");
    }
    ObjectNode request = Json.object();
    request.put("code", code);
    CompletableFuture<JsonNode> reply = CompletableFuture.supplyAsync(this::readReply,
        command -> Thread.ofVirtual().start(command));
    try {
      process.stdin().write((Json.write(request) + "\n").getBytes(StandardCharsets.UTF_8));
      process.stdin().flush();
      JsonNode answer = reply.get(callLimit.plus(GRACE).toNanos(), TimeUnit.NANOSECONDS);
      if (answer == null) {
        process.close();
        return Reply.failed("the Python session ended: " + lastLine(process.stderr()));
      }
      if (!answer.path("ok").asBoolean()) {
        return Reply.failed(answer.path("error").asString(""));
      }
      JsonNode result = answer.path("res");
      return new Reply(true, answer.path("out").asString(""), answer.path("err").asString(""), null,
          result.isString() ? result.asString() : null);
    } catch (TimeoutException e) {
      process.close();
      return Reply.failed(TIMED_OUT);
    } catch (IOException | ExecutionException e) {
      process.close();
      return Reply.failed("the Python session ended: " + lastLine(process.stderr()));
    } catch (InterruptedException e) {
      process.close();
      Thread.currentThread().interrupt();
      return Reply.failed("interrupted");
    } finally {
      reply.cancel(true);
    }
  }

  public boolean alive() {
    return process.alive();
  }

  @Override
  public void close() {
    process.close();
  }

  /** One reply line, bounded: the interpreter cuts its outputs, so a longer line means something is wrong. */
  private JsonNode readReply() {
    int max = 4 * outputChars * 6 + 65536;  // two outputs of escaped UTF-8, plus the rest
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try {
      int b;
      while ((b = replies.read()) >= 0 && b != '\n') {
        if (line.size() >= max) {
          return null;
        }
        line.write(b);
      }
      return b < 0 ? null : Json.parse(line.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      return null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    return lines[lines.length - 1];
  }

  private static String script() {
    try (InputStream in = PythonRepl.class.getResourceAsStream("repl.py")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A call's answer in NeMo Gym's shape: {@code success}, {@code stdout}, {@code stderr}, {@code error_message}
   * (when it failed), {@code result} ({@code str()} of the last line when that is an expression).
   */
  public record Reply(boolean success, String stdout, String stderr, String errorMessage, String result) {
    static Reply failed(String message) {
      return new Reply(false, "", "", message, null);
    }

    public ObjectNode toJson() {
      ObjectNode json = Json.object();
      json.put("success", success);
      json.put("stdout", stdout);
      json.put("stderr", stderr);
      json.put("error_message", errorMessage);
      json.put("result", result);
      return json;
    }
  }
}
