package dev.gym4j.ifeval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.gym4j.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/** Every instruction on the edges of its rule: checks.jsonl holds one case per line, with why when it is subtle. */
class InstructionsTest {
  static List<JsonNode> cases() throws IOException {
    try (InputStream in = InstructionsTest.class.getResourceAsStream("/checks.jsonl")) {
      List<JsonNode> rows = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          rows.add(Json.parse(line));
        }
      }
      return rows;
    }
  }

  static Stream<Arguments> table() throws IOException {
    return cases().stream().map(row -> Arguments.of(row.get("id").asString(), row.get("kwargs"),
        row.get("text").asString(), row.get("followed").asBoolean()));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> kwargs(JsonNode node) {
    return Json.convert(node, Map.class);
  }

  @ParameterizedTest(name = "{0} {1} on \"{2}\" -> {3}")
  @MethodSource("table")
  void verdict(String id, JsonNode kwargs, String text, boolean followed) {
    assertThat(Instructions.strict(Instructions.build(id, kwargs(kwargs)), text)).isEqualTo(followed);
  }

  @Test
  void all54IdsAreRegisteredAndEachHasAFollowedAndABrokenCase() throws IOException {
    assertThat(Instructions.ids()).hasSize(54).doesNotHaveDuplicates();
    Set<String> followed = new HashSet<>();
    Set<String> broken = new HashSet<>();
    for (JsonNode row : cases()) {
      (row.get("followed").asBoolean() ? followed : broken).add(row.get("id").asString());
    }
    assertThat(followed).containsExactlyInAnyOrderElementsOf(Instructions.ids());
    assertThat(broken).containsExactlyInAnyOrderElementsOf(Instructions.ids());
  }

  /** The kwargs each id is built from in the edge-case table, so that every id can be tried on any text. */
  private static Map<String, Map<String, Object>> sampleKwargs() throws IOException {
    Map<String, Map<String, Object>> samples = new HashMap<>();
    for (JsonNode row : cases()) {
      samples.putIfAbsent(row.get("id").asString(), kwargs(row.get("kwargs")));
    }
    return samples;
  }

  @Test
  void emptyAndVeryLongResponsesGetAVerdictFromEveryCheckWithoutFailing() throws IOException {
    String longText = ("Section 1 The early bird catches the worm, said Mr. Smith at 3 p.m. today! *Yes* [x] "
        + "<<title>> ***\n\n").repeat(5_000);
    for (var sample : sampleKwargs().entrySet()) {
      Instruction instruction = Instructions.build(sample.getKey(), sample.getValue());
      for (String text : List.of("", "   ", longText)) {
        // check itself, not strict(), which would hide an exception as "not followed"
        assertThatCode(() -> instruction.check(text)).as("%s on %d chars", sample.getKey(), text.length())
            .doesNotThrowAnyException();
      }
    }
  }

  @Test
  void missingOrWrongKwargsAreRefusedNamingTheKwarg() {
    assertThatThrownBy(() -> Instructions.build("keywords:frequency", Map.of("keyword", "x", "relation", "at least")))
        .isInstanceOf(InvalidInstruction.class).hasMessageContaining("frequency")
        .satisfies(e -> assertThat(((InvalidInstruction) e).field()).isEqualTo("frequency"));
    assertThatThrownBy(() -> Instructions.build("punctuation:no_comma", Map.of("extra", 1)))
        .isInstanceOf(InvalidInstruction.class).hasMessageContaining("extra");
    assertThatThrownBy(() -> Instructions.build("keywords:letter_frequency",
        Map.of("letter", "ab", "let_frequency", 1, "let_relation", "at least"))).hasMessageContaining("letter");
    assertThatThrownBy(() -> Instructions.build("keywords:nope", Map.of()))
        .satisfies(e -> assertThat(((InvalidInstruction) e).field()).isNull());
    Map<String, Object> withNull = new HashMap<>();
    withNull.put("num_bullets", 2);
    withNull.put("unused", null);
    assertThat(Instructions.strict(Instructions.build("detectable_format:number_bullet_lists", withNull),
        "* a\n* b")).as("null kwargs are dropped").isTrue();
  }

  @Test
  void looseAccuracyTriesTheVariantsIfevalDefines() {
    Instruction quoted = Instructions.build("startend:quotation", Map.of());
    String withPreamble = "Here you go:\n\"The answer.\"";
    assertThat(Instructions.strict(quoted, withPreamble)).isFalse();
    assertThat(Instructions.loose(quoted, withPreamble)).isTrue();
    Instruction noStars = Instructions.build("detectable_format:title", Map.of());
    assertThat(Instructions.loose(noStars, "no title at all")).isFalse();
    Instruction ends = Instructions.build("startend:end_checker", Map.of("end_phrase", "Bye."));
    assertThat(Instructions.loose(ends, "Text. **Bye.**")).as("stars removed").isTrue();
    assertThat(Instructions.looseVariants("a\nb\nc")).containsExactly("a\nb\nc", "a\nb\nc", "b\nc", "b\nc", "a\nb",
        "a\nb", "b", "b");
  }
}
