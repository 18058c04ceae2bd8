package dev.gym4j.environments.equivalence_rule;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The similarity ratio of Python's {@code difflib.SequenceMatcher(None, a, b).ratio()}, over code points,
 * including its "autojunk" rule: in a second string of 200 or more elements, an element that makes up
 * more than 1 % of it (plus one) is not used to start a match, only to extend one. Rewards computed with
 * NeMo Gym depend on these details, so they are kept exactly.
 */
public final class SequenceMatcher {
  private final int[] a;
  private final int[] b;
  private final Map<Integer, List<Integer>> positionsInB = new HashMap<>();

  private SequenceMatcher(String first, String second) {
    this.a = first.codePoints().toArray();
    this.b = second.codePoints().toArray();
    for (int j = 0; j < b.length; j++) {
      positionsInB.computeIfAbsent(b[j], k -> new java.util.ArrayList<>()).add(j);
    }
    if (b.length >= 200) {
      int limit = b.length / 100 + 1;
      positionsInB.values().removeIf(positions -> positions.size() > limit);
    }
  }

  /** 2·M / (|a| + |b|), where M is the number of matched elements; 1.0 for two empty strings. */
  public static double ratio(String first, String second) {
    SequenceMatcher matcher = new SequenceMatcher(first, second);
    int total = first.codePointCount(0, first.length()) + second.codePointCount(0, second.length());
    return total == 0 ? 1.0 : 2.0 * matcher.matched() / total;
  }

  private int matched() {
    int matched = 0;
    Deque<int[]> queue = new ArrayDeque<>();
    queue.push(new int[] {0, a.length, 0, b.length});
    while (!queue.isEmpty()) {
      int[] range = queue.pop();
      int[] match = longestMatch(range[0], range[1], range[2], range[3]);
      int i = match[0];
      int j = match[1];
      int size = match[2];
      if (size > 0) {
        matched += size;
        if (range[0] < i && range[2] < j) {
          queue.push(new int[] {range[0], i, range[2], j});
        }
        if (i + size < range[1] && j + size < range[3]) {
          queue.push(new int[] {i + size, range[1], j + size, range[3]});
        }
      }
    }
    return matched;
  }

  /** The longest matching block in a[alo:ahi] and b[blo:bhi], earliest in a, then in b. */
  private int[] longestMatch(int alo, int ahi, int blo, int bhi) {
    int besti = alo;
    int bestj = blo;
    int bestSize = 0;
    Map<Integer, Integer> lengths = new HashMap<>();
    for (int i = alo; i < ahi; i++) {
      Map<Integer, Integer> next = new HashMap<>();
      for (int j : positionsInB.getOrDefault(a[i], List.of())) {
        if (j < blo) {
          continue;
        }
        if (j >= bhi) {
          break;
        }
        int k = lengths.getOrDefault(j - 1, 0) + 1;
        next.put(j, k);
        if (k > bestSize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestSize = k;
        }
      }
      lengths = next;
    }
    // popular elements (autojunk) never start a match but may extend one
    while (besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1]) {
      besti--;
      bestj--;
      bestSize++;
    }
    while (besti + bestSize < ahi && bestj + bestSize < bhi && a[besti + bestSize] == b[bestj + bestSize]) {
      bestSize++;
    }
    return new int[] {besti, bestj, bestSize};
  }
}
