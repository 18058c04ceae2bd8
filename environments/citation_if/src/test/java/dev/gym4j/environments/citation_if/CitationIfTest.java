package dev.gym4j.environments.citation_if;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.gym4j.environments.conformance.RecordedFieldsTest;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Against NeMo Gym's resources_servers/citation_if/app.py and scorer.py (main, 2026-08-22) and its recorded rollouts. */
class CitationIfTest extends RecordedFieldsTest {
  @Override
  protected String environment() {
    return "citation_if";
  }

  @Override
  protected List<String> verifyFields() {
    return List.of("match_details");
  }

  /**
   * scorer_cases.jsonl: texts and verifiers with the reward and match_details NeMo Gym's
   * score_citation_if gives them (CPython 3.12), one per gate and grammar family.
   */
  @Test
  void everyGateAsNemoGymsScorer() {
    List<JsonNode> cases = Json.readLines(Path.of("src", "test", "resources", "scorer_cases.jsonl"));
    for (JsonNode c : cases) {
      Scorer.Result result = Scorer.score(c.get("text").asString(), c.path("function_calls").asInt(0), c.get("verifier"));
      assertThat(result.reward()).as(c.get("text").asString()).isEqualTo(c.get("reward").asDouble());
      assertThat(result.details()).as(c.get("text").asString()).isEqualTo(c.get("match_details"));
    }
    assertThat(cases).hasSize(20);
  }

  @Test
  void idPatternsAreLimitedToCitationIdShapes() {
    IdPattern id = IdPattern.parse("citation_[a-z2-9]{4}:snippet_[0-9]+");
    assertThat(id.matches("citation_ab2z:snippet_10")).isTrue();
    assertThat(id.matches("citation_ab1z:snippet_10")).isFalse();
    assertThat(id.matches("citation_ab2z:snippet_")).isFalse();
    assertThat(IdPattern.parse("citation_\\d+-?x{0,2}").matches("citation_12-xx")).isTrue();
  }

  @Test
  void aRowPatternBeyondIdShapesIsA422() {
    assertThatThrownBy(() -> IdPattern.parse("(a+)+$")).isInstanceOf(FieldError.class)
        .hasMessageContaining("citation ID patterns");
    var reply = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"verifier\": "
        + "{\"grammar\": \"ascii_brackets\", \"id_regex\": \"(citation_.*)+\"}, \"response\": {\"output\": [{\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": \"x\"}]}]}}"), Map.of());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.text()).contains("id_regex");
  }

  @Test
  void longRunsOfIdCharactersAreScannedOnce() {
    // a guard against a hang, not a speed test
    String text = "answer " + "[citation_".repeat(50_000) + "aaaa]";
    JsonNode verifier = Json.parse("{\"grammar\": \"cite_xml\", \"id_regex\": \"citation_[a-z_]+\", \"valid_id_set\": []}");
    assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThat(Scorer.score(text, 0, verifier).details().get("gate_failed").asString())
            .isEqualTo("malformed_attempt"));
  }

  @Test
  void aToolCallFailsTheStructuralGate() {
    JsonNode verdict = harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, "
        + "\"verifier\": {\"grammar\": \"ascii_brackets\", \"valid_id_set\": [\"citation_1\"]}, \"response\": {\"output\": "
        + "[{\"type\": \"function_call\", \"name\": \"search\", \"arguments\": \"{}\", \"call_id\": \"c\"}, {\"type\": "
        + "\"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"output_text\", \"text\": \"A [citation_1]\"}]}]}}"),
        Map.of()).json();
    assertThat(verdict.get("reward").asDouble()).isZero();
    assertThat(verdict.at("/match_details/gate_failed").asString()).isEqualTo("structural");
    assertThat(verdict.at("/match_details/function_call_count").asInt()).isEqualTo(1);
  }
}
