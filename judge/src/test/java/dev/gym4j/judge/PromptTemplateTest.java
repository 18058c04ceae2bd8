package dev.gym4j.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import dev.gym4j.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Templates as NeMo Gym formats them (Python's str.format with named fields). */
class PromptTemplateTest {
  @Test
  void fieldsAreReplacedAndDoubledBracesAreLiteral() {
    PromptTemplate template = PromptTemplate.of("Q: {question}\nGold: {expected_answer} as {{\"json\": 1}}");
    assertThat(template.fields()).containsExactly("question", "expected_answer");
    assertThat(template.render(Map.of("question", "2+2?", "expected_answer", "4")))
        .isEqualTo("Q: 2+2?\nGold: 4 as {\"json\": 1}");
  }

  @Test
  void aValueIsNeverReadAsTemplateText() {
    PromptTemplate template = PromptTemplate.of("{generated_answer} vs {expected_answer}");
    assertThat(template.render(Map.of("generated_answer", "{expected_answer} }}{", "expected_answer", "4")))
        .isEqualTo("{expected_answer} }}{ vs 4");
  }

  @Test
  void aFieldWithoutAValueIsNamed() {
    assertThatThrownBy(() -> PromptTemplate.of("{question} {context}").render(Map.of("question", "q")))
        .hasMessageContaining("{context}");
  }

  @Test
  void strayBracesAndFormatSpecsAreConfigErrors() {
    assertThatThrownBy(() -> PromptTemplate.of("an { open")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("unclosed '{' at character 3");
    assertThatThrownBy(() -> PromptTemplate.of("a } close")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("single '}'");
    assertThatThrownBy(() -> PromptTemplate.of("{x!r}")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("'{x!r}'");
  }
}
