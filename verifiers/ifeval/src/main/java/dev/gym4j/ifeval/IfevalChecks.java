package dev.gym4j.ifeval;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Google's 25 IFEval instructions, as open-instruct's IFEvalG checks them. */
final class IfevalChecks {
  private static final Pattern PLACEHOLDER = Regexes.compile("\\[.*?\\]");
  private static final Pattern STAR_BULLET = Regexes.compile("^\\s*\\*[^*].*$", Pattern.MULTILINE);
  private static final Pattern DASH_BULLET = Regexes.compile("^\\s*-.*$", Pattern.MULTILINE);
  private static final Pattern HIGHLIGHT = Regexes.compile("\\*[^\\n*]*\\*");
  private static final Pattern DOUBLE_HIGHLIGHT = Regexes.compile("\\*\\*[^\\n*]*\\*\\*");
  private static final Pattern TITLE = Regexes.compile("<<[^\\n]+>>");
  private static final Pattern WORD = Regexes.compile("\\w+");
  private static final Pattern STAR_DIVIDER = Regexes.compile("\\s?\\*\\*\\*\\s?");
  private static final List<String> CONSTRAINED = List.of("My answer is yes.", "My answer is no.",
      "My answer is maybe.");
  /** Python's json.loads: any value at the top, NaN and Infinity allowed, nothing after it. */
  private static final JsonMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private IfevalChecks() {}

  static Instruction keywordsExistence(Kwargs k) {
    List<Pattern> keywords = k.strings("keywords").stream().map(Regexes::ignoringCase).toList();
    return text -> keywords.stream().allMatch(keyword -> keyword.matcher(text).find());
  }

  static Instruction keywordFrequency(Kwargs k) {
    Pattern keyword = Regexes.ignoringCase(PyStr.strip(k.string("keyword")));
    int frequency = nonNegative(k, "frequency");
    Kwargs.Relation relation = k.relation("relation");
    return text -> relation.holds(Regexes.count(keyword, text), frequency);
  }

  static Instruction forbiddenWords(Kwargs k) {
    List<Pattern> words = k.strings("forbidden_words").stream()
        .map(word -> Regexes.ignoringCase("\\b" + word + "\\b")).toList();
    return text -> words.stream().noneMatch(word -> word.matcher(text).find());
  }

  static Instruction letterFrequency(Kwargs k) {
    String letter = PyStr.strip(k.string("letter"));
    if (letter.length() != 1 || PyStr.lower(letter).charAt(0) < 'a' || PyStr.lower(letter).charAt(0) > 'z') {
      throw new InvalidInstruction("letter", "letter must be one ASCII letter, not '" + letter + "'");
    }
    char wanted = PyStr.lower(letter).charAt(0);
    int frequency = nonNegative(k, "let_frequency");
    Kwargs.Relation relation = k.relation("let_relation");
    return text -> relation.holds(PyStr.lower(text).chars().filter(c -> c == wanted).count(), frequency);
  }

  static Instruction responseLanguage(Kwargs k) {
    String language = k.string("language");
    return text -> {
      try {
        return Languages.detect(text).equals(language);
      } catch (Languages.Undetectable e) {
        return true;
      }
    };
  }

  static Instruction numberSentences(Kwargs k) {
    int threshold = nonNegative(k, "num_sentences");
    Kwargs.Relation relation = k.relation("relation");
    return text -> relation.holds(Sentences.punkt(text).size(), threshold);
  }

  static Instruction numberParagraphs(Kwargs k) {
    int wanted = nonNegative(k, "num_paragraphs");
    return text -> starParagraphs(text) == wanted;
  }

  /** Paragraphs between {@code ***} dividers, or -1 when one in the middle is empty. */
  static int starParagraphs(String text) {
    return paragraphCount(starPieces(text));
  }

  /** The text split at {@code ***} dividers (with a whitespace character on each side), empty pieces kept. */
  static List<String> starPieces(String text) {
    return List.of(STAR_DIVIDER.split(text, -1));
  }

  /**
   * How many paragraphs the pieces of a split text are, as the IFEval checks count them: empty pieces at
   * either end do not count, and an empty one in the middle makes the count -1 (never what is wanted).
   */
  static int paragraphCount(List<String> pieces) {
    int count = pieces.size();
    for (int i = 0; i < pieces.size(); i++) {
      if (PyStr.strip(pieces.get(i)).isEmpty()) {
        if (i == 0 || i == pieces.size() - 1) {
          count--;
        } else {
          return -1;
        }
      }
    }
    return count;
  }

  static Instruction numberWords(Kwargs k) {
    int threshold = nonNegative(k, "num_words");
    Kwargs.Relation relation = k.relation("relation");
    return text -> relation.holds(Regexes.count(WORD, text), threshold);
  }

  static Instruction nthParagraphFirstWord(Kwargs k) {
    int wanted = nonNegative(k, "num_paragraphs");
    int nth = k.integer("nth_paragraph");
    if (nth <= 0 || nth > wanted) {
      throw new InvalidInstruction("nth_paragraph", "nth_paragraph must be between 1 and num_paragraphs");
    }
    String firstWord = PyStr.lower(k.string("first_word"));
    return text -> {
      List<String> paragraphs = PyStr.split(text, "\n\n");
      long count = paragraphs.stream().filter(p -> !PyStr.strip(p).isEmpty()).count();
      if (nth > count) {
        return false;
      }
      String paragraph = PyStr.strip(paragraphs.get(nth - 1));
      if (paragraph.isEmpty()) {
        return false;
      }
      String word = PyStr.lstrip(PyStr.lstrip(PyStr.split(paragraph).getFirst(), "'"), "\"");
      StringBuilder first = new StringBuilder();
      for (int i = 0; i < word.length() && ".,?!'\"".indexOf(word.charAt(i)) < 0; i++) {
        first.append(word.charAt(i));
      }
      return count == wanted && PyStr.lower(first.toString()).equals(firstWord);
    };
  }

