package dev.gym4j.environments.ruler2;

import java.util.List;
import java.util.Locale;

import dev.gym4j.text.EditDistance;
import dev.gym4j.text.PythonText;

/**
 * RULER v2's soft string match (NeMo Skills' {@code eval_ruler2}, as NeMo Gym's ruler2 ports it): per
 * reference, 1 when it occurs in the prediction (both lower-cased), else 1 − the word error rate of the
 * prediction against it.
 */
final class SoftMatch {
  private SoftMatch() {}

  static double score(String matchType, String prediction, List<String> references) {
    if (references.isEmpty()) {
      return 0.0;
    }
    return switch (matchType) {
      case "part" -> {
        String text = cutDocumentHeaders(prediction);
        yield references.stream().mapToDouble(reference -> soft(text, reference)).max().orElse(0.0);
      }
      case "2steps" -> {
        String[] paragraphs = prediction.split("\n\n", -1);
        yield mean(paragraphs[paragraphs.length - 1], references);
      }
      default -> mean(prediction, references);
    };
  }

  private static double mean(String prediction, List<String> references) {
    double sum = 0;
    for (String reference : references) {
      sum += soft(prediction, reference);
    }
    return sum / references.size();
  }

  static double soft(String prediction, String reference) {
    String p = prediction.toLowerCase(Locale.ROOT);
    String r = reference.toLowerCase(Locale.ROOT);
    double substring = p.contains(r) ? 1.0 : 0.0;
    List<String> referenceWords = PythonText.split(r);
    if (referenceWords.isEmpty()) {
      return substring;   // the error rate is infinite
    }
    double wer = (double) EditDistance.levenshtein(PythonText.split(p), referenceWords) / referenceWords.size();
    return Math.max(substring, 1.0 - wer);
  }

  /**
   * Python's {@code re.sub(r"Document \d+:(?:.*\n)+?\n", "", text)} in one pass: a header runs through the
   * end of its line and on to the first blank line after it.
   */
  static String cutDocumentHeaders(String text) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    int at = from;
    while ((at = text.indexOf("Document ", at)) >= 0) {
      int digits = at + "Document ".length();
      int colon = digits;
      while (colon < text.length() && Character.isDigit(text.charAt(colon))) {
        colon++;
      }
      if (colon == digits || colon >= text.length() || text.charAt(colon) != ':') {
        at++;
        continue;
      }
      int lineEnd = text.indexOf('\n', colon + 1);
      int blank = lineEnd < 0 ? -1 : text.indexOf("\n\n", lineEnd);
      if (blank < 0) {
        break;   // no blank line follows, so no later header can end either
      }
      out.append(text, from, at);
      from = blank + 2;
      at = from;
    }
    return out.append(text, from, text.length()).toString();
  }
}
