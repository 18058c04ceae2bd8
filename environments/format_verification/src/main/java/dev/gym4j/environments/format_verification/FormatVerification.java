package dev.gym4j.environments.format_verification;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.BoundedText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Whether an answer follows a free-form format instruction, from the row's {@code verifier}:
 * {@code type: regex} counts the lines on which any {@code verify_regex} matches (Python's
 * {@code re.search}) and needs at least {@code verify_min_matches} (default 1); {@code type: string_match}
 * needs every {@code expected_markers} string in the text and no hit of {@code patterns} outside them.
 * Matching has a time budget, so adversarial output cannot stall it.
 */
@Implementation("format_verification")
public final class FormatVerification extends ResourcesServer {
  private static final Duration BUDGET = Duration.ofSeconds(1);

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode verifier = request.field("verifier");
    if (!verifier.isObject()) {
      throw new FieldError(List.of("verifier"), "Field required: {type: regex | string_match, ...}", "missing");
    }
    String text = request.response().outputTextParts();
    String type = verifier.path("type").asString("regex");
    return switch (type) {
      case "regex", "inline_prose" -> regex(verifier, text);
      case "string_match" -> markers(verifier, text);
      default -> throw new FieldError(List.of("verifier", "type"), "must be regex, inline_prose or string_match",
          "value_error");
    };
  }

  private static Verification regex(JsonNode verifier, String text) {
    List<Pattern> patterns = patterns(verifier.path("verify_regex"), List.of("verifier", "verify_regex"));
    int minimum = verifier.path("verify_min_matches").asInt(1);
    BoundedText bounded = BoundedText.of(text, BUDGET);
    int matching = 0;
    int start = 0;
    while (start <= text.length()) {
      int end = text.indexOf('\n', start);
      if (end < 0) {
        end = text.length();
      }
      CharSequence line = bounded.subSequence(start, end);
      for (Pattern pattern : patterns) {
        if (pattern.matcher(line).find()) {
          matching++;
          break;
        }
      }
      start = end + 1;
    }
    boolean passed = matching >= minimum;
    ObjectNode details = Json.object();
    details.put("matching_lines", matching);
    details.put("min_matches", minimum);
    details.put("passed", passed);
    return Verification.of(passed ? 1.0 : 0.0).with("match_details", details);
  }

  private static Verification markers(JsonNode verifier, String text) {
    Set<String> expected = new LinkedHashSet<>();
    verifier.path("expected_markers").forEach(marker -> expected.add(marker.asString()));
    List<String> missing = expected.stream().filter(marker -> !text.contains(marker)).toList();
    Set<String> spurious = new LinkedHashSet<>();
    BoundedText bounded = BoundedText.of(text, BUDGET);
    for (Pattern pattern : patterns(verifier.path("patterns"), List.of("verifier", "patterns"))) {
      Matcher matcher = pattern.matcher(bounded);
      while (matcher.find()) {
        if (!expected.contains(matcher.group())) {
          spurious.add(matcher.group());
        }
      }
    }
    boolean passed = missing.isEmpty() && spurious.isEmpty();
    ObjectNode details = Json.object();
    details.set("missing_markers", Json.toTree(missing));
    details.set("spurious_markers", Json.toTree(new ArrayList<>(spurious)));
    details.put("passed", passed);
    return Verification.of(passed ? 1.0 : 0.0).with("match_details", details);
  }

  /** Python regexes; (?U) makes \d, \w and \s Unicode-aware as they are in Python 3. */
  private static List<Pattern> patterns(JsonNode list, List<Object> path) {
    List<Pattern> patterns = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      try {
        patterns.add(Pattern.compile(list.get(i).asString(), Pattern.UNICODE_CHARACTER_CLASS));
      } catch (PatternSyntaxException e) {
        List<Object> at = new ArrayList<>(path);
        at.add(i);
        throw new FieldError(at, "not a valid regular expression: " + e.getDescription(), "value_error");
      }
    }
    return patterns;
  }
}