  static Instruction numberPlaceholders(Kwargs k) {
    int wanted = nonNegative(k, "num_placeholders");
    return text -> Regexes.count(PLACEHOLDER, text) >= wanted;
  }

  static Instruction postscript(Kwargs k) {
    String marker = PyStr.strip(k.string("postscript_marker"));
    Pattern pattern = Regexes.compile(switch (marker) {
      case "P.P.S" -> "\\s*p\\.\\s?p\\.\\s?s.*$";
      case "P.S." -> "\\s*p\\.\\s?s\\..*$";
      default -> "\\s*" + PyStr.lower(marker) + ".*$";
    }, Pattern.MULTILINE);
    return text -> pattern.matcher(PyStr.lower(text)).find();
  }

  static Instruction numberBulletLists(Kwargs k) {
    int wanted = nonNegative(k, "num_bullets");
    return text -> Regexes.count(STAR_BULLET, text) + Regexes.count(DASH_BULLET, text) == wanted;
  }

  static Instruction constrainedResponse(Kwargs k) {
    return text -> {
      String stripped = PyStr.strip(text);
      return CONSTRAINED.stream().anyMatch(stripped::contains);
    };
  }

  static Instruction highlightedSections(Kwargs k) {
    int wanted = nonNegative(k, "num_highlights");
    return text -> {
      int count = 0;
      Matcher single = HIGHLIGHT.matcher(text);
      while (single.find()) {
        count += PyStr.strip(PyStr.strip(single.group(), "*")).isEmpty() ? 0 : 1;
      }
      Matcher twice = DOUBLE_HIGHLIGHT.matcher(text);
      while (twice.find()) {
        String core = twice.group().substring(2, twice.group().length() - 2);
        count += PyStr.strip(core).isEmpty() ? 0 : 1;
      }
      return count >= wanted;
    };
  }

  static Instruction multipleSections(Kwargs k) {
    Pattern splitter = Regexes.compile("\\s?" + PyStr.strip(k.string("section_spliter")) + "\\s?\\d+\\s?");
    int wanted = nonNegative(k, "num_sections");
    return text -> Regexes.count(splitter, text) >= wanted;
  }

  static Instruction jsonFormat(Kwargs k) {
    return text -> {
      String value = PyStr.strip(text);
      for (String fence : List.of("```json", "```Json", "```JSON", "```")) {
        if (value.startsWith(fence)) {
          value = value.substring(fence.length());
        }
      }
      if (value.endsWith("```")) {
        value = value.substring(0, value.length() - 3);
      }
      try {
        JSON.readTree(PyStr.strip(value));
        return !PyStr.strip(value).isEmpty();
      } catch (JacksonException e) {
        return false;
      }
    };
  }

  static Instruction title(Kwargs k) {
    return text -> {
      Matcher titles = TITLE.matcher(text);
      while (titles.find()) {
        if (!PyStr.strip(PyStr.rstrip(PyStr.lstrip(titles.group(), "<"), ">")).isEmpty()) {
          return true;
        }
      }
      return false;
    };
  }

  static Instruction twoResponses(Kwargs k) {
    return text -> {
      List<String> responses = PyStr.split(text, "******");
      List<String> valid = new java.util.ArrayList<>();
      for (int i = 0; i < responses.size(); i++) {
        if (PyStr.strip(responses.get(i)).isEmpty()) {
          if (i != 0 && i != responses.size() - 1) {
            return false;
          }
        } else {
          valid.add(responses.get(i));
        }
      }
      return valid.size() == 2 && !PyStr.strip(valid.get(0)).equals(PyStr.strip(valid.get(1)));
    };
  }

  static Instruction repeatPrompt(Kwargs k) {
    String prompt = PyStr.lower(PyStr.strip(k.string("prompt_to_repeat")));
    return text -> PyStr.lower(PyStr.strip(text)).startsWith(prompt);
  }

  static Instruction endChecker(Kwargs k) {
    String phrase = PyStr.lower(PyStr.strip(k.string("end_phrase")));
    return text -> PyStr.lower(PyStr.strip(PyStr.strip(text), "\"")).endsWith(phrase);
  }

  static Instruction quotation(Kwargs k) {
    return text -> {
      String value = PyStr.strip(text);
      return value.length() > 1 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"';
    };
  }

  static Instruction capitalWordFrequency(Kwargs k) {
    int frequency = k.integer("capital_frequency");
    Kwargs.Relation relation = k.relation("capital_relation");
    return text -> relation.holds(WordTokenizer.tokenize(text).stream().filter(PyStr::isUpper).count(), frequency);
  }

  static Instruction englishCapital(Kwargs k) {
    return text -> PyStr.isUpper(text) && isEnglish(text);
  }

  static Instruction englishLowercase(Kwargs k) {
    return text -> PyStr.isLower(text) && isEnglish(text);
  }

  /** English, or undetectable (which the checks count as followed). */
  private static boolean isEnglish(String text) {
    try {
      return Languages.detect(text).equals("en");
    } catch (Languages.Undetectable e) {
      return true;
    }
  }

  static Instruction noComma(Kwargs k) {
    return text -> text.indexOf(',') < 0;
  }

  /** A count the checker needs; Python draws a random one when it is negative. */
  static int nonNegative(Kwargs k, String name) {
    int value = k.integer(name);
    if (value < 0) {
      throw new InvalidInstruction(name, name + " cannot be negative");
    }
    return value;
  }
}
