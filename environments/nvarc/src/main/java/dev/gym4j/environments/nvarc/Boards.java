package dev.gym4j.environments.nvarc;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.text.PythonText;

/**
 * A grid read from text as NVARC's {@code Board.from_text} reads it with the integer palette (NeMo Gym's
 * resources_servers/nvarc/problem.py): {@code <think>} blocks cut; the text from the first {@code \boxed{}}
 * to the last closing brace if there is one; every character that is neither white space nor a word
 * character dropped; every word other than a single digit 0–9 dropped; each non-blank line a row. The grid
 * must be non-empty and rectangular.
 */
final class Boards {
  private Boards() {}

  static List<List<Integer>> parse(String response) {
    String text = PythonText.strip(cutThink(response));
    int boxed = text.indexOf("\\boxed{");
    if (boxed >= 0) {
      int close = text.lastIndexOf('}');
      if (close > boxed + "\\boxed{".length()) {
        text = text.substring(boxed + "\\boxed{".length(), close);
      }
    }
    // first every character that is neither space nor word goes, then every word but a digit: in that order,
    // so "\\boxed{3" becomes the one word "boxed3", which goes too
    StringBuilder words = new StringBuilder();
    text.codePoints().filter(c -> isWord(c) || PythonText.isSpace(c)).forEach(words::appendCodePoint);
    StringBuilder kept = new StringBuilder();
    int i = 0;
    while (i < words.length()) {
      int c = words.codePointAt(i);
      if (isWord(c)) {
        int end = i;
        while (end < words.length() && isWord(words.codePointAt(end))) {
          end += Character.charCount(words.codePointAt(end));
        }
        if (end - i == 1 && words.charAt(i) >= '0' && words.charAt(i) <= '9') {
          kept.append(words.charAt(i));
        }
        i = end;
      } else {
        kept.appendCodePoint(c);
        i += Character.charCount(c);
      }
    }
    List<List<Integer>> board = new ArrayList<>();
    for (String line : kept.toString().split("\n", -1)) {
      if (!PythonText.strip(line).isEmpty()) {
        List<Integer> row = new ArrayList<>();
        PythonText.split(line).forEach(cell -> row.add(Integer.parseInt(cell)));
        board.add(row);
      }
    }
    if (board.isEmpty() || board.getFirst().isEmpty()) {
      return null;
    }
    int columns = board.getFirst().size();
    return board.stream().allMatch(row -> row.size() == columns) ? board : null;
  }

  /** Python's {@code re.sub(r"<think>.*?</think>", "", text, flags=re.DOTALL)} in one pass. */
  private static String cutThink(String text) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    while (true) {
      int start = text.indexOf("<think>", from);
      int end = start < 0 ? -1 : text.indexOf("</think>", start + 7);
      if (end < 0) {
        return out.append(text, from, text.length()).toString();
      }
      out.append(text, from, start);
      from = end + 8;
    }
  }

  /** Python's {@code \w}: letters, numbers of every kind, underscore. */
  private static boolean isWord(int c) {
    int type = Character.getType(c);
    return Character.isLetterOrDigit(c) || c == '_' || type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER;
  }
}
