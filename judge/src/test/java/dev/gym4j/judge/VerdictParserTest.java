package dev.gym4j.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class VerdictParserTest {
  @Test
  void theEarliestLabelWins() {
    // resources_servers/equivalence_llm_judge/app.py: eq_pos < neq_pos decides
    VerdictParser<String> labels = VerdictParser.labels("[[A=B]]", "[[A!=B]]");
    assertThat(labels.parse("on reflection [[A!=B]], though [[A=B]] later")).contains("[[A!=B]]");
    assertThat(labels.parse("[[A=B]] and not [[A!=B]]")).contains("[[A=B]]");
    assertThat(labels.parse("A equals B")).isEmpty();
  }

  @Test
  void theLastJsonObjectThatParsesIsTheVerdict() {
    VerdictParser<tools.jackson.databind.node.ObjectNode> json = VerdictParser.jsonObject();
    String text = "Thinking {not json}. Verdict:\n```json\n{\"score\": 1, \"why\": \"a } in a string\"}\n```\n{oops";
    assertThat(json.parse(text)).hasValueSatisfying(o -> assertThat(o.get("score").asInt()).isEqualTo(1));
    assertThat(json.parse("{\"outer\": {\"inner\": 2}}"))
        .hasValueSatisfying(o -> assertThat(o.at("/outer/inner").asInt()).isEqualTo(2));
    assertThat(json.parse("no object here")).isEmpty();
  }

  @Test
  void aNumberOutsideTheScaleIsNoVerdict() {
    VerdictParser<Double> score = VerdictParser.number(Pattern.compile("Score:\\s*(-?[0-9.]+)"), 0, 10);
    assertThat(score.parse("Score: 3 at first, then Score: 7")).contains(7.0);
    assertThat(score.parse("Score: 11")).isEmpty();
    assertThat(score.parse("Score: 1.2.3")).isEmpty();
  }

  @Test
  void aLetterMustStandAlone() {
    VerdictParser<String> grade = VerdictParser.letter("ABC");
    assertThat(grade.parse("Grade: B")).contains("B");
    assertThat(grade.parse("Because the answer is Correct")).isEmpty();
    assertThat(grade.parse("(C) not attempted")).contains("C");
  }
}
