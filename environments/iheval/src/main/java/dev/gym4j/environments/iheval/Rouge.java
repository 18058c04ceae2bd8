package dev.gym4j.environments.iheval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;

/**
 * The scores of Google's {@code rouge_score} package that IHEval uses, without stemming: its default tokenizer
 * (lower-case, every run of characters other than {@code a-z0-9} a separator, so letters outside ASCII drop out),
 * ROUGE-L (longest common subsequence) and ROUGE-1 (unigram overlap).
 */
final class Rouge {
  private static final Pattern NON_ALPHANUMERIC = Pattern.compile("[^a-z0-9]+");
  /** The most LCS cells computed for one score: beyond it the response is refused as too long to score. */
  static final long MAX_LCS_CELLS = 200_000_000L;

  private Rouge() {}

  record Score(double precision, double recall, double fmeasure) {}

  static List<String> tokenize(String text) {
    String lowered = NON_ALPHANUMERIC.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ");
    List<String> tokens = new ArrayList<>();
    for (String token : lowered.split(" ")) {
      if (!token.isEmpty()) {
        tokens.add(token);
      }
    }
    return tokens;
  }

  /** {@code RougeScorer(["rougeL"]).score(target, prediction)["rougeL"]}. */
  static Score rougeL(String target, String prediction) {
    List<String> t = tokenize(target);
    List<String> p = tokenize(prediction);
    if (t.isEmpty() || p.isEmpty()) {
      return new Score(0, 0, 0);
    }
    if ((long) t.size() * p.size() > MAX_LCS_CELLS) {
      throw new FieldError(List.of("response"), "the response is too long to score (" + p.size() + " words)");
    }
    int lcs = lcsLength(t, p);
    double precision = (double) lcs / p.size();
    double recall = (double) lcs / t.size();
    return new Score(precision, recall, fmeasure(precision, recall));
  }

  /** {@code RougeScorer(["rouge1"]).score(target, prediction)["rouge1"]}. */
  static Score rouge1(String target, String prediction) {
    Map<String, Integer> t = counts(tokenize(target));
    Map<String, Integer> p = counts(tokenize(prediction));
    int overlap = 0;
    for (var entry : t.entrySet()) {
      overlap += Math.min(entry.getValue(), p.getOrDefault(entry.getKey(), 0));
    }
    int targetCount = t.values().stream().mapToInt(Integer::intValue).sum();
    int predictionCount = p.values().stream().mapToInt(Integer::intValue).sum();
    double precision = (double) overlap / Math.max(predictionCount, 1);
    double recall = (double) overlap / Math.max(targetCount, 1);
    return new Score(precision, recall, fmeasure(precision, recall));
  }

  private static Map<String, Integer> counts(List<String> tokens) {
    Map<String, Integer> counts = new HashMap<>();
    tokens.forEach(token -> counts.merge(token, 1, Integer::sum));
    return counts;
  }

  private static double fmeasure(double precision, double recall) {
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
  }

  /** The length of the longest common subsequence, with two rows of the table in memory. */
  private static int lcsLength(List<String> a, List<String> b) {
    int[] previous = new int[b.size() + 1];
    int[] current = new int[b.size() + 1];
    for (int i = 1; i <= a.size(); i++) {
      String token = a.get(i - 1);
      for (int j = 1; j <= b.size(); j++) {
        current[j] = token.equals(b.get(j - 1)) ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.size()];
  }
}
