package dev.gym4j.text;

import java.util.List;

/** Edit distances over sequences, as the word error rates of NeMo Gym's environments compute them. */
public final class EditDistance {
  private EditDistance() {}

  /**
   * The Levenshtein distance between two sequences (insertions, deletions and substitutions each cost 1;
   * elements compare with {@code equals}), in two rows of memory.
   */
  public static int levenshtein(List<?> a, List<?> b) {
    int[] previous = new int[b.size() + 1];
    int[] current = new int[b.size() + 1];
    for (int j = 0; j <= b.size(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.size(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.size(); j++) {
        int substitution = previous[j - 1] + (a.get(i - 1).equals(b.get(j - 1)) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.size()];
  }
}
