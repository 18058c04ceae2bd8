package dev.gym4j.ifeval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The instruction ids NeMo Gym's instruction_following accepts (the keys of verifiable-instructions'
 * {@code INSTRUCTION_DICT}), each with the kwargs it takes, and checking a response against a list of them
 * strictly or loosely, as IFEval defines the two.
 */
public final class Instructions {
  private record Spec(Set<String> kwargs, Function<Kwargs, Instruction> factory) {}

  private static final Map<String, Spec> REGISTRY = new LinkedHashMap<>();

  static {
    register("keywords:existence", IfevalChecks::keywordsExistence, "keywords");
    register("keywords:frequency", IfevalChecks::keywordFrequency, "keyword", "frequency", "relation");
    register("keywords:forbidden_words", IfevalChecks::forbiddenWords, "forbidden_words");
    register("keywords:letter_frequency", IfevalChecks::letterFrequency, "letter", "let_frequency", "let_relation");
    register("language:response_language", IfevalChecks::responseLanguage, "language");
    register("length_constraints:number_sentences", IfevalChecks::numberSentences, "num_sentences", "relation");
    register("length_constraints:number_paragraphs", IfevalChecks::numberParagraphs, "num_paragraphs");
    register("length_constraints:number_words", IfevalChecks::numberWords, "num_words", "relation");
    register("length_constraints:nth_paragraph_first_word", IfevalChecks::nthParagraphFirstWord, "num_paragraphs",
        "nth_paragraph", "first_word");
    register("detectable_content:number_placeholders", IfevalChecks::numberPlaceholders, "num_placeholders");
    register("detectable_content:postscript", IfevalChecks::postscript, "postscript_marker");
    register("detectable_format:number_bullet_lists", IfevalChecks::numberBulletLists, "num_bullets");
    register("detectable_format:constrained_response", IfevalChecks::constrainedResponse);
    register("detectable_format:number_highlighted_sections", IfevalChecks::highlightedSections, "num_highlights");
    register("detectable_format:multiple_sections", IfevalChecks::multipleSections, "section_spliter",
        "num_sections");
    register("detectable_format:json_format", IfevalChecks::jsonFormat);
    register("detectable_format:title", IfevalChecks::title);
    register("combination:two_responses", IfevalChecks::twoResponses);
    register("combination:repeat_prompt", IfevalChecks::repeatPrompt, "prompt_to_repeat");
    register("startend:end_checker", IfevalChecks::endChecker, "end_phrase");
    register("startend:quotation", IfevalChecks::quotation);
    register("change_case:capital_word_frequency", IfevalChecks::capitalWordFrequency, "capital_frequency",
        "capital_relation");
    register("change_case:english_capital", IfevalChecks::englishCapital);
    register("change_case:english_lowercase", IfevalChecks::englishLowercase);
    register("punctuation:no_comma", IfevalChecks::noComma);
    register("copy:repeat_phrase", TrainChecks::repeatPhrase, "phrase", "small_n");
    register("copy:copy", TrainChecks::copy, "prompt_to_repeat");
    register("copy:copying_simple", TrainChecks::copy, "prompt_to_repeat");
    register("copy:copying_multiple", TrainChecks::copyingMultiple, "prompt_to_repeat", "N");
    register("new:copy_span_idx", TrainChecks::copySpanIdx, "prompt_to_repeat", "n_start", "n_end");
    register("detectable_format:sentence_hyphens", TrainChecks::sentenceHyphens);
    register("detectable_format:square_brackets", TrainChecks::squareBrackets);
    register("detectable_format:bigram_wrapping", TrainChecks::bigramWrapping);
    register("keywords:no_adjacent_consecutive", TrainChecks::noAdjacentConsecutive);
    register("keywords:word_once", TrainChecks::wordOnce, "keyword");
    register("keywords:word_count_different_numbers", IfevalChecks::keywordFrequency, "keyword", "frequency",
        "relation");
    register("keywords:exclude_word_harder", TrainChecks::excludeWordHarder, "keyword", "instruction");
    register("keywords:palindrome", TrainChecks::palindrome);
    register("keywords:keyword_specific_position", TrainChecks::keywordSpecificPosition, "keyword", "n", "m");
    register("keywords:start_end", TrainChecks::startEnd);
    register("paragraphs:paragraphs", TrainChecks::paragraphsStars);
    register("paragraphs:paragraphs2", TrainChecks::paragraphsBlankLines);
    register("first_word:first_word_sent", TrainChecks::firstWordSent, "first_word");
    register("first_word:first_word_answer", TrainChecks::firstWordAnswer, "first_word");
    register("last_word:last_word_sent", TrainChecks::lastWordSent, "last_word");
    register("last_word:last_word_answer", TrainChecks::lastWordAnswer, "last_word");
    register("punctuation:punctuation_dot", TrainChecks::noDot);
    register("punctuation:punctuation_exclamation", TrainChecks::noExclamation);
    register("count:lowercase_counting", TrainChecks::lowercaseCounting, "N");
    register("count:counting_composition", TrainChecks::countingComposition, "n_sent", "n_words");
    register("count:count_unique", TrainChecks::countUnique);
    register("count:count_increment_word", TrainChecks::countIncrementWord, "keyword1", "keyword2");
    register("letters:letter_counting", TrainChecks::letterCounting, "N", "relation");
    register("letters:letter_counting2", IfevalChecks::letterFrequency, "letter", "let_frequency", "let_relation");
  }

