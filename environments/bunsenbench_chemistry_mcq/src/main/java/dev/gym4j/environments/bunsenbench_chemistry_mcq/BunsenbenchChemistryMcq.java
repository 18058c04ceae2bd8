package dev.gym4j.environments.bunsenbench_chemistry_mcq;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * BunsenBench chemistry multiple choice (NeMo Gym's bunsenbench_chemistry_mcq): the chosen letter is read
 * by {@link ChemistryAnswers} and compared with {@code expected_answer} (a letter, or an option's text);
 * reward 1 or 0. Every rollout also gets an {@code error_mode}: correct, wrong_answer, refusal,
 * early_termination, malformed_choice or format_violation.
 */
@Implementation("bunsenbench_chemistry_mcq")
public final class BunsenbenchChemistryMcq extends ResourcesServer {
  static final List<String> FIELDS = List.of("extracted_answer", "no_answer", "error_mode", "bunsen_id", "source",
      "bct_field", "bct_subfield");
  static final List<String> ERROR_MODES = List.of("correct", "wrong_answer", "refusal", "early_termination",
      "malformed_choice", "format_violation");
  private static final Pattern THINK_OPEN = ChemistryAnswers.py("<\\s*think\\b[^>]*>", Pattern.CASE_INSENSITIVE);
  private static final Pattern THINK_CLOSE = ChemistryAnswers.py("<\\s*/\\s*think\\s*>", Pattern.CASE_INSENSITIVE);
  private static final Pattern REFUSAL = ChemistryAnswers.py("(?:"
      + "i\\s*(?:'|’)?\\s*m\\s+sorry[, ]+(?:but\\s+)?i\\s+(?:can(?:'|’)?t|cannot|am\\s+unable|won(?:'|’)?t)"
      + "|i\\s+(?:can(?:'|’)?t|cannot)\\s+(?:help|assist|comply|provide|answer|do\\s+that|continue)"
      + "|i\\s+am\\s+(?:not\\s+able|unable)\\s+to\\s+(?:help|assist|comply|provide|answer)"
      + "|i\\s+won(?:'|’)?t\\s+be\\s+able\\s+to\\s+(?:help|assist|provide|answer)"
      + "|as\\s+an\\s+ai(?:\\s+language)?\\s+model[, ]+i"
      + "|i\\s+(?:must|have\\s+to|will\\s+have\\s+to)\\s+(?:decline|refuse)"
      + "|i\\s+do\\s+not\\s+feel\\s+comfortable"
      + ")", Pattern.CASE_INSENSITIVE);

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    List<Map.Entry<String, String>> options = options(request);
    Set<String> allowed = new HashSet<>();
    options.forEach(option -> {
      String key = option.getKey();
      if (key.codePointCount(0, key.length()) == 1 && Character.isLetter(key.codePointAt(0))) {
        allowed.add(key.toUpperCase(Locale.ROOT));
      }
    });
    JsonNode expectedField = request.field("expected_answer");
    if (!expectedField.isMissingNode() && !expectedField.isNull() && !expectedField.isString()) {
      throw new FieldError(List.of("expected_answer"), "Input should be a valid string", "string_type");
    }
    String gold = goldLetter(expectedField.asString(""), options, Set.copyOf(allowed));
    if (gold.codePointCount(0, gold.length()) == 1 && Character.isLetter(gold.codePointAt(0))) {
      allowed.add(gold);
    }
    String raw = request.response().outputTextParts();
    String text = PythonText.strip(raw);
    String predicted = text.isEmpty() ? null : new ChemistryAnswers(options, allowed).extract(text);
    double reward = predicted != null && predicted.equals(gold) ? 1.0 : 0.0;
    Verification verification = Verification.of(reward)
        .with("expected_answer", gold)
        .with("extracted_answer", predicted == null ? NullNode.getInstance() : predicted)
        .with("no_answer", predicted == null)
        .with("error_mode", errorMode(request, raw, predicted, gold));
    for (String key : List.of("bunsen_id", "source", "bct_field", "bct_subfield")) {
      JsonNode direct = request.field(key);
      verification = verification.with(key, !direct.isMissingNode() && !direct.isNull() ? direct
          : request.field("metadata").path(key).isMissingNode() ? NullNode.getInstance()
          : request.field("metadata").get(key));
    }
    // the response model's optional fields, written even when the row has none
    for (String key : List.of("uuid", "choices", "metadata")) {
      if (request.field(key).isMissingNode()) {
        verification = verification.with(key, NullNode.getInstance());
      }
    }
    return verification;
  }

  /** {@code options} as given (null texts dropped), else {@code choices} as strings or letter/text objects. */
  private static List<Map.Entry<String, String>> options(VerifyRequest request) {
    List<Map.Entry<String, String>> options = new ArrayList<>();
    JsonNode given = request.field("options");
    if (given.isArray() && !given.isEmpty()) {
      for (int i = 0; i < given.size(); i++) {
        if (!given.get(i).isObject()) {
          throw new FieldError(List.of("options", i), "Input should be a valid dictionary", "dict_type");
        }
        for (var entry : given.get(i).properties()) {
          if (!entry.getValue().isNull()) {
            options.add(Map.entry(entry.getKey(), entry.getValue().asString()));
          }
        }
      }
      return options;
    }
    JsonNode choices = request.field("choices");
    for (int i = 0; i < Math.min(choices.size(), 26); i++) {
      JsonNode choice = choices.get(i);
      String fallback = Character.toString('A' + i);
      if (choice.isString()) {
        options.add(Map.entry(fallback, choice.stringValue()));
        continue;
      }
      JsonNode letter = firstTruthy(choice, "letter", "label", "key", "id");
      JsonNode text = firstTruthy(choice, "text", "content", "value", "choice");
      String key = letter == null ? fallback : letter.isString() ? letter.stringValue() : null;
      if (key != null && text != null && text.isString() && PythonText.strip(key).codePointCount(0,
          PythonText.strip(key).length()) == 1) {
        options.add(Map.entry(PythonText.strip(key).toUpperCase(Locale.ROOT), text.stringValue()));
      }
    }
    return options;
  }

  /** Python's {@code a or b or …} over the fields: the first that is truthy. */
  private static JsonNode firstTruthy(JsonNode object, String... fields) {
    for (String field : fields) {
      JsonNode value = object.path(field);
      boolean truthy = !(value.isMissingNode() || value.isNull() || value.isString() && value.stringValue().isEmpty()
          || value.isNumber() && value.asDouble() == 0 || value.isBoolean() && !value.booleanValue()
          || value.isContainer() && value.isEmpty());
      if (truthy) {
        return value;
      }
    }
    return null;
  }

  /** The expected letter: a bare letter once wrappers are gone, else the option the expected text names. */
  static String goldLetter(String expected, List<Map.Entry<String, String>> options, Set<String> allowed) {
    String letter = ChemistryAnswers.stripWrappers(expected).toUpperCase(Locale.ROOT);
    if (letter.codePointCount(0, letter.length()) == 1 && Character.isLetter(letter.codePointAt(0))) {
      return letter;
    }
    String parsed = new ChemistryAnswers(options, allowed).parse(expected);
    return parsed != null ? parsed : letter;
  }

  private static String errorMode(VerifyRequest request, String text, String predicted, String gold) {
    if (predicted != null) {
      return predicted.equals(gold) ? "correct" : "wrong_answer";
    }
    JsonNode response = request.json().get("response");
    if (hasRefusalPart(response)) {
      return "refusal";
    }
    if (isTruncated(response) || count(THINK_OPEN, text) > count(THINK_CLOSE, text)) {
      return "early_termination";
    }
    if (REFUSAL.matcher(text).find()) {
      return "refusal";
    }
    return ChemistryAnswers.hasChoiceTag(text) ? "malformed_choice" : "format_violation";
  }

  private static boolean hasRefusalPart(JsonNode response) {
    for (JsonNode item : outputItems(response)) {
      for (JsonNode part : item.path("content")) {
        if (part.path("type").asString("").equals("refusal")) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isTruncated(JsonNode response) {
    if ("incomplete".equals(response.path("status").asString(""))
        || "max_output_tokens".equals(response.path("incomplete_details").path("reason").asString(""))) {
      return true;
    }
    for (JsonNode item : outputItems(response)) {
      if ("incomplete".equals(item.path("status").asString(""))) {
        return true;
      }
    }
    return false;
  }

  private static JsonNode outputItems(JsonNode response) {
    JsonNode output = response.path("output");
    return response.path("contains_transitions").asBoolean(false) && !output.isEmpty() ? output.get(output.size() - 1)
        : output;
  }

  private static int count(Pattern pattern, String text) {
    return (int) pattern.matcher(text).results().count();
  }

  /** NeMo Gym's error-mode shares (in percent) and counts, added to the standard metrics and the key metrics. */
  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    ObjectNode aggregate = super.aggregateMetrics(request);
    Map<String, Integer> counts = new LinkedHashMap<>();
    ERROR_MODES.forEach(mode -> counts.put(mode, 0));
    int total = 0;
    for (JsonNode row : request.path("verify_responses")) {
      String mode = row.path("error_mode").asString("");
      if (mode.isEmpty()) {
        mode = row.path("reward").asDouble(0) != 0 ? "correct"
            : row.path("extracted_answer").isMissingNode() || row.path("extracted_answer").isNull()
            ? "format_violation" : "wrong_answer";
      }
      counts.merge(mode, 1, Integer::sum);
      total++;
    }
    ObjectNode metrics = (ObjectNode) aggregate.path("agent_metrics");
    ObjectNode key = (ObjectNode) aggregate.path("key_metrics");
    for (var entry : counts.entrySet()) {
      double share = total == 0 ? 0.0 : 100.0 * entry.getValue() / total;
      metrics.put("error_modes/" + entry.getKey() + "/count", (double) entry.getValue());
      metrics.put("error_modes/" + entry.getKey(), share);
      if (ERROR_MODES.contains(entry.getKey())) {
        key.put("error_modes/" + entry.getKey(), share);
      }
    }
    return aggregate;
  }
}
