package dev.gym4j.models;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code <think>…</think>} blocks of model text, found as NeMo Gym's {@code <think>(.*?)</think>} (DOTALL)
 * finds them: from the first opener that has a closer after it to that closer, then on after it.
 *
 * <p>In linear time, whatever the text: the regex tried every opener against the rest of the text, so 200 KB
 * of openers without a closer took 27 s. Here each opener and closer is looked for once; once no closer is
 * left, no later opener can have one, and the scan stops.
 */
final class ThinkBlocks {
  private static final String OPEN = "<think>";
  private static final String CLOSE = "</think>";

  private ThinkBlocks() {}

  /** The text inside each complete block, in order. */
  static List<String> contents(String text) {
    List<String> found = new ArrayList<>();
    scan(text, found, null);
    return found;
  }

  /** The text with every complete block taken out; unclosed openers stay. */
  static String without(String text) {
    StringBuilder rest = new StringBuilder(text.length());
    scan(text, null, rest);
    return rest.toString();
  }

  private static void scan(String text, List<String> contents, StringBuilder rest) {
    int from = 0;
    while (true) {
      int open = text.indexOf(OPEN, from);
      int close = open < 0 ? -1 : text.indexOf(CLOSE, open + OPEN.length());
      if (close < 0) {
        break;
      }
      if (contents != null) {
        contents.add(text.substring(open + OPEN.length(), close));
      }
      if (rest != null) {
        rest.append(text, from, open);
      }
      from = close + CLOSE.length();
    }
    if (rest != null) {
      rest.append(text, from, text.length());
    }
  }
}
