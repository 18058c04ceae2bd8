package dev.gym4j.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A checker and the candidate it checks, each in a sandbox of its own ({@link Sandbox#runChecked}). The checker is
 * trusted code (the task's tests); it never runs the candidate's code, and the candidate never sees the checker,
 * its expected answers or its standard output. They speak only through us, one line at a time:
 *
 * <ul>
 *   <li>the checker prints {@code {"call": <request>, "timeout": <seconds>}}; the request goes to the candidate's
 *       standard input as one line, and the candidate's one-line answer comes back to the checker's standard input
 *       as {@code {"reply": "<the line, as a string>"}}, or {@code {"error": "timeout" | "ended" |
 *       "output_limit"}} when the candidate did not answer in time (it is then killed, and the next call starts
 *       a fresh one), has ended by itself (every later call fails too), or answered with a longer line than its
 *       {@code stdout_bytes} allow. We never parse what the candidate wrote;</li>
 *   <li>{@code {"restart": true}} ends the candidate; the next call starts a fresh one;</li>
 *   <li>every other line is the checker's own output, and the only place a verdict is read from.</li>
 * </ul>
 *
 * The candidate is started at the first call and killed when the checker ends. The checker's wall clock bounds the
 * whole run. {@code calls.py} (resource next to this class) is the Python side of both ends.
 */
final class CheckedRun {
  /** The Python library of both ends: the value codec, the checker's proxies, the candidate's serve loop. */
  static final String LIBRARY = resource("calls.py");
  private static final String EOF = "\u0000eof";
  private static final String TOO_LONG = "\u0000too_long";

  private final Sandbox sandbox;
  private final Execution candidateExecution;
  private final long deadlineNanos;
  private Candidate candidate;
  private boolean ended;
  private volatile SandboxException failure;

  CheckedRun(Sandbox sandbox, Execution candidate, long deadlineNanos) {
    this.sandbox = sandbox;
    this.candidateExecution = candidate;
    this.deadlineNanos = deadlineNanos;
  }

  /** One running candidate: its process and the lines it answered, read on a thread of their own. */
  private record Candidate(Sandbox.Launched launched, BlockingQueue<String> lines) {
    void kill() {
      Sandbox.killTree(launched.process());
    }
  }

  /**
   * Reads the checker's standard output line by line, answers its calls on its standard input, and keeps what
   * else it printed in {@code kept} (past its cap the checker is killed as over its output limit).
   */
  void relay(InputStream fromChecker, OutputStream toChecker, CappedOutput kept) {
    try (fromChecker; toChecker) {
      // the checker is trusted, but its lines are bounded all the same: no longer than its whole output may be
      int cap = candidateExecution.limits().stdoutBytes() + (1 << 20);
      for (String line = readLine(fromChecker, cap); line != null; line = readLine(fromChecker, cap)) {
        JsonNode message = line.startsWith("{\"call\"") || line.startsWith("{\"restart\"") ? parse(line) : null;
        if (message == null) {
          byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
          if (!kept.keep(bytes, bytes.length)) {
            return;
          }
          continue;
        }
        if (message.has("restart")) {
          end();
          continue;
        }
        double seconds = message.path("timeout").asDouble(1.0);
        ObjectNode answer = call(message.path("call"), Duration.ofMillis(Math.max(1, Math.round(seconds * 1000))));
        try {
          toChecker.write((Json.write(answer) + "\n").getBytes(StandardCharsets.UTF_8));
          toChecker.flush();
        } catch (IOException e) {
          // the checker stopped waiting (its own alarm) and may have printed its verdict: keep reading it
        }
      }
    } catch (IOException e) {
      // the checker ended or was killed: its output so far is what there is
    }
  }

  private ObjectNode call(JsonNode request, Duration timeout) {
    ObjectNode answer = Json.object();
    Candidate current;
    try {
      current = candidate();
    } catch (SandboxException e) {
      // the sandbox could not start the candidate: the run's failure, raised once the checker has ended
      failure = e;
      return answer.put("error", "ended");
    }
    if (current == null) {
      return answer.put("error", "ended");
    }
    byte[] line = (Json.write(request) + "\n").getBytes(StandardCharsets.UTF_8);
    OutputStream stdin = current.launched().process().getOutputStream();
    Thread.ofVirtual().start(() -> {
      try {
        stdin.write(line);
        stdin.flush();
      } catch (IOException e) {
        // it ended; its reader says so
      }
    });
    long left = Math.min(timeout.toNanos(), deadlineNanos - System.nanoTime());
    String reply;
    try {
      reply = left <= 0 ? null : current.lines().poll(left, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reply = null;
    }
    if (reply == null) {
      // as a per-call alarm would: this call failed, the next one finds a fresh candidate
      end();
      return answer.put("error", "timeout");
    }
    if (reply == EOF) {
      current.lines().offer(EOF);
      return answer.put("error", "ended");
    }
    if (reply == TOO_LONG) {
      current.kill();
      current.lines().offer(EOF);
      return answer.put("error", "output_limit");
    }
    return answer.put("reply", reply);
  }

  /** The running candidate, started now if there is none; null once the run has ended. */
  private synchronized Candidate candidate() {
    if (ended) {
      return null;
    }
    if (candidate == null) {
      Sandbox.Launched launched = sandbox.launchCandidate(candidateExecution);
      BlockingQueue<String> lines = new LinkedBlockingQueue<>();
      int cap = candidateExecution.limits().stdoutBytes();
      InputStream out = launched.process().getInputStream();
      Thread.ofVirtual().start(() -> {
        try (out) {
          for (String line = readLine(out, cap); ; line = readLine(out, cap)) {
            lines.add(line == null ? EOF : line);
            if (line == null || line == TOO_LONG) {
              return;
            }
          }
        } catch (IOException e) {
          lines.add(EOF);
        }
      });
      CappedOutput err = new CappedOutput(launched.process().getErrorStream(),
          candidateExecution.limits().stderrBytes(), () -> Sandbox.killTree(launched.process()));
      Thread.ofVirtual().start(err);
      candidate = new Candidate(launched, lines);
    }
    return candidate;
  }

  /** Why the candidate could not be started, when it could not: the run then has no verdict. */
  SandboxException failure() {
    return failure;
  }

  /** After the checker ended: kills the candidate and starts none again. */
  synchronized void close() {
    ended = true;
    end();
  }

  /** Kills the candidate, if one runs; the next call starts a fresh one. */
  synchronized void end() {
    if (candidate != null) {
      candidate.kill();
      sandbox.candidateEnded(candidate.launched());
      candidate = null;
    }
  }

  /** One line without its newline; null at the end of the stream, {@link #TOO_LONG} past {@code cap} bytes. */
  private static String readLine(InputStream in, int cap) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (line.size() >= cap) {
        return TOO_LONG;
      }
      line.write(b);
    }
    if (b < 0 && line.size() == 0) {
      return null;
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  private static JsonNode parse(String line) {
    try {
      JsonNode node = Json.parse(line);
      return node.isObject() ? node : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static String resource(String name) {
    try (InputStream in = CheckedRun.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
