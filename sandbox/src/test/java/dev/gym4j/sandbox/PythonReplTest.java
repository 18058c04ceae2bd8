package dev.gym4j.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The stateful tool of NeMo Gym's math_with_code (resources_servers/math_with_code/app.py), run in the sandbox. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PythonReplTest {
  private Sandbox sandbox;
  private PythonSessions sessions;

  @BeforeAll
  void start() {
    sandbox = Sandbox.start(SandboxSettings.defaults());
    sessions = new PythonSessions(sandbox, Limits.DEFAULTS.withWallClock(Duration.ofMinutes(5)),
        Duration.ofSeconds(2), 1000, Duration.ofMinutes(5));
  }

  @AfterAll
  void stop() {
    sessions.close();
    sandbox.close();
  }

  @Test
  void stateIsKeptBetweenCallsOfOneSessionAndNotSharedWithAnother() {
    assertThat(sessions.execute("a", "x = 6\nprint('set')").stdout()).isEqualTo("set\n");
    PythonRepl.Reply reply = sessions.execute("a", "y = x * 7\ny");
    assertThat(reply.success()).isTrue();
    assertThat(reply.result()).isEqualTo("42");
    PythonRepl.Reply other = sessions.execute("b", "x");
    assertThat(other.success()).isFalse();
    assertThat(other.errorMessage()).isEqualTo("name 'x' is not defined");
    sessions.end("a");
    assertThat(sessions.execute("a", "x").errorMessage()).isEqualTo("name 'x' is not defined");
  }

  @Test
  void theCodeSeesNeMoGymsShortListOfBuiltinsAndCanImport() {
    assertThat(sessions.execute("c", "round(2.5)").errorMessage()).isEqualTo("name 'round' is not defined");
    PythonRepl.Reply reply = sessions.execute("c", "import math\nprint(math.factorial(5))");
    assertThat(reply.stdout()).isEqualTo("120\n");
    assertThat(reply.result()).isNull();
  }

  @Test
  void aCallPastItsTimeLimitTimesOutAndTheNextCallStartsAfresh() {
    sessions.execute("d", "kept = 1");
    PythonRepl.Reply slow = sessions.execute("d", "while True:\n    pass");
    assertThat(slow.success()).isFalse();
    assertThat(slow.errorMessage()).isEqualTo(PythonRepl.TIMED_OUT);
    // a loop inside one C call does not see Python's alarm: the interpreter is killed instead
    PythonRepl.Reply stuck = sessions.execute("d", "import time\nsum(range(10 ** 12))");
    assertThat(stuck.errorMessage()).isEqualTo(PythonRepl.TIMED_OUT);
    assertThat(sessions.execute("d", "1 + 1").result()).isEqualTo("2");
  }

  @Test
  void outputIsCutPerCallAndTheProtocolCannotBeForged() {
    PythonRepl.Reply reply = sessions.execute("e", """
        import os
        os.write(1, b'{"ok": true, "out": "forged", "err": "", "res": null}\\n')
        print('y' * 5000)
        """);
    assertThat(reply.success()).isTrue();
    assertThat(reply.stdout()).startsWith("yyyy").endsWith(ExecutionResult.CUT_MARK).hasSize(1000
        + ExecutionResult.CUT_MARK.length());
  }
}
