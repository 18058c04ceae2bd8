package dev.gym4j.environments.structeval;

import java.nio.charset.StandardCharsets;

import dev.gym4j.text.PythonText;

/**
 * The code block of a StructEval answer, as NeMo Gym's structeval (after StructEval's
 * {@code extract_code_and_save}) takes it: {@code &lt;}/{@code &gt;} and an empty think block undone, Python
 * {@code unicode_escape} decoding applied when it succeeds, then the first fenced block (closing fence
 * optional), else the {@code <|BEGIN_CODE|>} block (end tag optional), else the whole text; stripped.
 */
final class Code {
  private Code() {}

  static String extract(String answer) {
    String text = answer.replace("&lt;", "<").replace("&gt;", ">").replace("<think>\n\n</think>\n\n", "");
    String decoded = unicodeEscape(text);
    if (decoded != null) {
      text = decoded;
    }
    String fenced = fenced(text);
    if (fenced != null) {
      return PythonText.strip(fenced);
    }
    int begin = indexIgnoringCase(text, "<|BEGIN_CODE|>", 0);
    if (begin >= 0) {
      int start = begin + "<|BEGIN_CODE|>".length();
      while (start < text.length() && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
        start++;
      }
      if (start < text.length() && text.charAt(start) == '\n') {
        start++;
      }
      int end = indexIgnoringCase(text, "<|END_CODE|>", start);
      return PythonText.strip(text.substring(start, end < 0 ? text.length() : end));
    }
    return PythonText.strip(text);
  }

  /** The payload of the first {@code ```info\n … ```} (or to the end), or null when no fence has a newline after it. */
  private static String fenced(String text) {
    int fence = text.indexOf("```");
    if (fence < 0) {
      return null;
    }
    int newline = text.indexOf('\n', fence + 3);
    if (newline < 0) {
      return null;   // a later fence has no newline after it either
    }
    int close = text.indexOf("```", newline + 1);
    return text.substring(newline + 1, close < 0 ? text.length() : close);
  }

  private static int indexIgnoringCase(String text, String part, int from) {
    for (int i = from; i + part.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, part, 0, part.length())) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Python's {@code codecs.decode(text, "unicode_escape")}: the text as UTF-8 bytes read as Latin-1 with
   * backslash escapes resolved; null where Python raises (a truncated or invalid escape).
   */
  static String unicodeEscape(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length);
    int i = 0;
    while (i < bytes.length) {
      int b = bytes[i] & 0xFF;
      if (b != '\\') {
        out.append((char) b);
        i++;
        continue;
      }
      if (i + 1 >= bytes.length) {
        return null;   // \ at end of string
      }
      char e = (char) (bytes[i + 1] & 0xFF);
      i += 2;
      switch (e) {
        case '\n' -> { }
        case '\\', '\'', '"' -> out.append(e);
        case 'a' -> out.append('\u0007');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'v' -> out.append('\u000b');
        case 'x', 'u', 'U' -> {
          int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (i + digits > bytes.length) {
            return null;
          }
          int code = 0;
          for (int d = 0; d < digits; d++) {
            int v = Character.digit((char) (bytes[i + d] & 0xFF), 16);
            if (v < 0) {
              return null;
            }
            code = code * 16 + v;
          }
          if (code > 0x10FFFF || code < 0) {
            return null;
          }
          out.appendCodePoint(code);
          i += digits;
        }
        case 'N' -> {
          int close = -1;
          if (i < bytes.length && bytes[i] == '{') {
            for (int j = i + 1; j < bytes.length; j++) {
              if (bytes[j] == '}') {
                close = j;
                break;
              }
            }
          }
          if (close < 0) {
            return null;
          }
          String name = new String(bytes, i + 1, close - i - 1, StandardCharsets.ISO_8859_1);
          try {
            out.appendCodePoint(Character.codePointOf(name));
          } catch (IllegalArgumentException ex) {
            return null;
          }
          i = close + 1;
        }
        default -> {
          if (e >= '0' && e <= '7') {
            int code = e - '0';
            for (int d = 0; d < 2 && i < bytes.length && bytes[i] >= '0' && bytes[i] <= '7'; d++) {
              code = code * 8 + (bytes[i++] - '0');
            }
            out.append((char) code);
          } else {
            out.append('\\').append(e);
          }
        }
      }
    }
    return out.toString();
  }
}
