package dev.gym4j.environments.graphwalks;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.text.PythonText;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The node list of a GraphWalks answer ({@code Final Answer: [n1, n2, …]} on the last non-empty line) and
 * its F1 against the expected nodes, as NeMo Gym's graphwalks and lc_niah read them.
 *
 * @param nodes the listed nodes in order, duplicates kept
 * @param parseFailed true when the last non-empty line has no {@code Final Answer: […]}
 */
public record NodeList(List<String> nodes, boolean parseFailed) {
  // UNIX_LINES: lines were split on \n only, so '.' must match \r as Python's does; \x1c-\x1f are Python spaces
  private static final Pattern FINAL_ANSWER = Pattern.compile("Final Answer:[\\s\\x1c-\\x1f]*\\[(.*)\\]",
      Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS);

  /**
   * Reads the answer. With {@code unquote}, items lose surrounding quotes ({@code ["a", 'b']}), as in
   * lc_niah; graphwalks keeps them.
   */
  public static NodeList parse(String response, boolean unquote) {
    String last = null;
    for (String line : PythonText.strip(response).split("\n", -1)) {
      if (!PythonText.strip(line).isEmpty()) {
        last = line;
      }
    }
    if (last == null) {
      return new NodeList(List.of(), true);
    }
    Matcher matcher = FINAL_ANSWER.matcher(last);
    if (!matcher.find()) {
      return new NodeList(List.of(), true);
    }
    List<String> nodes = new ArrayList<>();
    for (String raw : matcher.group(1).split(",", -1)) {
      String item = PythonText.strip(raw);
      if (unquote) {
        item = PythonText.strip(stripQuotes(item));
      }
      if (!item.isEmpty()) {
        nodes.add(item);
      }
    }
    return new NodeList(nodes, false);
  }

  private static String stripQuotes(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && (text.charAt(start) == '"' || text.charAt(start) == '\'')) {
      start++;
    }
    while (end > start && (text.charAt(end - 1) == '"' || text.charAt(end - 1) == '\'')) {
      end--;
    }
    return text.substring(start, end);
  }

  /**
   * Python's {@code set(json.loads(expected_answer))}: a list gives its items, a string its characters, an
   * object its keys; text that is not JSON, or a scalar, gives the empty set. Items that are not strings
   * can never equal a listed node, so they are kept as tagged JSON text.
   */
  public static Set<String> expected(String expectedAnswer) {
    JsonNode parsed;
    try {
      parsed = Json.parse(expectedAnswer);
    } catch (JacksonException e) {
      return Set.of();
    }
    Set<String> nodes = new HashSet<>();
    if (parsed.isArray()) {
      for (JsonNode item : parsed) {
        if (item.isContainer()) {
          throw new FieldError(List.of("expected_answer"), "must be a JSON list of node names", "value_error");
        }
        nodes.add(item.isString() ? item.stringValue() : "\u0000" + item);
      }
    } else if (parsed.isString()) {
      parsed.stringValue().codePoints().forEach(c -> nodes.add(Character.toString(c)));
    } else if (parsed.isObject()) {
      nodes.addAll(parsed.propertyNames());
    }
    return nodes;
  }

  /** F1 of this answer's node set against the expected one: 0 when unparsed, 1 when both are empty. */
  public double f1(Set<String> expected) {
    Set<String> predicted = new HashSet<>(nodes);
    if (parseFailed) {
      return 0.0;
    }
    if (expected.isEmpty() && predicted.isEmpty()) {
      return 1.0;
    }
    if (expected.isEmpty() || predicted.isEmpty()) {
      return 0.0;
    }
    long shared = predicted.stream().filter(expected::contains).count();
    if (shared == 0) {
      return 0.0;
    }
    double precision = (double) shared / predicted.size();
    double recall = (double) shared / expected.size();
    return 2 * precision * recall / (precision + recall);
  }
}
