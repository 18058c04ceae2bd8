package dev.gym4j.environments.structeval;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.text.PythonText;

/**
 * XML read into the structure Python's {@code xmltodict.parse} builds ({@code {root: item}}; attributes as
 * {@code @name}, text beside attributes or children as {@code #text}, repeated children as a list, an empty
 * element as null), with Expat's error messages ({@code not well-formed (invalid token)},
 * {@code mismatched tag}, {@code no element found}, {@code junk after document element},
 * {@code syntax error}, {@code undefined entity}, {@code unclosed token}, {@code duplicate attribute}) and
 * positions (line from 1, column from 0). A small non-validating parser: no DTD is read and no entity
 * beyond the five predefined ones and character references is expanded, so nothing outside the text is
 * ever fetched; iterative, so deep nesting cannot exhaust the stack.
 */
final class XmlToDict {
  private final String text;
  private int pos;

  private XmlToDict(String text) {
    this.text = text;
  }

  /** An Expat error: its message and where. */
  static final class ExpatError extends RuntimeException {
    ExpatError(String message) {
      super(message, null, false, false);
    }
  }

  static Map<String, Object> parse(String xml) {
    return new XmlToDict(xml).document();
  }

  private Map<String, Object> document() {
    misc();
    if (pos >= text.length()) {
      throw error("no element found", pos);
    }
    if (text.charAt(pos) != '<') {
      throw error("syntax error", pos);
    }
    Map<String, Object> root = element();
    misc();
    if (pos < text.length()) {
      throw error("junk after document element", pos);
    }
    return root;
  }

  /** White space, comments, processing instructions and a doctype, between markup at the top level. */
  private void misc() {
    while (pos < text.length()) {
      if (PythonText.isSpace(text.charAt(pos))) {
        pos++;
      } else if (text.startsWith("<!--", pos)) {
        skipPast("-->", pos);
      } else if (text.startsWith("<?", pos)) {
        skipPast("?>", pos);
      } else if (text.startsWith("<!DOCTYPE", pos)) {
        int bracket = text.indexOf('[', pos);
        int close = text.indexOf('>', pos);
        if (bracket >= 0 && bracket < close) {
          skipPast("]>", pos);
        } else {
          skipPast(">", pos);
        }
      } else {
        return;
      }
    }
  }

  private void skipPast(String end, int start) {
    int at = text.indexOf(end, pos + 2);
    if (at < 0) {
      throw error("unclosed token", start);
    }
    pos = at + end.length();
  }

  private record Open(String name, Map<String, Object> item, StringBuilder data) {}

  private Map<String, Object> element() {
    Deque<Open> stack = new ArrayDeque<>();
    Map<String, Object> document = new LinkedHashMap<>();
    Open root = startTag(document);
    if (root == null) {
      return document;
    }
    stack.push(root);
    while (!stack.isEmpty()) {
      if (pos >= text.length()) {
        throw error("no element found", pos);
      }
      char c = text.charAt(pos);
      if (c != '<' && c != '&') {
        stack.peek().data().append(c);
        pos++;
      } else if (c == '&') {
        stack.peek().data().append(reference());
      } else if (text.startsWith("</", pos)) {
        Open open = stack.pop();
        int nameAt = pos + 2;
        String name = name(nameAt);
        if (!name.equals(open.name())) {
          throw error("mismatched tag", nameAt);
        }
        pos = nameAt + name.length();
        skipSpace();
        expect('>');
        close(open, stack.isEmpty() ? document : stack.peek().item());
      } else if (text.startsWith("<!--", pos)) {
        skipPast("-->", pos);
      } else if (text.startsWith("<![CDATA[", pos)) {
        int end = text.indexOf("]]>", pos);
        if (end < 0) {
          throw error("unclosed CDATA section", pos);
        }
        stack.peek().data().append(text, pos + 9, end);
        pos = end + 3;
      } else if (text.startsWith("<?", pos)) {
        skipPast("?>", pos);
      } else {
        Open child = startTag(stack.peek().item());
        if (child != null) {
          stack.push(child);
        }
      }
    }
    return document;
  }

