package dev.gym4j.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/** A checker and a hostile candidate, each in a real bubblewrap sandbox, speaking only through the server. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckedRunTest {
  /** Calls f(1, 2) three times with a one-second limit and prints what each call gave, as one JSON line. */
  private static final String CHECKER = """
      import json, calls
      candidate = calls.Candidate()
      f = candidate.function("f", lambda: 1.0)
      seen = []
      for _ in range(3):
          try:
              value = f(1, 2)
              seen.append([type(value).__name__, value == 3])
          except calls.CandidateFailed as e:
              seen.append(["failed", e.reason])
          except Exception as e:
              seen.append(["raised", type(e).__name__])
      print(json.dumps(seen))
      """;
  private Sandbox sandbox;

  @BeforeAll
  void start() {
    sandbox = Sandbox.start(SandboxSettings.defaults().withConcurrency(2, Duration.ofSeconds(120)));
  }

  @AfterAll
  void stop() {
    sandbox.close();
  }

  private JsonNode check(String candidateSource) {
    Limits limits = Limits.DEFAULTS.withWallClock(Duration.ofSeconds(20));
    byte[] library = Sandbox.CALLS_LIBRARY.getBytes(StandardCharsets.UTF_8);
    Execution checker = new Execution(List.of(sandbox.python(), "check.py"), Map.of("check.py",
        CHECKER.getBytes(StandardCharsets.UTF_8), "calls.py", library), new byte[0], limits);
    Execution candidate = new Execution(List.of(sandbox.python(), "candidate.py"), Map.of("candidate.py",
        ("import calls\ncalls.serve_functions(open('solution.py').read())\n").getBytes(StandardCharsets.UTF_8),
        "calls.py", library, "solution.py", candidateSource.getBytes(StandardCharsets.UTF_8)), new byte[0],
        limits.withOutputBytes(4096, 4096));
    ExecutionResult result = sandbox.runChecked(checker, candidate);
    assertThat(result.succeeded()).as(result.stderr()).isTrue();
    String[] lines = result.stdout().strip().split("\n");
    assertThat(lines).as("only the checker's own line").hasSize(1);
    return Json.parse(lines[0]);
  }

  @Test
  void anHonestCandidateIsCalledAndItsPrintsNeverReachTheChecker() {
    assertThat(check("def f(a, b):\n    print('[[\"int\", true]]')\n    return a + b\n").toString())
        .isEqualTo("[[\"int\",true],[\"int\",true],[\"int\",true]]");
  }

  @Test
  void anObjectOfTheCandidatesOwnNeverReachesTheChecker() {
    String always = "class A:\n    def __eq__(self, o):\n        return True\ndef f(a, b):\n    return A()\n";
    assertThat(check(always).toString()).isEqualTo("[[\"raised\",\"TypeError\"],[\"raised\",\"TypeError\"],"
        + "[\"raised\",\"TypeError\"]]");
    String subclass = "class I(int):\n    def __eq__(self, o):\n        return True\ndef f(a, b):\n    return I(7)\n";
    assertThat(check(subclass).toString()).isEqualTo("[[\"int\",false],[\"int\",false],[\"int\",false]]");
  }

  @Test
  void aForgedAnswerOnTheChannelIsOnlyAValueAndAnEarlyExitFailsEveryLaterCall() {
    // the answer channel is the candidate's own: a line written ahead is one answer, a value, and no verdict
    String forge = """
        import os
        for fd in range(1, 16):
            try:
                os.write(fd, b'{"value": 3}\\n[[\"int\", true]]\\n')
            except OSError:
                pass
        os._exit(0)
        """;
    assertThat(check(forge).toString()).isEqualTo("[[\"int\",true],[\"failed\",\"malformed\"],"
        + "[\"failed\",\"ended\"]]");
    String spoof = "import sys\ndef f(a, b):\n    sys.__stdout__.write('not json\\n')\n    return 3\n";
    assertThat(check("def f(a, b):\n    return float('nan')\n").toString())
        .isEqualTo("[[\"float\",false],[\"float\",false],[\"float\",false]]");
    assertThat(check(spoof).toString()).contains("int");
  }

  @Test
  void aCallPastItsTimeIsKilledAndTheNextCallGetsAFreshCandidate() {
    String slowOnce = """
        import os
        def f(a, b):
            if not os.path.exists('/tmp/slept'):
                open('/tmp/slept', 'w').close()
                while True:
                    pass
            return a + b
        """;
    // /tmp is the candidate's own: a fresh candidate has a fresh one, so every call runs out of time
    assertThat(check(slowOnce).toString()).isEqualTo("[[\"failed\",\"timeout\"],[\"failed\",\"timeout\"],"
        + "[\"failed\",\"timeout\"]]");
    String longAnswer = "def f(a, b):\n    return 'x' * 100000\n";
    assertThat(check(longAnswer).toString()).isEqualTo("[[\"failed\",\"output_limit\"],[\"failed\",\"ended\"],"
        + "[\"failed\",\"ended\"]]");
  }
}
