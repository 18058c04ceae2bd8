package dev.gym4j.environments.rolemrc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.gym4j.text.PythonText;

/**
 * sacrebleu's {@code sentence_bleu(hypothesis, [reference])} (sacrebleu 2.x defaults): the 13a tokenizer,
 * n-grams up to 4, exponential smoothing ("exp", mteval's), effective order, brevity penalty; 0-100.
 */
final class SentenceBleu {
  private static final Pattern[] PATTERNS = {Pattern.compile("([\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/])"),
      Pattern.compile("([^0-9])([\\.,])"), Pattern.compile("([\\.,])([^0-9])"), Pattern.compile("([0-9])(-)")};
  private static final String[] REPLACEMENTS = {" $1 ", "$1 $2 ", " $1 $2", "$1 $2 "};
  private static final int ORDER = 4;

  private SentenceBleu() {}

  /** sacrebleu's 13a tokenization of one segment (after its {@code rstrip()}). */
  static List<String> tokenize13a(String segment) {
    String line = rstrip(segment).replace("<skipped>", "").replace("-\n", "").replace("\n", " ");
    if (line.contains("&")) {
      line = line.replace("&quot;", "\"").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
    }
    line = " " + line + " ";
    for (int i = 0; i < PATTERNS.length; i++) {
      line = PATTERNS[i].matcher(line).replaceAll(REPLACEMENTS[i]);
    }
    return PythonText.split(line);
  }

  private static String rstrip(String text) {
    int end = text.length();
    while (end > 0 && PythonText.isSpace(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }

  static double score(String hypothesis, String reference) {
    List<String> hyp = tokenize13a(hypothesis);
    List<String> ref = tokenize13a(reference);
    Map<List<String>, Integer> refCounts = ngrams(ref);
    int[] correct = new int[ORDER];
    int[] total = new int[ORDER];
    for (var entry : ngrams(hyp).entrySet()) {
      int n = entry.getKey().size() - 1;
      total[n] += entry.getValue();
      Integer inRef = refCounts.get(entry.getKey());
      if (inRef != null) {
        correct[n] += Math.min(entry.getValue(), inRef);
      }
    }
    int sysLen = hyp.size();
    int refLen = ref.size();
    double bp = 1.0;
    if (sysLen < refLen) {
      bp = sysLen > 0 ? Math.exp(1 - (double) refLen / sysLen) : 0.0;
    }
    boolean anyCorrect = false;
    for (int c : correct) {
      anyCorrect |= c != 0;
    }
    if (!anyCorrect) {
      return 0.0;
    }
    double[] precisions = new double[ORDER];
    double smooth = 1.0;
    int effectiveOrder = ORDER;
    for (int n = 1; n <= ORDER; n++) {
      if (total[n - 1] == 0) {
        break;
      }
      effectiveOrder = n;
      if (correct[n - 1] == 0) {
        smooth *= 2;
        precisions[n - 1] = 100.0 / (smooth * total[n - 1]);
      } else {
        precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
      }
    }
    double sum = 0.0;
    for (int i = 0; i < effectiveOrder; i++) {
      sum += precisions[i] == 0 ? -9999999999.0 : Math.log(precisions[i]);
    }
    return bp * Math.exp(sum / effectiveOrder);
  }

  private static Map<List<String>, Integer> ngrams(List<String> tokens) {
    Map<List<String>, Integer> counts = new HashMap<>();
    for (int n = 1; n <= ORDER; n++) {
      for (int i = 0; i + n <= tokens.size(); i++) {
        counts.merge(List.copyOf(tokens.subList(i, i + n)), 1, Integer::sum);
      }
    }
    return counts;
  }
}
