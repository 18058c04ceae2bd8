package dev.gym4j.environments.structeval;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * StructEval, non-renderable tasks (NeMo Gym's structeval): the answer's code block ({@link Code}) must
 * parse as the row's {@code output_type} (JSON, YAML, TOML, XML, CSV; {@code render_score}) and hold the
 * row's {@code raw_output_metric} paths ({@link Paths}; {@code key_validation_score}). Reward
 * round(0.2·render + 0.8·keys, 2). {@code raw_output_score}, the share of paths found as plain text, is
 * reported beside it.
 */
@Implementation("structeval")
public final class Structeval extends ResourcesServer {
  static final List<String> FIELDS = List.of("render_score", "key_validation_score", "raw_output_score", "error_type",
      "error_message");

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    for (String field : List.of("task_id", "task_name", "input_type", "output_type")) {
      if (!request.field(field).isString()) {
        throw new FieldError(List.of(field), "Field required: a string", "string_type");
      }
    }
    List<String> paths = new ArrayList<>();
    JsonNode metric = request.field("raw_output_metric");
    if (!metric.isArray()) {
      throw new FieldError(List.of("raw_output_metric"), "Field required: a list of paths", "list_type");
    }
    for (int i = 0; i < metric.size(); i++) {
      if (!metric.get(i).isString()) {
        throw new FieldError(List.of("raw_output_metric", i), "Input should be a valid string", "string_type");
      }
      paths.add(metric.get(i).stringValue());
    }
    String answer = request.response().outputTextParts();
    Verification verification;
    if (PythonText.strip(answer).isEmpty()) {
      verification = Verification.of(0.0).with("render_score", 0.0).with("key_validation_score", 0.0)
          .with("raw_output_score", 0.0).with("error_type", "empty_response")
          .with("error_message", "No assistant response text");
    } else {
      String outputType = request.field("output_type").stringValue().toLowerCase(Locale.ROOT);
      Content.Parsed parsed = Content.parse(Code.extract(answer), outputType);
      double render = parsed.ok() ? 1.0 : 0.0;
      double keys = 0.0;
      if (parsed.ok() && !paths.isEmpty()) {
        keys = (double) paths.stream().filter(path -> Paths.exists(parsed.value(), path)).count() / paths.size();
      }
      double reward = new BigDecimal(0.2 * render + 0.8 * keys).setScale(2, RoundingMode.HALF_EVEN).doubleValue();
      verification = Verification.of(reward).with("render_score", render).with("key_validation_score", keys)
          .with("raw_output_score", rawOutputScore(answer, paths))
          .with("error_type", parsed.ok() ? NullNode.getInstance() : parsed.errorType())
          .with("error_message", parsed.ok() ? NullNode.getInstance() : parsed.errorMessage());
    }
    if (request.field("rendering").isMissingNode()) {
      verification = verification.with("rendering", false);
    }
    return verification;
  }

  /** The share of paths that occur, case folded, as text in the answer. */
  static double rawOutputScore(String answer, List<String> paths) {
    if (paths.isEmpty()) {
      return 0.0;
    }
    String lower = answer.toLowerCase(Locale.ROOT);
    return (double) paths.stream().filter(path -> lower.contains(path.toLowerCase(Locale.ROOT))).count() / paths.size();
  }

  /** NeMo Gym's structeval metrics: score means overall and by output type, input type and task name. */
  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    ObjectNode aggregate = super.aggregateMetrics(request);
    ObjectNode metrics = (ObjectNode) aggregate.path("agent_metrics");
    Map<String, List<Double>> means = new LinkedHashMap<>();
    List<Double> render = new ArrayList<>();
    List<Double> keys = new ArrayList<>();
    Map<String, List<Double>> renderByOutput = new LinkedHashMap<>();
    Map<String, List<Double>> keysByOutput = new LinkedHashMap<>();
    for (JsonNode row : request.path("verify_responses")) {
      double reward = row.path("reward").asDouble(0.0);
      String output = row.path("output_type").asString("unknown");
      double rs = row.path("render_score").asDouble(0.0);
      double ks = row.path("key_validation_score").asDouble(0.0);
      means.computeIfAbsent("mean/reward_output_" + output, k -> new ArrayList<>()).add(reward);
      means.computeIfAbsent("mean/reward_input_" + row.path("input_type").asString("unknown"), k -> new ArrayList<>())
          .add(reward);
      means.computeIfAbsent("mean/reward_" + row.path("task_name").asString("unknown"), k -> new ArrayList<>())
          .add(reward);
      render.add(rs);
      keys.add(ks);
      renderByOutput.computeIfAbsent("mean/render_score_" + output, k -> new ArrayList<>()).add(rs);
      keysByOutput.computeIfAbsent("mean/key_validation_score_" + output, k -> new ArrayList<>()).add(ks);
    }
    if (!render.isEmpty()) {
      metrics.put("mean/render_score", mean(render));
      metrics.put("mean/key_validation_score", mean(keys));
    }
    means.putAll(renderByOutput);
    means.putAll(keysByOutput);
    means.forEach((name, values) -> metrics.put(name, mean(values)));
    return aggregate;
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
  }
}
