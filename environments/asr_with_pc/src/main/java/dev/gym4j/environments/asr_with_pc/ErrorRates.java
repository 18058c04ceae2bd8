package dev.gym4j.environments.asr_with_pc;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.text.EditDistance;
import dev.gym4j.text.PythonText;

/**
 * Word error rate as jiwer computes it (its default transform: runs of whitespace made one space, stripped,
 * split on spaces) and the punctuation error rate of NeMo Gym's asr_with_pc.
 */
final class ErrorRates {
  private static final Pattern MULTIPLE_SPACES = PythonRegex.compile("\\s\\s+");

  private ErrorRates() {}

  /** jiwer's words of a sentence. */
  static List<String> words(String sentence) {
    String s = PythonText.strip(PythonRegex.sub(MULTIPLE_SPACES, sentence, " "));
    List<String> words = new ArrayList<>();
    for (String word : s.split(" ", -1)) {
      if (!word.isEmpty()) {
        words.add(word);
      }
    }
    return words;
  }

  /** {@code jiwer.wer(reference, hypothesis)}. */
  static double wer(String reference, String hypothesis) {
    return wer(List.of(reference), List.of(hypothesis));
  }

  /**
   * {@code jiwer.wer(references, hypotheses)} over a corpus: word edits over reference words; with no
   * reference words at all, the number of hypothesis words (jiwer's convention for silence).
   */
  static double wer(List<String> references, List<String> hypotheses) {
    long edits = 0;
    long referenceWords = 0;
    long hypothesisWords = 0;
    for (int i = 0; i < references.size(); i++) {
      List<String> reference = words(references.get(i));
      List<String> hypothesis = words(hypotheses.get(i));
      edits += EditDistance.levenshtein(reference, hypothesis);
      referenceWords += reference.size();
      hypothesisWords += hypothesis.size();
    }
    return referenceWords == 0 ? hypothesisWords : (double) edits / referenceWords;
  }

  /** The characters that are neither alphanumeric nor whitespace, in order (NeMo Gym's extract_punctuation). */
  static List<String> punctuation(String text) {
    List<String> marks = new ArrayList<>();
    text.codePoints().forEach(c -> {
      if (!isAlnum(c) && !PythonText.isSpace(c)) {
        marks.add(Character.toString(c));
      }
    });
    return marks;
  }

  /** Python's {@code str.isalnum()} for one character: a letter or a number. */
  static boolean isAlnum(int c) {
    return Character.isLetter(c) || switch (Character.getType(c)) {
      case Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
      default -> false;
    };
  }

  /**
   * Punctuation error rate: the punctuation of both texts aligned by a table of (correct, substituted, deleted,
   * inserted) counts, where a mismatch takes the first of substitution, deletion, insertion with the fewest
   * errors; (S + D + I) / (C + S + D + I), 0 when neither text has punctuation.
   */
  static double per(String reference, String hypothesis) {
    List<String> ref = punctuation(reference);
    List<String> hyp = punctuation(hypothesis);
    if (ref.isEmpty() && hyp.isEmpty()) {
      return 0.0;
    }
    int[][][] dp = new int[ref.size() + 1][hyp.size() + 1][4];
    for (int i = 1; i <= ref.size(); i++) {
      dp[i][0][2] = i;
    }
    for (int j = 1; j <= hyp.size(); j++) {
      dp[0][j][3] = j;
    }
    for (int i = 1; i <= ref.size(); i++) {
      for (int j = 1; j <= hyp.size(); j++) {
        if (ref.get(i - 1).equals(hyp.get(j - 1))) {
          dp[i][j] = dp[i - 1][j - 1].clone();
          dp[i][j][0]++;
        } else {
          int[] substitution = dp[i - 1][j - 1].clone();
          substitution[1]++;
          int[] deletion = dp[i - 1][j].clone();
          deletion[2]++;
          int[] insertion = dp[i][j - 1].clone();
          insertion[3]++;
          int[] best = substitution;
          for (int[] candidate : new int[][] {deletion, insertion}) {
            if (errors(candidate) < errors(best)) {
              best = candidate;
            }
          }
          dp[i][j] = best;
        }
      }
    }
    int[] last = dp[ref.size()][hyp.size()];
    int total = last[0] + last[1] + last[2] + last[3];
    return total > 0 ? (double) errors(last) / total : 0.0;
  }

  private static int errors(int[] counts) {
    return counts[1] + counts[2] + counts[3];
  }

  /** NeMo Gym's split_tokens: runs of word characters, and each other non-space character alone. */
  static List<String> tokens(String text) {
    Matcher matcher = TOKEN.matcher(text);
    List<String> tokens = new ArrayList<>();
    while (matcher.find()) {
      tokens.add(matcher.group());
    }
    return tokens;
  }

  private static final Pattern TOKEN = PythonRegex.compile("\\w+|[^\\w\\s]");
}
