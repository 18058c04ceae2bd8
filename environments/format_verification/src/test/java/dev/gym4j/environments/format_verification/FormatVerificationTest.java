package dev.gym4j.environments.format_verification;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
import dev.gym4j.testkit.RecordedRolloutsTest;
import org.junit.jupiter.api.Test;

class FormatVerificationTest extends RecordedRolloutsTest {
  @Override
  protected String environment() {
    return "format_verification";
  }

  @Override
  protected String taskFile() {
    return "ds2_freeform_formatting_example.jsonl";
  }

  private HttpReply verify(String verifier, String text) {
    return harness().post("/verify", Json.parse("{\"responses_create_params\": {\"input\": \"q\"}, \"verifier\": "
        + verifier + ", \"response\": {\"output\": [{\"type\": \"message\", \"role\": \"assistant\", \"content\": "
        + "[{\"type\": \"output_text\", \"text\": " + Json.write(Json.toTree(text)) + "}]}]}}"), Map.of());
  }

  @Test
  void regexCountsMatchingLinesAgainstTheMinimum() {
    String verifier = "{\"type\": \"regex\", \"verify_regex\": [\"^-- .+\", \"^\\\\d+\\\\. \"], \"verify_min_matches\": 3}";
    assertThat(verify(verifier, "-- a\n-- b\n1. c\nplain").json().get("reward").asDouble()).isEqualTo(1.0);
    var two = verify(verifier, "-- a\n--b\n١. arabic digit counts as \\d in Python\nx").json();
    assertThat(two.at("/match_details/matching_lines").asInt()).isEqualTo(2);
    assertThat(two.get("reward").asDouble()).isZero();
  }

  @Test
  void stringMatchNeedsEveryMarkerAndNoStrayOnes() {
    String verifier = "{\"type\": \"string_match\", \"patterns\": [\"\\\\[ref:\\\\d+\\\\]\"], \"expected_markers\": [\"[ref:2]\"]}";
    assertThat(verify(verifier, "as shown [ref:2].").json().get("reward").asDouble()).isEqualTo(1.0);
    var stray = verify(verifier, "as shown [ref:2] and [ref:7].").json();
    assertThat(stray.get("reward").asDouble()).isZero();
    assertThat(stray.at("/match_details/spurious_markers/0").asString()).isEqualTo("[ref:7]");
    assertThat(verify(verifier, "no citation").json().at("/match_details/missing_markers/0").asString())
        .isEqualTo("[ref:2]");
  }

  @Test
  void aCatastrophicPatternOnAdversarialOutputFailsFastInsteadOfHanging() {
    // polynomial of degree 15 in the line length: hours on 60 characters without a budget
    String verifier = "{\"type\": \"regex\", \"verify_regex\": [\"^(.*a){15}$\"], \"verify_min_matches\": 1}";
    long start = System.nanoTime();
    HttpReply reply = verify(verifier, "a".repeat(60) + "b");
    assertThat(reply.status()).isEqualTo(500);
    // issue 14, item 7: the 500 names no class; the log line with the same error id has the cause
    assertThat(reply.text()).contains("Internal Server Error in format_verification (error ").doesNotContain("Exception");
    assertThat(System.nanoTime() - start).isLessThan(java.time.Duration.ofSeconds(10).toNanos());
  }

  @Test
  void aBadVerifierIsA422() {
    assertThat(verify("{\"type\": \"regex\", \"verify_regex\": [\"(\"]}", "x").status()).isEqualTo(422);
    assertThat(verify("{\"type\": \"poem\"}", "x").json().at("/detail/0/loc").toString())
        .isEqualTo("[\"body\",\"verifier\",\"type\"]");
  }
}
