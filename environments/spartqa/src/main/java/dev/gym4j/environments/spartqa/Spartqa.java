package dev.gym4j.environments.spartqa;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * SpartQA choose-object questions (NeMo Gym's spartqa): the answer must resolve to the single gold label
 * {@code target} among the two story objects ({@code options}), "both of them" and "none of them" (see
 * {@link Answers}). Both fields may instead ride in {@code verifier_metadata}. Reward 1 or 0; {@code exact}
 * says the gold label was copied verbatim.
 */
@Implementation("spartqa")
public final class Spartqa extends ResourcesServer {
  static final List<String> FIELDS = List.of("exact", "parsed", "extracted", "predicted_label");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode meta = request.field("verifier_metadata");
    if (!meta.isMissingNode() && !meta.isNull() && !meta.isObject()) {
      throw new FieldError(List.of("verifier_metadata"), "Input should be a valid dictionary", "dict_type");
    }
    String target = strings(request.field("target"), "target").stream().findFirst().orElse("");
    List<String> options = strings(request.field("options"), "options");
    String gold = !target.isEmpty() ? target : text(meta.path("target"));
    if (options.isEmpty() && meta.path("options").isArray()) {
      meta.path("options").forEach(option -> options.add(text(option)));
    }
    String prediction = Answers.extract(responseText(request));
    String predicted = Answers.match(prediction, Answers.candidateLabels(options.isEmpty() ? List.of(gold) : options));
    String goldKey = Answers.labelKey(gold);
    boolean correct = !goldKey.isEmpty() && predicted != null && Answers.labelKey(predicted).equals(goldKey);
    Verification verification = Verification.of(correct ? 1.0 : 0.0)
        .with("exact", correct && Answers.labelKey(prediction).equals(goldKey))
        .with("parsed", !Answers.normalize(prediction).isEmpty())
        .with("extracted", prediction.substring(0, prediction.offsetByCodePoints(0,
            Math.min(200, prediction.codePointCount(0, prediction.length())))))
        .with("predicted_label", predicted == null ? "" : predicted);
    // NeMo Gym's request model has defaults for these, and its response writes them
    if (request.field("target").isMissingNode()) {
      verification = verification.with("target", "");
    }
    if (request.field("options").isMissingNode()) {
      verification = verification.with("options", List.of());
    }
    if (meta.isMissingNode()) {
      verification = verification.with("verifier_metadata", NullNode.getInstance());
    }
    return verification;
  }

  /** The output text; when it is empty, the text of every message (plain-string content included). */
  private static String responseText(VerifyRequest request) {
    String text = request.response().outputTextParts();
    if (!text.isEmpty()) {
      return text;
    }
    StringBuilder out = new StringBuilder();
    for (var item : request.response().output()) {
      if (item instanceof Message message) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          out.append(content.stringValue());
        } else {
          content.forEach(part -> out.append(part.path("text").isString() ? part.path("text").stringValue() : ""));
        }
      }
    }
    return out.toString();
  }

  /** A string field (a one-element list) or a list of strings; empty when absent. */
  private static List<String> strings(JsonNode value, String field) {
    List<String> out = new ArrayList<>();
    if (value.isMissingNode()) {
      return out;
    }
    if (value.isString()) {
      out.add(value.stringValue());
      return out;
    }
    if (value.isArray() && field.equals("options")) {
      for (int i = 0; i < value.size(); i++) {
        if (!value.get(i).isString()) {
          throw new FieldError(List.of(field, i), "Input should be a valid string", "string_type");
        }
        out.add(value.get(i).stringValue());
      }
      return out;
    }
    throw new FieldError(List.of(field), field.equals("target") ? "Input should be a valid string"
        : "Input should be a valid list", field.equals("target") ? "string_type" : "list_type");
  }

  /** Python's {@code str()} of a metadata value. */
  private static String text(JsonNode value) {
    if (value.isMissingNode()) {
      return "";
    }
    return value.isString() ? value.stringValue() : value.isNull() ? "None" : value.toString();
  }

  /** NeMo Gym's spartqa metrics, merged into the standard ones; its headline is mean_reward and exact_match_rate. */
  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    ObjectNode aggregate = super.aggregateMetrics(request);
    List<JsonNode> rows = new ArrayList<>();
    request.path("verify_responses").forEach(rows::add);
    if (rows.isEmpty()) {
      return aggregate;
    }
    ObjectNode metrics = (ObjectNode) aggregate.path("agent_metrics");
    List<Double> rewards = rows.stream().filter(row -> row.path("reward").isNumber())
        .map(row -> row.get("reward").asDouble()).toList();
    if (!rewards.isEmpty()) {
      metrics.put("mean_reward", rewards.stream().mapToDouble(Double::doubleValue).sum() / rewards.size());
      metrics.put("count", rewards.size());
    }
    metrics.put("exact_match_rate", share(rows, row -> row.path("exact").asBoolean(false)));
    metrics.put("parse_rate", share(rows, row -> row.path("parsed").asBoolean(false)));
    metrics.put("label_resolve_rate", share(rows, row -> !row.path("predicted_label").asString("").isEmpty()));
    for (String label : List.of(Answers.BOTH, Answers.NONE)) {
      List<JsonNode> slice = rows.stream()
          .filter(row -> Answers.labelKey(text(row.path("target"))).equals(Answers.labelKey(label))).toList();
      if (!slice.isEmpty()) {
        metrics.put("accuracy_" + label.replace(' ', '_'), share(slice, row -> row.path("reward").asDouble() == 1.0));
      }
    }
    ObjectNode key = Json.object();
    for (String name : List.of("mean_reward", "exact_match_rate")) {
      if (metrics.has(name)) {
        key.set(name, metrics.get(name));
      }
    }
    aggregate.set("key_metrics", key);
    return aggregate;
  }

  private static double share(List<JsonNode> rows, java.util.function.Predicate<JsonNode> test) {
    return (double) rows.stream().filter(test).count() / rows.size();
  }
}
