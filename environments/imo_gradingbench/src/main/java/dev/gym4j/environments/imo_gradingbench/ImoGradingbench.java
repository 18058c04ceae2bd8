package dev.gym4j.environments.imo_gradingbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import dev.gym4j.json.FieldError;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * IMO-GradingBench (NeMo Gym's imo_gradingbench): the policy grades a proof with one of four words as its
 * last word, {@code correct} (7) &gt; {@code almost} (6) &gt; {@code partial} (1) &gt; {@code incorrect} (0).
 * Reward 1 when it equals {@code expected_answer}; {@code binary_match} compares the high
 * (correct/almost) and low buckets, {@code score_diff} the points. {@code /aggregate_metrics} adds NeMo
 * Skills' mean absolute error.
 */
@Implementation("imo_gradingbench")
public final class ImoGradingbench extends ResourcesServer {
  static final List<String> FIELDS = List.of("extracted_grade", "binary_match", "score_diff");
  private static final Map<String, Integer> SCORE = Map.of("correct", 7, "almost", 6, "partial", 1, "incorrect", 0);
  private static final String PUNCTUATION = "*_`.,;:!?()[]{}";

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isMissingNode() && !expected.isNull() && !expected.isString()) {
      throw new FieldError(List.of("expected_answer"), "Input should be a valid string", "string_type");
    }
    String predicted = grade(assistantText(request));
    String gold = expected.isString() ? expectedGrade(expected.stringValue()) : null;
    boolean binary = predicted != null && gold != null && high(predicted) == high(gold);
    Verification verification = Verification.of(predicted != null && predicted.equals(gold) ? 1.0 : 0.0)
        .with("extracted_grade", predicted == null ? NullNode.getInstance() : predicted)
        .with("binary_match", binary)
        .with("score_diff", predicted == null || gold == null ? NullNode.getInstance()
            : (Object) (double) Math.abs(SCORE.get(predicted) - SCORE.get(gold)));
    if (expected.isMissingNode()) {
      verification = verification.with("expected_answer", NullNode.getInstance());
    }
    return verification;
  }

  private static boolean high(String grade) {
    return grade.equals("correct") || grade.equals("almost");
  }

  /** The last word, markdown and punctuation removed, lower-cased, if it is one of the four grades. */
  static String grade(String text) {
    List<String> words = PythonText.split(PythonText.strip(text));
    if (words.isEmpty()) {
      return null;
    }
    StringBuilder last = new StringBuilder();
    words.getLast().codePoints().filter(c -> PUNCTUATION.indexOf(c) < 0).forEach(last::appendCodePoint);
    String word = last.toString().toLowerCase(Locale.ROOT);
    return SCORE.containsKey(word) ? word : null;
  }

  static String expectedGrade(String text) {
    String grade = PythonText.strip(text).toLowerCase(Locale.ROOT);
    return SCORE.containsKey(grade) ? grade : null;
  }

  private static String assistantText(VerifyRequest request) {
    List<String> texts = new ArrayList<>();
    for (var item : request.response().output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.stringValue());
        }
        for (JsonNode part : content) {
          if (part.path("text").isString()) {
            texts.add(part.path("text").stringValue());
          }
        }
      }
    }
    return PythonText.strip(String.join("\n", texts));
  }

  /**
   * NeMo Skills' MAE of {@code score_diff}: over all valid pairs of the first k rollouts of every task
   * ({@code pass@1[avg-of-k]/mae}), over each task's best of its first k ({@code pass@k/mae}), and pooled over
   * all ({@code mae}), each with its count. Tasks by {@code _ng_task_index} (0 when absent).
   */
  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    ObjectNode aggregate = super.aggregateMetrics(request);
    ObjectNode metrics = (ObjectNode) aggregate.path("agent_metrics");
    Map<Long, List<JsonNode>> grouped = new TreeMap<>();
    request.path("verify_responses").forEach(row -> grouped.computeIfAbsent(row.path("_ng_task_index").asLong(0),
        k -> new ArrayList<>()).add(row));
    int maxK = grouped.values().stream().mapToInt(List::size).max().orElse(0);
    for (int k = 1; k <= maxK; k++) {
      List<Double> pooled = new ArrayList<>();
      List<Double> best = new ArrayList<>();
      for (List<JsonNode> task : grouped.values()) {
        List<Double> errors = task.subList(0, Math.min(k, task.size())).stream()
            .filter(row -> row.path("score_diff").isNumber()).map(row -> row.get("score_diff").asDouble()).toList();
        pooled.addAll(errors);
        errors.stream().min(Double::compare).ifPresent(best::add);
      }
      if (!pooled.isEmpty()) {
        metrics.put("pass@1[avg-of-" + k + "]/mae", mean(pooled));
        metrics.put("pass@1[avg-of-" + k + "]/mae_count", (double) pooled.size());
      }
      if (!best.isEmpty()) {
        metrics.put("pass@" + k + "/mae", mean(best));
        metrics.put("pass@" + k + "/mae_count", (double) best.size());
      }
    }
    if (metrics.has("pass@1[avg-of-" + maxK + "]/mae")) {
      metrics.set("mae", metrics.get("pass@1[avg-of-" + maxK + "]/mae"));
      metrics.set("mae_count", metrics.get("pass@1[avg-of-" + maxK + "]/mae_count"));
      ((ObjectNode) aggregate.path("key_metrics")).set("mae", metrics.get("mae"));
      ((ObjectNode) aggregate.path("key_metrics")).set("mae_count", metrics.get("mae_count"));
    }
    return aggregate;
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
  }
}
