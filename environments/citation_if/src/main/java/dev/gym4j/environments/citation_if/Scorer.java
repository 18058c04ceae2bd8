package dev.gym4j.environments.citation_if;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The citation_if gate sequence of NeMo Gym's resources_servers/citation_if/scorer.py. Cite mode: text and
 * no tool call (structural); an answer outside the citation markup (no_answer); no ID-shaped token left
 * once well-formed spans are blanked, and for tag grammars as many open and close tags as spans
 * (malformed_attempt); enough valid IDs (must_cite); no ID outside {@code valid_id_set} (no_hallucination);
 * with {@code expected_ids}, every one cited and at most {@code expected_slack} more (correctness). No-cite
 * mode: no ID-shaped token and no markup at all.
 */
final class Scorer {
  private static final Pattern ATTEMPT = Pattern.compile("citation_[A-Za-z0-9_:]+",
      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  private Scorer() {}

  record Result(double reward, ObjectNode details) {}

  static Result score(String text, int functionCalls, JsonNode verifier) {
    String grammarName = verifier.path("grammar").asString("");
    String idKind = verifier.path("id_kind").asString("full_source");
    String mode = verifier.path("mode").asString("cite");
    Set<String> valid = new LinkedHashSet<>();
    verifier.path("valid_id_set").forEach(v -> valid.add(v.isString() ? v.stringValue() : "\u0000" + v));
    JsonNode expected = verifier.path("expected_ids");
    int minValid = integer(verifier, "min_valid_citations", 1);
    Grammar grammar = Grammar.ALL.get(grammarName);
    if (grammar == null) {
      ObjectNode details = Json.object();
      details.put("gate_failed", "unknown_grammar");
      details.put("grammar", grammarName);
      return new Result(0.0, details);
    }
    String idRegex = verifier.path("id_regex").asString("");
    if (idRegex.isEmpty()) {
      idRegex = idKind.equals("snippet") ? "citation_[0-9]+:snippet_[0-9]+" : "citation_[0-9]+";
    }
    IdPattern id = IdPattern.parse(idRegex);
    Details details = new Details(mode, grammarName, idKind, idRegex, text, functionCalls);
    if (PythonText.strip(text).isEmpty() || functionCalls != 0) {
      return details.fail("structural", List.of(), List.of(), List.of(), false);
    }
    List<Grammar.Span> spans = grammar.spans(text, id);
    List<String> parsed = new ArrayList<>(new LinkedHashSet<>(spans.stream()
        .flatMap(span -> List.of(span.ids().split(",", -1)).stream()).toList()));
    List<String> validCited = parsed.stream().filter(valid::contains).toList();
    List<String> invalidCited = parsed.stream().filter(i -> !valid.contains(i)).toList();
    boolean attempts = ATTEMPT.matcher(text).find();
    if (mode.equals("no_cite")) {
      boolean markup = !spans.isEmpty() || grammar.tagged() && TagCounts.opens(text) > 0;
      return !attempts && !markup ? details.pass(parsed, validCited, invalidCited, attempts, null, List.of(), false)
          : details.fail("no_cite", parsed, validCited, invalidCited, attempts);
    }
    if (!hasWordCharacter(blank(text, spans, true))) {
      return details.fail("no_answer", parsed, validCited, invalidCited, attempts);
    }
    boolean balanced = !grammar.tagged()
        || TagCounts.opens(text) == spans.size() && spans.size() == TagCounts.closes(text);
    if (ATTEMPT.matcher(blank(text, spans, false)).find() || !balanced) {
      return details.fail("malformed_attempt", parsed, validCited, invalidCited, attempts);
    }
    if (validCited.size() < minValid) {
      return details.fail("must_cite", parsed, validCited, invalidCited, attempts);
    }
    if (!invalidCited.isEmpty()) {
      return details.fail("no_hallucination", parsed, validCited, invalidCited, attempts);
    }
    List<String> missed = List.of();
    boolean overCap = false;
    List<String> expectedIds = null;
    if (!expected.isMissingNode() && !expected.isNull()) {
      if (!expected.isArray()) {
        throw new FieldError(List.of("verifier", "expected_ids"), "must be a list of IDs or null", "list_type");
      }
      expectedIds = new ArrayList<>();
      for (JsonNode e : expected) {
        expectedIds.add(e.isString() ? e.stringValue() : "\u0000" + e);
      }
      Set<String> expectedSet = new LinkedHashSet<>(expectedIds);
      TreeSet<String> missing = new TreeSet<>(Scorer::byCodePoint);
      expectedSet.stream().filter(e -> !validCited.contains(e)).forEach(missing::add);
      missed = List.copyOf(missing);
      overCap = validCited.size() > expectedSet.size() + integer(verifier, "expected_slack", 1);
      if (!missed.isEmpty() || overCap) {
        return details.result(0.0, missed.isEmpty() ? "correctness_over_cap" : "correctness_missed_gold", parsed,
            validCited, invalidCited, attempts, expectedIds, missed, overCap);
      }
    }
    return details.pass(parsed, validCited, invalidCited, attempts, expectedIds, missed, overCap);
  }

  private static int byCodePoint(String a, String b) {
    return java.util.Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  /** Python's {@code int()} of an integer field, with its default. */
  private static int integer(JsonNode verifier, String field, int fallback) {
    JsonNode value = verifier.path(field);
    if (value.isMissingNode()) {
      return fallback;
    }
    if (value.isNumber()) {
      return (int) value.asDouble();
    }
    try {
      return Integer.parseInt(PythonText.strip(value.asString("")));
    } catch (NumberFormatException e) {
      throw new FieldError(List.of("verifier", field), "must be an integer", "int_parsing");
    }
  }

  /** The text with each span blanked to spaces; with {@code keepClaims}, a claim_wrap_xml claim stays. */
  private static String blank(String text, List<Grammar.Span> spans, boolean keepClaims) {
    StringBuilder out = new StringBuilder(text);
    for (Grammar.Span span : spans) {
      for (int i = span.start(); i < span.end(); i++) {
        if (!(keepClaims && span.claimStart() >= 0 && span.claimStart() <= i && i < span.claimEnd())) {
          out.setCharAt(i, ' ');
        }
      }
    }
    return out.toString();
  }

  private static boolean hasWordCharacter(String text) {
    return text.codePoints().anyMatch(IdPattern::isWord);
  }

  /** Python's {@code <cite\b} and {@code </cite\s*>}, case ignored, counted in one pass each. */
  static final class TagCounts {
    private TagCounts() {}

    static int opens(String text) {
      int count = 0;
      for (int at = find(text, "<cite", 0); at >= 0; at = find(text, "<cite", at + 1)) {
        int next = at + 5;
        if (next >= text.length() || !IdPattern.isWord(text.codePointAt(next))) {
          count++;
        }
      }
      return count;
    }

    static int closes(String text) {
      int count = 0;
      for (int at = find(text, "</cite", 0); at >= 0; at = find(text, "</cite", at + 1)) {
        int next = at + 6;
        while (next < text.length() && PythonText.isSpace(text.charAt(next))) {
          next++;
        }
        if (next < text.length() && text.charAt(next) == '>') {
          count++;
        }
      }
      return count;
    }

    private static int find(String text, String part, int from) {
      for (int i = from; i + part.length() <= text.length(); i++) {
        if (text.regionMatches(true, i, part, 0, part.length())) {
          return i;
        }
      }
      return -1;
    }
  }

  /** NeMo Gym's match_details, field for field. */
  private record Details(String mode, String grammar, String idKind, String idRegex, String text, int functionCalls) {
    Result fail(String gate, List<String> parsed, List<String> valid, List<String> invalid, boolean attempts) {
      return result(0.0, gate, parsed, valid, invalid, attempts, null, List.of(), false);
    }

    Result pass(List<String> parsed, List<String> valid, List<String> invalid, boolean attempts,
        List<String> expected, List<String> missed, boolean overCap) {
      return result(1.0, null, parsed, valid, invalid, attempts, expected, missed, overCap);
    }

    Result result(double reward, String gate, List<String> parsed, List<String> valid, List<String> invalid,
        boolean attempts, List<String> expected, List<String> missed, boolean overCap) {
      ObjectNode out = Json.object();
      out.put("gate_failed", gate);
      out.put("mode", mode);
      out.put("grammar", grammar);
      out.put("id_kind", idKind);
      out.put("id_regex", idRegex);
      out.put("structural_ok", !PythonText.strip(text).isEmpty() && functionCalls == 0);
      out.put("function_call_count", functionCalls);
      out.put("attempt_hits", attempts);
      out.put("bare_id_hits", attempts);
      out.set("parsed_ids", Json.toTree(parsed));
      out.set("cited_ids", Json.toTree(valid));
      out.set("valid_cited", Json.toTree(valid));
      out.set("invalid_cited", Json.toTree(invalid));
      out.put("num_valid_cited", valid.size());
      out.set("expected_ids", expected == null ? out.nullNode() : Json.toTree(expected));
      out.set("missed_ids", Json.toTree(missed));
      out.put("over_cap", overCap);
      return new Result(reward, out);
    }
  }
}
