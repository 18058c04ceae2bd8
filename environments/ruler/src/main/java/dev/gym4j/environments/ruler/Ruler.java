package dev.gym4j.environments.ruler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * RULER long-context retrieval (NeMo Gym's ruler): the reference {@code outputs} are looked for, case
 * folded, in the response's output text. For the QA subsets one found is enough (1 or 0); for the others
 * the reward is the fraction found. The reward is also written under the row's {@code subset} name, and
 * every other subset field is null, as NeMo Gym's response model has one field per subset.
 */
@Implementation("ruler")
public final class Ruler extends ResourcesServer {
  static final List<String> SUBSETS = List.of("cwe", "fwe", "niah_multikey_1", "niah_multikey_2", "niah_multikey_3",
      "niah_multiquery", "niah_multivalue", "niah_single_1", "niah_single_2", "niah_single_3", "qa_1", "qa_2", "vt");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    List<String> references = references(request.field("outputs"));
    if (!request.field("length").isIntegralNumber()) {
      throw new FieldError(List.of("length"), "Field required: an integer", "int_type");
    }
    JsonNode subset = request.field("subset");
    if (!subset.isString()) {
      throw new FieldError(List.of("subset"), "Field required: the RULER subset name", "string_type");
    }
    String prediction = PythonText.strip(request.response().outputTextParts());
    double reward = subset.stringValue().equals("qa_1") || subset.stringValue().equals("qa_2")
        ? (references.stream().anyMatch(r -> contains(prediction, r)) ? 1.0 : 0.0)
        : references.stream().filter(r -> contains(prediction, r)).count() / (double) references.size();
    Verification verification = Verification.of(reward);
    for (String name : SUBSETS) {
      verification = verification.with(name, name.equals(subset.stringValue()) ? Json.toTree(reward) : NullNode.getInstance());
    }
    return verification;
  }

  private static boolean contains(String prediction, String reference) {
    return prediction.toLowerCase(Locale.ROOT).contains(reference.toLowerCase(Locale.ROOT));
  }

  /** The reference answers: a non-empty list of strings (NeMo Gym divides by their count). */
  private static List<String> references(JsonNode outputs) {
    if (!outputs.isArray() || outputs.isEmpty()) {
      throw new FieldError(List.of("outputs"), "Field required: a non-empty list of reference answers", "list_type");
    }
    List<String> references = new ArrayList<>();
    for (int i = 0; i < outputs.size(); i++) {
      if (!outputs.get(i).isString()) {
        throw new FieldError(Shape.at(List.of("outputs"), i), "Input should be a valid string", "string_type");
      }
      references.add(outputs.get(i).stringValue());
    }
    return references;
  }
}
