package dev.gym4j.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** "Did you mean": the known names closest to a misspelt one, by edit distance. */
final class Spelling {
  private static final int SHOWN = 3;

  private Spelling() {}

  /** {@code "; did you mean a, b or c?"}, or {@code ""} when no known name is close. */
  static String didYouMean(String typed, Collection<String> known) {
    List<String> close = closest(typed, known);
    if (close.isEmpty()) {
      return "";
    }
    String last = close.getLast();
    return "; did you mean " + (close.size() == 1 ? last
        : String.join(", ", close.subList(0, close.size() - 1)) + " or " + last) + "?";
  }

  /**
   * Up to three known names, nearest first, within half the typed name's length in edits (so a name shares at
   * least half its letters with what was typed); a name containing what was typed counts as near.
   */
  static List<String> closest(String typed, Collection<String> known) {
    String wanted = typed.toLowerCase(java.util.Locale.ROOT);
    int bound = Math.max(2, wanted.length() / 2);
    return known.stream()
        .filter(name -> distance(wanted, name.toLowerCase(java.util.Locale.ROOT)) <= bound
            || wanted.length() >= 3 && name.toLowerCase(java.util.Locale.ROOT).contains(wanted))
        .sorted(Comparator.comparingInt((String name) -> distance(wanted, name.toLowerCase(java.util.Locale.ROOT)))
            .thenComparing(Comparator.naturalOrder()))
        .limit(SHOWN).toList();
  }

  /** Levenshtein distance: insertions, deletions and substitutions, one each. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
