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

  /** Where a {@link Splitter} sends what it has decided: text outside blocks, and each complete block's content. */
  interface Parts {
    void text(String text) throws java.io.IOException;

    void thought(String text) throws java.io.IOException;
  }

  /**
   * The blocks of a text that arrives in pieces, decided as soon as they can be and the same as
   * {@link #contents} and {@link #without} decide them on the whole text: text goes out as it comes, but for
   * a tail that may be the start of an opener; a block goes out when its closer arrives (until then it may
   * yet stay text: an opener never closed is text). Not thread-safe.
   */
  static final class Splitter {
    private final Parts parts;
    private final StringBuilder pending = new StringBuilder();
    private boolean inBlock;

    Splitter(Parts parts) {
      this.parts = parts;
    }

    void add(String piece) throws java.io.IOException {
      pending.append(piece);
      while (true) {
        if (!inBlock) {
          int open = pending.indexOf(OPEN);
          if (open < 0) {
            int keep = partialOpener(pending);
            send(pending.length() - keep);
            return;
          }
          send(open);
          pending.delete(0, OPEN.length());
          inBlock = true;
        } else {
          int close = pending.indexOf(CLOSE);
          if (close < 0) {
            return;
          }
          parts.thought(pending.substring(0, close));
          pending.delete(0, close + CLOSE.length());
          inBlock = false;
        }
      }
    }

    /** The text has ended: what was held is text, an unclosed opener included. */
    void end() throws java.io.IOException {
      String rest = (inBlock ? OPEN : "") + pending;
      pending.setLength(0);
      inBlock = false;
      if (!rest.isEmpty()) {
        parts.text(rest);
      }
    }

    private void send(int length) throws java.io.IOException {
      if (length > 0) {
        String text = pending.substring(0, length);
        pending.delete(0, length);
        parts.text(text);
      }
    }

    /** How many characters at the end of {@code text} could be the start of an opener. */
    private static int partialOpener(CharSequence text) {
      for (int keep = Math.min(OPEN.length() - 1, text.length()); keep > 0; keep--) {
        if (OPEN.startsWith(text.subSequence(text.length() - keep, text.length()).toString())) {
          return keep;
        }
      }
      return 0;
    }
  }
}