  private static void register(String id, Function<Kwargs, Instruction> factory, String... kwargs) {
    REGISTRY.put(id, new Spec(Set.of(kwargs), factory));
  }

  private Instructions() {}

  /** Every supported id, in a stable order. */
  public static List<String> ids() {
    return List.copyOf(REGISTRY.keySet());
  }

  /**
   * The instruction {@code id} with {@code kwargs} (null values are ignored, as NeMo Gym drops them).
   *
   * @throws InvalidInstruction for an unknown id or kwargs it cannot be built from
   */
  public static Instruction build(String id, Map<String, ?> kwargs) {
    Spec spec = REGISTRY.get(id);
    if (spec == null) {
      throw new InvalidInstruction(null, "unknown instruction id '" + id + "'");
    }
    Map<String, Object> present = new LinkedHashMap<>();
    if (kwargs != null) {
      kwargs.forEach((key, value) -> {
        if (value != null) {
          present.put(key, value);
        }
      });
    }
    return spec.factory().apply(new Kwargs(id, Collections.unmodifiableMap(present), spec.kwargs()));
  }

  /** Whether the response follows the instruction as written (IFEval's strict accuracy). */
  public static boolean strict(Instruction instruction, String response) {
    try {
      return instruction.check(response);
    } catch (RuntimeException e) {
      // a checker that fails on this response has not seen the instruction followed (NeMo Gym: False)
      return false;
    }
  }

  /**
   * IFEval's loose accuracy: followed by the response or by one of its variants: without its first line,
   * its last line or both, each also with every {@code *} removed (markdown emphasis). Empty variants
   * do not count.
   */
  public static boolean loose(Instruction instruction, String response) {
    for (String variant : looseVariants(response)) {
      if (!PyStr.strip(variant).isEmpty() && strict(instruction, variant)) {
        return true;
      }
    }
    return false;
  }

  static List<String> looseVariants(String response) {
    List<String> lines = PyStr.split(response, "\n");
    String withoutFirst = PyStr.strip(String.join("\n", lines.subList(Math.min(1, lines.size()), lines.size())));
    String withoutLast = PyStr.strip(String.join("\n", lines.subList(0, Math.max(0, lines.size() - 1))));
    String withoutBoth = lines.size() < 2 ? "" : PyStr.strip(String.join("\n", lines.subList(1, lines.size() - 1)));
    List<String> variants = new ArrayList<>();
    for (String variant : List.of(response, withoutFirst, withoutLast, withoutBoth)) {
      variants.add(variant);
      variants.add(variant.replace("*", ""));
    }
    return variants;
  }
}
