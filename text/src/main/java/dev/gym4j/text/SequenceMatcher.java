package dev.gym4j.text;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code difflib.SequenceMatcher} over the code points of two strings, with no junk function:
 * the same longest matches, matching blocks and {@link #ratio()}, so scores that NeMo Gym's verifiers
 * compute with difflib come out bit for bit. With {@code autojunk} (difflib's default), a code point that
 * fills more than 1 % of a second string of 200 or more is "popular": it never starts a match, though a
 * match may grow over it. Immutable after construction; not thread safe during it.
 */
public final class SequenceMatcher {
  private static final int[] NONE = new int[0];

  private final int[] a;
  private final int[] b;
  private final Map<Integer, int[]> positionsInB;
  // row buffers of find_longest_match's dynamic programme, stamped by row so they need no clearing
  private int[] previousLength;
  private int[] previousRow;
  private int[] currentLength;
  private int[] currentRow;
  private int row;

  public SequenceMatcher(String a, String b, boolean autojunk) {
    this.a = a.codePoints().toArray();
    this.b = b.codePoints().toArray();
    Map<Integer, List<Integer>> positions = new HashMap<>();
    for (int j = 0; j < this.b.length; j++) {
      positions.computeIfAbsent(this.b[j], c -> new ArrayList<>()).add(j);
    }
    int popular = this.b.length / 100 + 1;
    positionsInB = new HashMap<>();
    for (var entry : positions.entrySet()) {
      if (!(autojunk && this.b.length >= 200 && entry.getValue().size() > popular)) {
        positionsInB.put(entry.getKey(), entry.getValue().stream().mapToInt(Integer::intValue).toArray());
      }
    }
  }

  /** A block {@code a[i, i + size) == b[j, j + size)}. */
  public record Match(int i, int j, int size) {}

  /** {@code difflib}'s {@code find_longest_match}: the longest block, earliest in a, then in b. */
  public Match findLongestMatch(int alo, int ahi, int blo, int bhi) {
    if (previousLength == null) {
      previousLength = new int[b.length];
      previousRow = new int[b.length];
      currentLength = new int[b.length];
      currentRow = new int[b.length];
      Arrays.fill(previousRow, -1);
      Arrays.fill(currentRow, -1);
    }
    int besti = alo;
    int bestj = blo;
    int bestSize = 0;
    for (int i = alo; i < ahi; i++) {
      int stamp = ++row;
      for (int j : positionsInB.getOrDefault(a[i], NONE)) {
        if (j < blo) {
          continue;
        }
        if (j >= bhi) {
          break;
        }
        int k = (j > 0 && previousRow[j - 1] == stamp - 1 ? previousLength[j - 1] : 0) + 1;
        currentLength[j] = k;
        currentRow[j] = stamp;
        if (k > bestSize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestSize = k;
        }
      }
      int[] swap = previousLength;
      previousLength = currentLength;
      currentLength = swap;
      swap = previousRow;
      previousRow = currentRow;
      currentRow = swap;
    }
    // popular code points never start a match, but a match grows over equal neighbours of any kind
    while (besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1]) {
      besti--;
      bestj--;
      bestSize++;
    }
    while (besti + bestSize < ahi && bestj + bestSize < bhi && a[besti + bestSize] == b[bestj + bestSize]) {
      bestSize++;
    }
    row++;   // the next call must not read this call's last row as its previous one
    return new Match(besti, bestj, bestSize);
  }

  /** {@code get_matching_blocks()} without the final sentinel: ascending, adjacent blocks merged. */
  public List<Match> matchingBlocks() {
    List<Match> found = new ArrayList<>();
    Deque<int[]> queue = new ArrayDeque<>();
    queue.push(new int[] {0, a.length, 0, b.length});
    while (!queue.isEmpty()) {
      int[] range = queue.pop();
      Match match = findLongestMatch(range[0], range[1], range[2], range[3]);
      if (match.size() > 0) {
        found.add(match);
        if (range[0] < match.i() && range[2] < match.j()) {
          queue.push(new int[] {range[0], match.i(), range[2], match.j()});
        }
        if (match.i() + match.size() < range[1] && match.j() + match.size() < range[3]) {
          queue.push(new int[] {match.i() + match.size(), range[1], match.j() + match.size(), range[3]});
        }
      }
    }
    found.sort(Comparator.comparingInt(Match::i).thenComparingInt(Match::j).thenComparingInt(Match::size));
    List<Match> merged = new ArrayList<>();
    Match open = null;
    for (Match next : found) {
      if (open != null && open.i() + open.size() == next.i() && open.j() + open.size() == next.j()) {
        open = new Match(open.i(), open.j(), open.size() + next.size());
      } else {
        if (open != null) {
          merged.add(open);
        }
        open = next;
      }
    }
    if (open != null) {
      merged.add(open);
    }
    return merged;
  }

  /** {@code ratio()}: twice the matched code points over the total, 1.0 for two empty strings. */
  public double ratio() {
    int total = a.length + b.length;
    if (total == 0) {
      return 1.0;
    }
    int matched = 0;
    for (Match match : matchingBlocks()) {
      matched += match.size();
    }
    return 2.0 * matched / total;
  }

  public static double ratio(String a, String b) {
    return new SequenceMatcher(a, b, true).ratio();
  }
}
