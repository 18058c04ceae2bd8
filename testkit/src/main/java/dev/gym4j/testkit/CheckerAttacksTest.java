package dev.gym4j.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A code environment against model-written code that attacks its checker: every file of the module's
 * {@code src/test/resources/checker-attacks/} is one whole model answer, played at the real {@code /verify} (the
 * real sandbox runs it) and expected to score 0, the reward the answer earns as code. A file starts with
 * {@code key: value} lines, then a blank line, then the answer: {@code attack:} says what it tries, {@code row:}
 * picks the task it is played against ({@link #row}), and {@code expect: 1.0} marks a control, an honest answer
 * that must score, so the corpus is known to reach a checker that can pass. The first attack is also played
 * through the agent's {@code /run} with a scripted model giving the answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CheckerAttacksTest {
  private static final Path CORPUS = Path.of("src/test/resources/checker-attacks");
  private EnvironmentHarness harness;

  /** One file of the corpus. */
  public record Attack(String file, String attack, String row, double expect, String answer) {}

  protected abstract String environment();

  /** The task row an attack is played against, by the attack's {@code row:} ("" when it names none). */
  protected abstract ObjectNode row(String kind);

  protected String[] overrides() {
    return new String[0];
  }

  protected final EnvironmentHarness harness() {
    return harness;
  }

  @BeforeAll
  void startEnvironment() {
    harness = EnvironmentHarness.start(environment(), overrides());
  }

  @AfterAll
  void stopEnvironment() {
    if (harness != null) {
      harness.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyAttackScoresZeroAtVerify() {
    List<Attack> attacks = corpus();
    assertThat(attacks.stream().filter(a -> a.expect() == 0.0).count()).as("attacks").isGreaterThanOrEqualTo(8);
    assertThat(attacks.stream().filter(a -> a.expect() > 0.0)).as("a control that must score").isNotEmpty();
    return attacks.stream().map(attack -> DynamicTest.dynamicTest(attack.file() + ": " + attack.attack(), () -> {
      ObjectNode request = answered(row(attack.row()), attack.answer());
      HttpReply reply = harness.post("/verify", request, Map.of());
      assertThat(reply.status()).as(reply.text()).isEqualTo(200);
      assertThat(reply.json().get("reward").asDouble()).as(reply.text()).isEqualTo(attack.expect());
    }));
  }

  @Test
  void anAttackThroughTheAgentsRunScoresZero() {
    Attack attack = corpus().stream().filter(a -> a.expect() == 0.0).findFirst().orElseThrow();
    harness.model().enqueue(Answer.text(attack.answer()));
    JsonNode result = harness.replay(answered(row(attack.row()), "unused"));
    assertThat(result.get("reward").asDouble()).as(result.toString()).isZero();
    assertThat(harness.model().calls()).as("the model was asked").isPositive();
  }

  /** The corpus, by file name. */
  public static List<Attack> corpus() {
    List<Attack> attacks = new ArrayList<>();
    try (Stream<Path> files = Files.list(CORPUS)) {
      for (Path file : files.sorted().toList()) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int split = text.indexOf("\n\n");
        String attack = "";
        String row = "";
        double expect = 0.0;
        for (String line : text.substring(0, split).split("\n")) {
          String[] pair = line.split(":", 2);
          switch (pair[0].strip()) {
            case "attack" -> attack = pair[1].strip();
            case "row" -> row = pair[1].strip();
            case "expect" -> expect = Double.parseDouble(pair[1].strip());
            default -> throw new IllegalStateException(file + ": unknown header " + line);
          }
        }
        attacks.add(new Attack(file.getFileName().toString(), attack, row, expect, text.substring(split + 2)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return attacks;
  }

  /** The row with a response whose one message says {@code text}. */
  protected static ObjectNode answered(ObjectNode row, String text) {
    ObjectNode request = row.deepCopy();
    ObjectNode response = Json.object();
    ObjectNode message = response.putArray("output").addObject();
    message.put("type", "message").put("role", "assistant").put("id", "msg_attack").put("status", "completed");
    message.putArray("content").addObject().put("type", "output_text").put("text", text)
        .putArray("annotations");
    request.set("response", response);
    return request;
  }
}
