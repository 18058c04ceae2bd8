package dev.gym4j.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A rollout that takes long shows in the progress line with its deadline, even while nothing finishes. */
class ProgressTest {
  @AfterEach
  void restore() {
    Progress.slow = Progress.SLOW;
  }

  @Test
  void aSlowRolloutIsReportedWithItsDeadlineWhileNothingFinishes() throws Exception {
    Progress.slow = Duration.ofMillis(50);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress progress = new Progress(3, new PrintStream(bytes, true, StandardCharsets.UTF_8), false,
        Duration.ofMinutes(65));
    progress.begin();
    String printed = "";
    for (int i = 0; i < 200 && !printed.contains("slowest rollout"); i++) {
      Thread.sleep(25);
      printed = bytes.toString(StandardCharsets.UTF_8);
    }
    progress.finish();
    assertThat(printed).contains("0 done, 0 failed", "| slowest rollout running 0:00:0", "of its 1:05:00 deadline");
  }

  @Test
  void quickRolloutsLeaveTheLineAsItWas() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress progress = new Progress(1, new PrintStream(bytes, true, StandardCharsets.UTF_8), false,
        Duration.ofMinutes(65));
    long id = progress.begin();
    progress.end(id);
    progress.done.incrementAndGet();
    progress.tick();
    progress.finish();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("1 done, 0 failed").doesNotContain("slowest");
  }
}
