package dev.gym4j.environments.lc_niah;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.environments.graphwalks.NodeList;
import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.text.SequenceMatcher;
import dev.gym4j.wire.Reasoning;
import tools.jackson.databind.JsonNode;

/**
 * Long-context needle-in-a-haystack (NeMo Gym's lc_niah): the final answer's node list is scored by F1
 * against {@code expected_answer} ({@link NodeList}, unquoting items), and the reasoning is penalised for copying the
 * prompt. Three copy signals are written, each in [0, 1]: difflib's ratio ({@code overlap_seq_match}), the
 * share of the reasoning's word 16-grams found in the prompt ({@code overlap_ngram16}) and the longest
 * common substring over the reasoning's length ({@code overlap_lcs}). {@code overlap_metric_rule} picks
 * the penalty, {@code overlap_grading_rule} combines it: {@code base}, {@code multiply} (the default:
 * score × (1 − overlap)) or {@code minus}.
 */
@Implementation("lc_niah")
public final class LcNiah extends ResourcesServer {
  static final List<String> FIELDS = List.of("answer_score", "overlap_seq_match", "overlap_ngram16", "overlap_lcs",
      "reasoning_overlap");

  private String metricRule;
  private String gradingRule;

  @Override
  protected void start() {
    metricRule = rule("overlap_metric_rule", "lcs", List.of("seq_match", "ngram16", "lcs"));
    gradingRule = rule("overlap_grading_rule", "multiply", List.of("base", "multiply", "minus"));
  }

  private String rule(String key, String fallback, List<String> allowed) {
    String value = context().config().path(key).asString(fallback);
    if (!allowed.contains(value)) {
      throw new ConfigException(context().path(key) + " must be one of " + allowed + ", not " + value);
    }
    return value;
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isString()) {
      throw new FieldError(List.of("expected_answer"), "Field required: the expected node list as JSON text",
          "string_type");
    }
    String reasoning = reasoningText(request);
    String input = inputText(request.responsesCreateParams().json().path("input"));
    double answerScore = NodeList.parse(request.response().outputTextParts(), true)
        .f1(NodeList.expected(expected.stringValue()));
    double seqMatch = seqMatch(reasoning, input);
    double ngram16 = ngramOverlap(reasoning, input, 16);
    double lcs = longestCommonSubstring(reasoning, input);
    double overlap = switch (metricRule) {
      case "seq_match" -> seqMatch;
      case "ngram16" -> ngram16;
      default -> lcs;
    };
    double reward = switch (gradingRule) {
      case "base" -> answerScore;
      case "minus" -> answerScore - overlap;
      default -> answerScore * (1.0 - overlap);
    };
    return Verification.of(reward).with("answer_score", answerScore).with("overlap_seq_match", seqMatch)
        .with("overlap_ngram16", ngram16).with("overlap_lcs", lcs).with("reasoning_overlap", overlap);
  }

  /** Every reasoning summary text, joined with nothing between. */
  private static String reasoningText(VerifyRequest request) {
    StringBuilder out = new StringBuilder();
    for (var item : request.response().output()) {
      if (item instanceof Reasoning reasoning) {
        for (JsonNode part : reasoning.json().path("summary")) {
          out.append(part.path("text").asString(""));
        }
      }
    }
    return out.toString();
  }

  /** The prompt: a plain string, or each input message's text (a string, or its parts' texts), one per line. */
  static String inputText(JsonNode input) {
    if (input.isString()) {
      return input.stringValue();
    }
    List<String> parts = new java.util.ArrayList<>();
    for (JsonNode item : input) {
      JsonNode content = item.path("content");
      if (content.isString()) {
        parts.add(content.stringValue());
      } else if (content.isArray()) {
        for (JsonNode block : content) {
          String text = block.path("text").asString("");
          if (!text.isEmpty()) {
            parts.add(text);
          }
        }
      }
    }
    return String.join("\n", parts);
  }

  /** Stripped, lower case, each run of whitespace one space. */
  static String normalize(String text) {
    return String.join(" ", PythonText.split(PythonText.strip(text).toLowerCase(Locale.ROOT)));
  }

  static double seqMatch(String reasoning, String input) {
    String normalized = normalize(reasoning);
    return normalized.isEmpty() ? 0.0 : SequenceMatcher.ratio(normalized, normalize(input));
  }

  static double ngramOverlap(String reasoning, String input, int n) {
    List<String> words = PythonText.split(normalize(reasoning));
    if (words.size() < n) {
      return 0.0;
    }
    Set<List<String>> ours = ngrams(words, n);
    Set<List<String>> theirs = ngrams(PythonText.split(normalize(input)), n);
    long shared = ours.stream().filter(theirs::contains).count();
    return (double) shared / ours.size();
  }

  private static Set<List<String>> ngrams(List<String> words, int n) {
    Set<List<String>> grams = new HashSet<>();
    for (int i = 0; i + n <= words.size(); i++) {
      grams.add(words.subList(i, i + n));
    }
    return grams;
  }

  static double longestCommonSubstring(String reasoning, String input) {
    String a = normalize(reasoning);
    if (a.isEmpty()) {
      return 0.0;
    }
    String b = normalize(input);
    int length = a.codePointCount(0, a.length());
    int longest = new SequenceMatcher(a, b, false)
        .findLongestMatch(0, length, 0, b.codePointCount(0, b.length())).size();
    return (double) longest / length;
  }
}
