package dev.gym4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** Reasoning blocks, found in linear time with the regex's answers (issue 14, item 5). */
class ThinkBlocksTest {
  /** NeMo Gym's rule (responses_api_models/vllm_model/app.py), the reference for every generated text. */
  private static final Pattern REFERENCE = Pattern.compile("<think>(.*?)</think>", Pattern.DOTALL);
  private static final String[] PIECES = {"<think>", "</think>", "a", "b\n", "<", "think>", "</", "<think"};

  @Test
  void every_text_gives_the_regexs_blocks_and_remainder() {
    Random random = new Random(14);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder text = new StringBuilder();
      int pieces = random.nextInt(12);
      for (int p = 0; p < pieces; p++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String given = text.toString();
      List<String> expected = new ArrayList<>();
      Matcher matcher = REFERENCE.matcher(given);
      while (matcher.find()) {
        expected.add(matcher.group(1));
      }
      assertThat(ThinkBlocks.contents(given)).as(given).isEqualTo(expected);
      assertThat(ThinkBlocks.without(given)).as(given).isEqualTo(REFERENCE.matcher(given).replaceAll(""));
    }
  }

  @Test
  void a_megabyte_of_openers_is_kept_as_text() {
    String text = "<think>".repeat(150_000) + "done";
    assertThat(ThinkBlocks.contents(text)).isEmpty();
    assertThat(ThinkBlocks.without(text)).isEqualTo(text);
    String closed = text + "</think>after";
    assertThat(ThinkBlocks.contents(closed)).containsExactly(text.substring("<think>".length()) + "");
    assertThat(ThinkBlocks.without(closed)).isEqualTo("after");
  }

  @Test
  void a_text_split_anywhere_gives_the_blocks_and_remainder_of_the_whole() throws Exception {
    Random random = new Random(21);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder text = new StringBuilder();
      int pieces = random.nextInt(12);
      for (int p = 0; p < pieces; p++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String given = text.toString();
      StringBuilder rest = new StringBuilder();
      List<String> thoughts = new ArrayList<>();
      ThinkBlocks.Splitter splitter = new ThinkBlocks.Splitter(new ThinkBlocks.Parts() {
        @Override
        public void text(String part) {
          rest.append(part);
        }

        @Override
        public void thought(String part) {
          thoughts.add(part);
        }
      });
      for (int at = 0; at < given.length(); ) {
        int next = Math.min(given.length(), at + 1 + random.nextInt(9));
        splitter.add(given.substring(at, next));
        at = next;
      }
      splitter.end();
      assertThat(thoughts).as(given).isEqualTo(ThinkBlocks.contents(given));
      assertThat(rest.toString()).as(given).isEqualTo(ThinkBlocks.without(given));
    }
  }
}
