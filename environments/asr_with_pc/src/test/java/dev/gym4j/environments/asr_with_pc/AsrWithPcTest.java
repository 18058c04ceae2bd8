package dev.gym4j.environments.asr_with_pc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.gym4j.client.HttpReply;
import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.EnvironmentHarness;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Against NeMo Gym's resources_servers/asr_with_pc/app.py and tests/test_app.py (main, 2026-08-22), its
 * recorded rollouts, and src/test/resources/nemo_gym_cases.jsonl: inputs with what NeMo Gym's
 * preprocess_asr_text, evaluate_asr_pc and evaluate_asr return for them, computed by running that code
 * (whisper_normalizer at kurianbenoy/whisper_normalizer main, jiwer 4 from jitsi/jiwer main).
 */
class AsrWithPcTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "asr_with_pc";
  }

  @Override
  protected List<String> verifyFields() {
    return AsrWithPc.FIELDS;
  }

  /** Every recorded row has the same prompt (the audio rides in metadata): join by NeMo Gym's task index. */
  @Override
  protected String taskFile() {
    return "example_rollouts_materialized_inputs.jsonl";
  }

  private static List<JsonNode> cases(String kind) {
    return Json.readLines(Path.of("src/test/resources/nemo_gym_cases.jsonl")).stream()
        .filter(line -> line.get("kind").asString().equals(kind)).toList();
  }

  @TestFactory
  Stream<DynamicTest> theNormalizerWritesWhatWhispersWrites() {
    List<JsonNode> cases = cases("normalize");
    assertThat(cases).hasSizeGreaterThan(50);
    return cases.stream().map(c -> DynamicTest.dynamicTest(Json.write(c.get("input")), () ->
        assertThat(AsrWithPc.standard(c.get("input").asString())).isEqualTo(c.get("expected").asString())));
  }

  @TestFactory
  Stream<DynamicTest> asrPcScoresAreNemoGyms() {
    return cases("asr_pc").stream().map(c -> DynamicTest.dynamicTest(c.get("reference") + " / " + c.get("hypothesis"),
        () -> {
          JsonNode expected = c.get("expected");
          var scored = AsrWithPc.asrPc(c.get("reference").asString(), c.get("hypothesis").asString());
          for (var field : expected.properties()) {
            JsonNode actual = scored.extra().get(field.getKey());
            if (field.getValue().isNumber()) {
              assertThat(actual.asDouble()).as(field.getKey()).isCloseTo(field.getValue().asDouble(), within(1e-12));
            } else {
              assertThat(actual).as(field.getKey()).isEqualTo(field.getValue());
            }
          }
          assertThat(scored.reward()).isEqualTo(expected.get("is_correct").asBoolean() ? 1.0 : 0.0);
        }));
  }

  @TestFactory
  Stream<DynamicTest> asrScoresAreNemoGyms() {
    return cases("asr").stream().map(c -> DynamicTest.dynamicTest(c.get("reference") + " / " + c.get("hypothesis"),
        () -> {
          JsonNode expected = c.get("expected");
          var scored = AsrWithPc.asr(c.get("reference").asString(), c.get("hypothesis").asString());
          assertThat(scored.text()).isEqualTo(expected.get("text").asString());
          assertThat(scored.predText()).isEqualTo(expected.get("pred_text").asString());
          if (expected.get("wer").isNull()) {
            assertThat(scored.wer()).isNull();
            assertThat(scored.correct()).isNull();
          } else {
            assertThat(scored.wer()).isCloseTo(expected.get("wer").asDouble(), within(1e-12));
            assertThat(scored.correct()).isEqualTo(expected.get("is_correct").asBoolean());
          }
        }));
  }

  @Test
  void helpersAsNemoGymsTestsHaveThem() {
    // tests/test_app.py TestHelpers
    assertThat(AsrWithPc.normalizeWhitespace("\thello\n  world\t")).isEqualTo("hello world");
    assertThat(ErrorRates.tokens("Hello, world!")).containsExactly("Hello", ",", "world", "!");
    assertThat(ErrorRates.tokens("don't stop")).containsExactly("don", "'", "t", "stop");
    assertThat(ErrorRates.punctuation("It's 3.14 — nice.")).containsExactly("'", ".", "—", ".");
    assertThat(ErrorRates.per("hello, world", "hello world")).isEqualTo(1.0);
    assertThat(ErrorRates.per("hello world", "hello, world")).isEqualTo(1.0);
    assertThat(ErrorRates.per("hello world", "hello world")).isZero();
    // jiwer: an empty reference scores the number of inserted words
    assertThat(ErrorRates.wer("", "a b")).isEqualTo(2.0);
    assertThat(ErrorRates.wer(List.of("a b", "c"), List.of("a", "c d"))).isCloseTo(2.0 / 3, within(1e-12));
  }

  private static ObjectNode row(String answer, String expected) {
    return (ObjectNode) Json.parse("{\"responses_create_params\": {\"input\": [{\"role\": \"user\", \"content\": "
        + "\"test\"}]}, \"expected_answer\": " + Json.write(expected) + ", \"response\": {\"output\": [{\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": "
        + Json.write(answer) + "}]}]}}");
  }

  @Test
  void aPerfectTranscriptEarnsOneAndARowTaskTypeOverridesTheConfig() {
    JsonNode perfect = harness().post("/verify", row("Hello, world.", "Hello, world."), Map.of()).json();
    assertThat(perfect.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(perfect.get("wer_pc").asDouble()).isZero();
    assertThat(perfect.get("hallucination_rate").isNull()).isTrue();

    ObjectNode asr = row("hello world", "Hello, World!");
    asr.put("task_type", "ASR");
    JsonNode verdict = harness().post("/verify", asr, Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(verdict.get("wer_c").asDouble()).isZero();
    assertThat(verdict.get("ref_pc_tok").asString()).isEmpty();
  }

  @Test
  void hallucinationIsAboveFifteenHundredCharactersAMinute() {
    // tests/test_app.py TestHallucinationDispatch
    ObjectNode normal = row("x".repeat(50), "");
    normal.put("task_type", "Hallucination");
    normal.put("audio_duration", 5.0);
    JsonNode fine = harness().post("/verify", normal, Map.of()).json();
    assertThat(fine.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(fine.get("char_rate").asDouble()).isEqualTo(600.0);
    assertThat(fine.get("hallucination_rate").asDouble()).isZero();

    ObjectNode flood = row("x".repeat(200), "");
    flood.put("task_type", "Hallucination");
    flood.put("audio_duration", 5.0);
    JsonNode flagged = harness().post("/verify", flood, Map.of()).json();
    assertThat(flagged.get("reward").asDouble()).isZero();
    assertThat(flagged.get("hallucination_rate").asDouble()).isEqualTo(1.0);

    flood.remove("audio_duration");
    JsonNode unknown = harness().post("/verify", flood, Map.of()).json();
    assertThat(unknown.get("is_correct").asBoolean()).as("no duration: not scored, counted correct").isTrue();
    assertThat(unknown.get("char_rate").asDouble()).isZero();
  }

  @Test
  void theLeaderboardScoresEachReferenceField() {
    // tests/test_app.py TestAsrLeaderboardDispatch
    ObjectNode body = row("one hundred dollars", "one hundred dollars");
    body.put("task_type", "ASR_LEADERBOARD");
    body.set("reference_fields", Json.parse("[\"text_tn\", \"text_itn\", \"text_empty\"]"));
    body.put("text_tn", "$100");
    body.put("text_itn", "one hundred dollars");
    body.put("text_empty", "");
    JsonNode verdict = harness().post("/verify", body, Map.of()).json();
    assertThat(verdict.get("wer").asDouble()).isZero();
    assertThat(verdict.get("wer_itn").asDouble()).isZero();
    assertThat(verdict.get("is_correct_tn").asBoolean()).isTrue();
    assertThat(verdict.get("wer_empty").isNull()).as("an empty reference is dropped, as the HF leaderboard does").isTrue();

    body.set("reference_fields", Json.parse("[\"sample_id\"]"));
    JsonNode declared = harness().post("/verify", body, Map.of()).json();
    assertThat(declared.get("wer_sample_id").isNull()).as("a declared field absent from the row is its default")
        .isTrue();

    body.set("reference_fields", Json.parse("[\"text_missing\"]"));
    HttpReply missing = harness().post("/verify", body, Map.of());
    assertThat(missing.status()).isEqualTo(422);
    assertThat(missing.text()).contains("reference_fields").doesNotContain("java.");
  }

  @Test
  void anUnknownTaskTypeIsA422NamingTheField() {
    ObjectNode body = row("x", "y");
    body.put("task_type", "Translation");
    HttpReply reply = harness().post("/verify", body, Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("task_type");
  }

  @Test
  void anUnknownConfiguredTaskTypeStopsTheStart() {
    var started = new ArrayList<EnvironmentHarness>();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> started.add(EnvironmentHarness.start(environment(),
        "++asr_with_pc.resources_servers.asr_with_pc.task_type=Translation"))).hasMessageContaining("task_type");
    started.forEach(EnvironmentHarness::close);
  }
}