  /** Reads a start tag; returns the open element, or null for {@code <x/>} (already added to its parent). */
  private Open startTag(Map<String, Object> parent) {
    int nameAt = pos + 1;
    String name = name(nameAt);
    pos = nameAt + name.length();
    Map<String, Object> item = new LinkedHashMap<>();
    while (true) {
      boolean spaced = skipSpace();
      if (pos >= text.length()) {
        throw error("unclosed token", nameAt - 1);
      }
      if (text.startsWith("/>", pos)) {
        pos += 2;
        close(new Open(name, item, new StringBuilder()), parent);
        return null;
      }
      if (text.charAt(pos) == '>') {
        pos++;
        return new Open(name, item, new StringBuilder());
      }
      if (!spaced) {
        throw error("not well-formed (invalid token)", pos);
      }
      int attributeAt = pos;
      String attribute = name(attributeAt);
      pos += attribute.length();
      skipSpace();
      expect('=');
      skipSpace();
      if (pos >= text.length() || (text.charAt(pos) != '"' && text.charAt(pos) != '\'')) {
        throw error("not well-formed (invalid token)", pos);
      }
      char quote = text.charAt(pos++);
      StringBuilder value = new StringBuilder();
      while (true) {
        if (pos >= text.length()) {
          throw error("unclosed token", nameAt - 1);
        }
        char c = text.charAt(pos);
        if (c == quote) {
          pos++;
          break;
        }
        if (c == '<') {
          throw error("not well-formed (invalid token)", pos);
        }
        if (c == '&') {
          value.append(reference());
        } else {
          value.append(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
          pos++;
        }
      }
      if (item.putIfAbsent("@" + attribute, value.toString()) != null) {
        throw error("duplicate attribute", attributeAt);
      }
    }
  }

  /** xmltodict's end of an element: text stripped; a lone text is the value; repeats become a list. */
  @SuppressWarnings("unchecked")
  private static void close(Open open, Map<String, Object> parent) {
    String data = PythonText.strip(open.data().toString());
    Object item;
    if (!open.item().isEmpty()) {
      if (!data.isEmpty()) {
        open.item().put("#text", data);
      }
      item = open.item();
    } else {
      item = data.isEmpty() ? null : data;
    }
    if (parent.containsKey(open.name())) {
      Object existing = parent.get(open.name());
      if (existing instanceof List<?> list) {
        ((List<Object>) list).add(item);
      } else {
        List<Object> list = new ArrayList<>();
        list.add(existing);
        list.add(item);
        parent.put(open.name(), list);
      }
    } else {
      parent.put(open.name(), item);
    }
  }

  private String reference() {
    int start = pos;
    int semicolon = pos + 1;
    boolean numeric = semicolon < text.length() && text.charAt(semicolon) == '#';
    int i = numeric ? semicolon + 1 : semicolon;
    boolean hex = numeric && i < text.length() && text.charAt(i) == 'x';
    if (hex) {
      i++;
    }
    int digitsAt = i;
    while (i < text.length() && (numeric ? Character.digit(text.charAt(i), hex ? 16 : 10) >= 0 : isNameChar(text.charAt(i))
        && (i > digitsAt || isNameStart(text.charAt(i))))) {
      i++;
    }
    if (i >= text.length()) {
      throw error("no element found", text.length());
    }
    if (text.charAt(i) != ';' || i == digitsAt) {
      throw error("not well-formed (invalid token)", i);
    }
    pos = i + 1;
    String body = text.substring(digitsAt, i);
    if (numeric) {
      int code;
      try {
        code = Integer.parseInt(body, hex ? 16 : 10);
      } catch (NumberFormatException e) {
        throw error("reference to invalid character number", start);
      }
      if (!Character.isValidCodePoint(code) || code == 0 || (code >= 0xD800 && code <= 0xDFFF)) {
        throw error("reference to invalid character number", start);
      }
      return Character.toString(code);
    }
    return switch (body) {
      case "amp" -> "&";
      case "lt" -> "<";
      case "gt" -> ">";
      case "quot" -> "\"";
      case "apos" -> "'";
      default -> throw error("undefined entity", start);
    };
  }

  private String name(int at) {
    if (at >= text.length()) {
      throw error("unclosed token", at - 1);
    }
    if (!isNameStart(text.charAt(at))) {
      throw error("not well-formed (invalid token)", at);
    }
    int end = at + 1;
    while (end < text.length() && isNameChar(text.charAt(end))) {
      end++;
    }
    return text.substring(at, end);
  }

  private static boolean isNameStart(char c) {
    return Character.isLetter(c) || c == '_' || c == ':';
  }

  private static boolean isNameChar(char c) {
    return isNameStart(c) || Character.isDigit(c) || c == '-' || c == '.' || c == '\u00b7'
        || Character.getType(c) == Character.NON_SPACING_MARK || Character.getType(c) == Character.COMBINING_SPACING_MARK;
  }

  private boolean skipSpace() {
    int start = pos;
    while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t' || text.charAt(pos) == '\n'
        || text.charAt(pos) == '\r')) {
      pos++;
    }
    return pos > start;
  }

  private void expect(char c) {
    if (pos >= text.length()) {
      throw error("no element found", pos);
    }
    if (text.charAt(pos) != c) {
      throw error("not well-formed (invalid token)", pos);
    }
    pos++;
  }

  private ExpatError error(String message, int at) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < at && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return new ExpatError(message + ": line " + line + ", column " + (at - lineStart));
  }
}
