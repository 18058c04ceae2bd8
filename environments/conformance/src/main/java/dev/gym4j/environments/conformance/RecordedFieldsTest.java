package dev.gym4j.environments.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link RecordedRolloutsTest} plus every field NeMo Gym's verify wrote: each recorded rollout is sent
 * without the fields its verify added ({@link #verifyFields()}), so our server must compute them, and the
 * answer of {@code /verify} and of the live replay must carry each with the recorded value (numbers to
 * 1e-9). The conformance figure, rows reproduced / rows recorded, is printed after the run.
 */
public abstract class RecordedFieldsTest extends RecordedRolloutsTest {
  private final AtomicInteger recorded = new AtomicInteger();
  private final AtomicInteger reproduced = new AtomicInteger();

  /** The fields NeMo Gym's verify response adds to the request: its response model's own fields. */
  protected abstract List<String> verifyFields();

  /**
   * The value NeMo Gym's current code writes for a field; by default the recorded one (a missing node when
   * the recording has no such field: then the field need only be present). A subclass overrides this where
   * a recording disagrees with the current code, saying why.
   */
  protected JsonNode expectedField(String file, int line, String field, JsonNode recorded) {
    return recorded.path(field);
  }

  /**
   * Recorded rollouts this port does not reproduce, left out of {@link #rolloutFiles()}, each with its
   * reason; they count as recorded and not reproduced in the printed figure.
   */
  protected List<String> notReproduced() {
    return List.of();
  }

  @TestFactory
  Stream<DynamicTest> verifyAndReplayWriteEveryRecordedField() {
    List<DynamicTest> tests = new ArrayList<>();
    for (String file : rolloutFiles()) {
      Path taskPath = fixture(taskFile(file));
      List<JsonNode> tasks = Files.exists(taskPath) ? Json.readLines(taskPath) : List.of();
      List<JsonNode> rows = EnvironmentHarness.joined(Json.readLines(fixture(file)), tasks);
      for (int i = 0; i < rows.size(); i++) {
        int line = i + 1;
        JsonNode row = prepare(rows.get(i));
        recorded.incrementAndGet();
        tests.add(DynamicTest.dynamicTest(file + " line " + line, () -> {
          ObjectNode task = ((ObjectNode) row).deepCopy();
          task.remove(verifyFields());
          assertFields(file, line, row, harness().verify(task), "verify");
          if (replayable(row)) {
            assertFields(file, line, row, replaying().replay(task), "replay");
          }
          reproduced.incrementAndGet();
        }));
      }
    }
    return tests.stream();
  }

  private void assertFields(String file, int line, JsonNode row, JsonNode verdict, String via) {
    String where = file + " line " + line + " (" + via + ")";
    assertThat(verdict.path("reward").asDouble(Double.NaN)).as("%s reward", where)
        .isCloseTo(expectedReward(file, line, row), within(1e-9));
    for (String field : verifyFields()) {
      JsonNode expected = expectedField(file, line, field, row);
      JsonNode actual = verdict.path(field);
      assertThat(actual.isMissingNode()).as("%s has %s", where, field).isFalse();
      if (!expected.isMissingNode()) {
        assertThat(same(expected, actual)).as("%s %s: expected %s, got %s", where, field, expected, actual).isTrue();
      }
    }
  }

  /** JSON equality with numbers compared by value, to 1e-9 (Python writes 1.0 where we may write 1). */
  static boolean same(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return Math.abs(a.asDouble() - b.asDouble()) <= 1e-9;
    }
    if (a.isArray() && b.isArray() || a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      if (a.isArray()) {
        for (int i = 0; i < a.size(); i++) {
          if (!same(a.get(i), b.get(i))) {
            return false;
          }
        }
        return true;
      }
      for (var entry : a.properties()) {
        if (!b.has(entry.getKey()) || !same(entry.getValue(), b.get(entry.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  @AfterAll
  void printConformance() {
    System.out.printf("conformance %s: %d/%d recorded rollouts reproduced (reward and every verify field, "
        + "through /verify and the live replay)%n", environment(), reproduced.get(),
        recorded.get() + notReproduced().size());
    notReproduced().forEach(reason -> System.out.printf("  not reproduced: %s%n", reason));
  }
}
