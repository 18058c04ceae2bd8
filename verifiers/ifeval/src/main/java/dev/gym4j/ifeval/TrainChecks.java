package dev.gym4j.ifeval;

import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The 29 instructions open-instruct added for IF training (its IFEvalG "new constraints"). */
final class TrainChecks {
  private static final Pattern LOWERCASE_WORD = Regexes.compile("\\b[a-z]+\\b");
  private static final Pattern ASCII_LETTER = Regexes.compile("[a-zA-Z]");
  private static final Pattern NOT_WORD = Regexes.compile("[^\\w\\s]");

  private TrainChecks() {}

  static Instruction repeatPhrase(Kwargs k) {
    String phrase = PyStr.strip(k.string("phrase"));
    int times = k.integer("small_n");
    List<String> reference = PyStr.split(phrase);
    Pattern found = Regexes.compile(reference.getFirst() + " .*? " + reference.getLast());
    return text -> {
      Matcher matcher = found.matcher(text);
      List<String> phrases = new java.util.ArrayList<>();
      while (matcher.find()) {
        phrases.add(matcher.group());
      }
      if (phrases.size() != times || phrases.isEmpty()) {
        return false;
      }
      int differences = 0;
      for (String candidate : phrases) {
        List<String> words = PyStr.split(candidate);
        if (words.size() != reference.size()) {
          return false;
        }
        differences = 0;
        for (int i = 0; i < words.size(); i++) {
          if (!words.get(i).equals(reference.get(i)) && ++differences > 1) {
            return false;
          }
        }
      }
      // as in the original, the verdict rests on the last repetition changing exactly one word
      return differences == 1;
    };
  }

  static Instruction copy(Kwargs k) {
    String prompt = PyStr.lower(PyStr.strip(k.string("prompt_to_repeat")));
    return text -> PyStr.lower(PyStr.strip(text)).equals(prompt);
  }

  static Instruction copyingMultiple(Kwargs k) {
    String prompt = PyStr.lower(PyStr.strip(k.string("prompt_to_repeat")));
    int times = k.integer("N");
    return text -> {
      List<String> copies = PyStr.split(text, "******");
      return copies.size() == times && copies.stream().allMatch(c -> PyStr.lower(PyStr.strip(c)).equals(prompt));
    };
  }

  static Instruction copySpanIdx(Kwargs k) {
    String prompt = k.string("prompt_to_repeat");
    String span = PyStr.lower(PyStr.strip(pythonSlice(prompt, k.integer("n_start"), k.integer("n_end"))));
    return text -> PyStr.lower(PyStr.strip(text)).equals(span);
  }

  /** {@code text[start:end]} with Python's clamping and negative indices (by code point). */
  static String pythonSlice(String text, int start, int end) {
    int[] points = text.codePoints().toArray();
    int n = points.length;
    int from = Math.clamp(start < 0 ? start + n : start, 0, n);
    int to = Math.clamp(end < 0 ? end + n : end, 0, n);
    return from >= to ? "" : new String(points, from, to - from);
  }

  static Instruction sentenceHyphens(Kwargs k) {
    return text -> {
      List<String> gold = Sentences.ifeval(text.replace("-", " "));
      List<String> parts = PyStr.split(text, "-");
      for (int i = 0; i < Math.min(gold.size(), parts.size()); i++) {
        String part = parts.get(i);
        if (!PyStr.strip(part).equals(part) || !part.equals(gold.get(i))) {
          return false;
        }
      }
      return true;
    };
  }

  static Instruction squareBrackets(Kwargs k) {
    return text -> PyStr.split(text).stream().allMatch(w -> w.startsWith("[") && w.endsWith("]"));
  }

  static Instruction bigramWrapping(Kwargs k) {
    return text -> {
      List<String> words = PyStr.split(text);
      for (int i = 0; i + 1 < words.size(); i += 2) {
        if (!(words.get(i).startsWith("<<") && words.get(i + 1).endsWith(">>"))) {
          return false;
        }
      }
      return true;
    };
  }

  static Instruction noAdjacentConsecutive(Kwargs k) {
    return text -> {
      List<String> words = PyStr.split(text);
      for (int i = 0; i + 1 < words.size(); i++) {
        String a = firstLetterLowered(words.get(i));
        String b = firstLetterLowered(words.get(i + 1));
        if (a.codePointCount(0, a.length()) != 1 || b.codePointCount(0, b.length()) != 1) {
          return false;
        }
        if (b.codePointAt(0) - a.codePointAt(0) == 1) {
          return false;
        }
      }
      return true;
    };
  }

  private static String firstLetterLowered(String word) {
    return PyStr.lower(new String(Character.toChars(word.codePointAt(0))));
  }

  static Instruction wordOnce(Kwargs k) {
    Pattern keyword = Regexes.ignoringCase(PyStr.strip(k.string("keyword")));
    return text -> Regexes.count(keyword, text) == 1;
  }

