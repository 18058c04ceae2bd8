package dev.gym4j.environments.rolemrc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * ROUGE F-measures as Google's rouge_score computes them with {@code use_stemmer=True}: text lower-cased, every
 * run of characters other than a-z and 0-9 a separator, tokens longer than three letters Porter-stemmed;
 * rouge1/rouge2 from clipped n-gram counts, rougeL from the longest common subsequence, rougeLsum from the
 * union LCS of newline-separated sentences.
 */
final class Rouge {
  private static final Pattern NON_ALPHANUMERIC = Pattern.compile("[^a-z0-9]+");
  private static final Pattern VALID = Pattern.compile("^[a-z0-9]+$");

  private Rouge() {}

  /** rouge1, rouge2, rougeL and rougeLsum F-measures of the prediction against the target. */
  static Map<String, Double> scores(String target, String prediction) {
    List<String> t = tokens(target);
    List<String> p = tokens(prediction);
    Map<String, Double> out = new java.util.LinkedHashMap<>();
    out.put("rouge1", ngrams(t, p, 1));
    out.put("rouge2", ngrams(t, p, 2));
    out.put("rougeL", lcs(t, p));
    out.put("rougeLsum", summaryLcs(sentences(target), sentences(prediction)));
    return out;
  }

  static List<String> tokens(String text) {
    String lower = NON_ALPHANUMERIC.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ");
    List<String> tokens = new ArrayList<>();
    for (String token : lower.split("\\s+", -1)) {
      String stemmed = token.length() > 3 ? PorterStemmer.stem(token) : token;
      if (VALID.matcher(stemmed).matches()) {
        tokens.add(stemmed);
      }
    }
    return tokens;
  }

  private static List<List<String>> sentences(String text) {
    List<List<String>> out = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        out.add(tokens(line));
      }
    }
    return out;
  }

  static double fmeasure(double precision, double recall) {
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
  }

  private static double ngrams(List<String> target, List<String> prediction, int n) {
    Map<List<String>, Integer> t = counts(target, n);
    Map<List<String>, Integer> p = counts(prediction, n);
    int overlap = 0;
    for (var entry : t.entrySet()) {
      overlap += Math.min(entry.getValue(), p.getOrDefault(entry.getKey(), 0));
    }
    int targetCount = t.values().stream().mapToInt(Integer::intValue).sum();
    int predictionCount = p.values().stream().mapToInt(Integer::intValue).sum();
    double precision = (double) overlap / Math.max(predictionCount, 1);
    double recall = (double) overlap / Math.max(targetCount, 1);
    return fmeasure(precision, recall);
  }

  private static Map<List<String>, Integer> counts(List<String> tokens, int n) {
    Map<List<String>, Integer> counts = new HashMap<>();
    for (int i = 0; i + n <= tokens.size(); i++) {
      counts.merge(List.copyOf(tokens.subList(i, i + n)), 1, Integer::sum);
    }
    return counts;
  }

  private static int[][] table(List<String> a, List<String> b) {
    int[][] t = new int[a.size() + 1][b.size() + 1];
    for (int i = 1; i <= a.size(); i++) {
      for (int j = 1; j <= b.size(); j++) {
        t[i][j] = a.get(i - 1).equals(b.get(j - 1)) ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
      }
    }
    return t;
  }

  private static double lcs(List<String> target, List<String> prediction) {
    if (target.isEmpty() || prediction.isEmpty()) {
      return 0.0;
    }
    int length = table(target, prediction)[target.size()][prediction.size()];
    return fmeasure((double) length / prediction.size(), (double) length / target.size());
  }

  /** The indices in {@code ref} of one LCS with {@code candidate}, by rouge_score's backtracking. */
  private static List<Integer> lcsIndices(List<String> ref, List<String> candidate) {
    int[][] t = table(ref, candidate);
    List<Integer> indices = new ArrayList<>();
    int i = ref.size();
    int j = candidate.size();
    while (i > 0 && j > 0) {
      if (ref.get(i - 1).equals(candidate.get(j - 1))) {
        indices.addFirst(i - 1);
        i--;
        j--;
      } else if (t[i][j - 1] > t[i - 1][j]) {
        j--;
      } else {
        i--;
      }
    }
    return indices;
  }

  private static double summaryLcs(List<List<String>> references, List<List<String>> candidates) {
    if (references.isEmpty() || candidates.isEmpty()) {
      return 0.0;
    }
    int m = references.stream().mapToInt(List::size).sum();
    int n = candidates.stream().mapToInt(List::size).sum();
    if (m == 0 || n == 0) {
      return 0.0;
    }
    Map<String, Integer> referenceCounts = new HashMap<>();
    Map<String, Integer> candidateCounts = new HashMap<>();
    references.forEach(s -> s.forEach(token -> referenceCounts.merge(token, 1, Integer::sum)));
    candidates.forEach(s -> s.forEach(token -> candidateCounts.merge(token, 1, Integer::sum)));
    int hits = 0;
    for (List<String> reference : references) {
      TreeSet<Integer> union = new TreeSet<>();
      for (List<String> candidate : candidates) {
        union.addAll(lcsIndices(reference, candidate));
      }
      for (int index : union) {
        String token = reference.get(index);
        if (candidateCounts.getOrDefault(token, 0) > 0 && referenceCounts.getOrDefault(token, 0) > 0) {
          hits++;
          candidateCounts.merge(token, -1, Integer::sum);
          referenceCounts.merge(token, -1, Integer::sum);
        }
      }
    }
    return fmeasure((double) hits / n, (double) hits / m);
  }
}
