package dev.gym4j.text;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The content of the last {@code \boxed{…}} whose braces balance, the answer convention of math and
 * multiple-choice prompts. Matching braces are found in one pass, so a megabyte of unclosed boxes costs
 * linear time (trying each box in turn, as a plain scan does, is quadratic).
 */
public final class Boxed {
  private static final String OPEN = "\\boxed{";

  private Boxed() {}

  /** The raw content between the braces, or null when no box closes. */
  public static String last(String text) {
    int[] closing = closingBraces(text);
    for (int at = text.lastIndexOf(OPEN); at >= 0; at = at == 0 ? -1 : text.lastIndexOf(OPEN, at - 1)) {
      int brace = at + OPEN.length() - 1;
      if (closing[brace] > 0) {
        return text.substring(brace + 1, closing[brace]);
      }
    }
    return null;
  }

  /** For each '{', the index of the '}' that closes it (0 when none does). */
  private static int[] closingBraces(String text) {
    int[] closing = new int[text.length()];
    Deque<Integer> open = new ArrayDeque<>();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        open.push(i);
      } else if (c == '}' && !open.isEmpty()) {
        closing[open.pop()] = i;
      }
    }
    return closing;
  }
}
