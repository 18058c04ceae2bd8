package dev.gym4j.ifeval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sentence and word splitters on the cases where English text is tricky. */
class TokenizersTest {
  @Test
  void ifevalSplitterKeepsAbbreviationsDecimalsAndEllipses() {
    assertThat(Sentences.ifeval("Dr. Smith paid 3.14 dollars. This worked!"))
        .containsExactly("Dr. Smith paid 3.14 dollars.", "This worked!");
    assertThat(Sentences.ifeval("Wait... what? The U.S. Army came. Visit example.com now."))
        .containsExactly("Wait...", "what?", "The U.S. Army came.", "Visit example.com now.");
    assertThat(Sentences.ifeval("He said \"go.\" Then he left")).containsExactly("He said \"go\".", "Then he left");
    assertThat(Sentences.ifeval("")).isEmpty();
  }

  @Test
  void punktLikeSplitterKnowsAbbreviationsInitialsAndLowerCaseStarts() {
    assertThat(Sentences.punkt("Mr. Smith went to Washington. He arrived at 3 p.m. yesterday."))
        .containsExactly("Mr. Smith went to Washington.", "He arrived at 3 p.m. yesterday.");
    assertThat(Sentences.punkt("The U.S. economy grew. It was e.g. fast.")).hasSize(2);
    assertThat(Sentences.punkt("J. R. R. Tolkien wrote it. Really?")).hasSize(2);
    assertThat(Sentences.punkt("Wait... what happened? Nothing... Then it rained.")).hasSize(3);
    assertThat(Sentences.punkt("It costs 3.50 today. \"Fine.\" she said. ok.")).as("a quoted sentence ends before a lower-case word").hasSize(4);
    assertThat(Sentences.punkt("a heading\n\n* a bullet\n* another")).hasSize(1);
    assertThat(Sentences.punkt("   ")).isEmpty();
  }

  @Test
  void wordsSplitAsTheTreebankRulesSplitThem() {
    assertThat(WordTokenizer.tokenize("Don't stop believing.")).containsExactly("Do", "n't", "stop", "believing", ".");
    assertThat(WordTokenizer.tokenize("Hello, world! I cannot go.")).containsExactly("Hello", ",", "world", "!", "I",
        "can", "not", "go", ".");
    assertThat(WordTokenizer.tokenize("He said \"hi\" to me.")).containsExactly("He", "said", "``", "hi", "''", "to",
        "me", ".");
    assertThat(WordTokenizer.tokenize("The U.S. is big (really); costs $5.")).containsExactly("The", "U.S.", "is",
        "big", "(", "really", ")", ";", "costs", "$", "5", ".");
    assertThat(WordTokenizer.tokenize("It's 3,000 -- done")).containsExactly("It", "'s", "3,000", "--", "done");
  }

  @Test
  void pythonStringRulesDecideCaseAndWhitespace() {
    assertThat(PyStr.isUpper("ABC 123!")).isTrue();
    assertThat(PyStr.isUpper("123")).as("no cased character").isFalse();
    assertThat(PyStr.isLower("abc ß")).isTrue();
    assertThat(PyStr.split("\u00a0a\u2003b\n")).containsExactly("a", "b");
    assertThat(PyStr.strip("\u3000x\u00a0")).isEqualTo("x");
    assertThat(TrainChecks.pythonSlice("hello", 1, -1)).isEqualTo("ell");
    assertThat(TrainChecks.pythonSlice("hello", 4, 2)).isEmpty();
  }

  @Test
  void languagesAreDetectedDeterministically() throws Exception {
    String text = "Dies ist ein deutscher Satz über das Wetter in Berlin.";
    assertThat(Languages.detect(text)).isEqualTo("de");
    for (int i = 0; i < 20; i++) {
      assertThat(Languages.detect("ok")).isEqualTo(Languages.detect("ok"));
    }
  }
}