  static Instruction excludeWordHarder(Kwargs k) {
    String keyword = " " + PyStr.strip(k.string("keyword")) + " ";
    return text -> !text.contains(keyword);
  }

  static Instruction paragraphsStars(Kwargs k) {
    return text -> IfevalChecks.starParagraphs(text) == 2;
  }

  static Instruction paragraphsBlankLines(Kwargs k) {
    return text -> IfevalChecks.paragraphCount(PyStr.split(text, "\n\n")) == 2;
  }

  static Instruction firstWordSent(Kwargs k) {
    String first = PyStr.lower(PyStr.strip(k.string("first_word")));
    return text -> Sentences.ifeval(text).stream().allMatch(sentence -> !PyStr.strip(sentence).isEmpty()
        && PyStr.lower(PyStr.split(sentence).getFirst()).equals(first));
  }

  static Instruction firstWordAnswer(Kwargs k) {
    String first = PyStr.lower(PyStr.strip(k.string("first_word")));
    return text -> {
      List<String> words = PyStr.split(text);
      return !words.isEmpty() && PyStr.lower(words.getFirst()).equals(first);
    };
  }

  static Instruction lastWordSent(Kwargs k) {
    String last = PyStr.lower(PyStr.strip(k.string("last_word")));
    return text -> Sentences.ifeval(text).stream().allMatch(sentence -> !PyStr.strip(sentence).isEmpty()
        && PyStr.lower(NOT_WORD.matcher(PyStr.split(sentence).getLast()).replaceAll("")).equals(last));
  }

  static Instruction lastWordAnswer(Kwargs k) {
    String last = PyStr.lower(PyStr.strip(k.string("last_word")));
    return text -> {
      List<String> words = PyStr.split(text);
      return !words.isEmpty() && PyStr.lower(NOT_WORD.matcher(words.getLast()).replaceAll("")).equals(last);
    };
  }

  static Instruction noDot(Kwargs k) {
    return text -> text.indexOf('.') < 0;
  }

  static Instruction noExclamation(Kwargs k) {
    return text -> text.indexOf('!') < 0;
  }

  static Instruction lowercaseCounting(Kwargs k) {
    int most = k.integer("N");
    return text -> Regexes.count(LOWERCASE_WORD, text) <= most;
  }

  static Instruction letterCounting(Kwargs k) {
    int threshold = k.integer("N");
    Kwargs.Relation relation = k.relation("relation");
    return text -> relation.holds(Regexes.count(ASCII_LETTER, text), threshold);
  }

  static Instruction countingComposition(Kwargs k) {
    int sentences = k.integer("n_sent");
    int words = k.integer("n_words");
    return text -> {
      List<String> paragraphs = IfevalChecks.starPieces(text);
      int count = IfevalChecks.paragraphCount(paragraphs);
      if (count < 0) {
        return false;
      }
      for (String paragraph : paragraphs) {
        // as in the original, an empty first or last paragraph is still held to the sentence count
        List<String> found = Sentences.ifeval(paragraph);
        if (found.size() != sentences) {
          return false;
        }
        for (String sentence : found) {
          if (WordTokenizer.tokenize(sentence).size() != words) {
            return false;
          }
        }
      }
      return count == 3;
    };
  }

  static Instruction countUnique(Kwargs k) {
    return text -> {
      List<String> words = WordTokenizer.tokenize(text);
      return words.size() == new HashSet<>(words).size();
    };
  }

  static Instruction countIncrementWord(Kwargs k) {
    Pattern once = Regexes.ignoringCase(PyStr.strip(k.string("keyword1")));
    Pattern twice = Regexes.ignoringCase(PyStr.strip(k.string("keyword2")));
    return text -> Regexes.count(once, text) == 1 && Regexes.count(twice, text) == 2;
  }

  static Instruction palindrome(Kwargs k) {
    return text -> PyStr.split(text).stream()
        .anyMatch(word -> word.equals(new StringBuilder(word).reverse().toString()));
  }

  static Instruction keywordSpecificPosition(Kwargs k) {
    String keyword = PyStr.strip(k.string("keyword"));
    int n = k.integer("n");
    int m = k.integer("m");
    if (n < 1 || m < 1) {
      throw new InvalidInstruction(n < 1 ? "n" : "m", "n and m count from 1");
    }
    return text -> {
      List<String> sentences = Sentences.ifeval(text);
      if (sentences.size() < n) {
        return false;
      }
      List<String> words = WordTokenizer.tokenize(sentences.get(n - 1));
      return words.size() >= m && words.get(m - 1).equals(keyword);
    };
  }

  static Instruction startEnd(Kwargs k) {
    return text -> {
      List<String> words = WordTokenizer.tokenize(text);
      return words.size() >= 2 && PyStr.lower(words.getFirst()).equals(PyStr.lower(words.getLast()));
    };
  }
}
