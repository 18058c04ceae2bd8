package dev.gym4j.environments.image_tools;

import java.util.List;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.json.PythonValues;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import dev.gym4j.wire.ImageToolCalls;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * PivotRL on image-tool trajectories (NeMo Gym's image_tools): the first image-tool call in the model's text
 * is compared with the demonstrated one, cheapest check first: the tool (zoom and crop count as one), the
 * image(s) it works on, then its main argument scored per tool family ({@link Families}) against
 * {@code argument_threshold}. No tool runs. {@code failure_reason} names the first check that failed.
 */
@Implementation("image_tools")
public final class ImageTools extends ResourcesServer {
  /** The fields NeMo Gym's verify response adds to the request. */
  static final List<String> FIELDS = List.of("model_output", "tool_name_match", "rollout_tool_name",
      "expected_tool_name", "target_match", "argument_score", "argument_detail", "tool_family",
      "num_rollout_tool_calls", "failure_reason");
  private static final Set<String> IGNORED_ARGS = Set.of("label", "labels");
  private static final Set<String> REGION_INSPECT = Set.of("image_zoom_in_tool", "image_crop_tool");

  private boolean continuous;
  private boolean targetMatch;
  private double threshold;
  private double tolerance;
  private boolean penalizeExtra;
  private boolean unifyRegionInspect;

  @Override
  protected void start() {
    JsonNode config = context().config();
    String mode = config.path("reward_mode").asString("binary");
    if (!mode.equals("binary") && !mode.equals("continuous")) {
      throw new ConfigException(context().path("reward_mode") + " must be binary or continuous, not " + mode);
    }
    continuous = mode.equals("continuous");
    targetMatch = config.path("enable_target_match").asBoolean(true);
    threshold = config.path("argument_threshold").asDouble(0.5);
    tolerance = config.path("numeric_tolerance").asDouble(1e-6);
    penalizeExtra = config.path("penalize_extra_tool_calls").asBoolean(true);
    unifyRegionInspect = config.path("unify_region_inspect_tools").asBoolean(true);
  }

  /** The verdict so far; an error on oddly shaped arguments keeps it and ends in unknown_error. */
  private static final class Verdict {
    double reward;
    String modelOutput = "";
    boolean toolNameMatch;
    String rolloutToolName;
    String expectedToolName;
    Boolean targetMatch;
    Double argumentScore;
    String argumentDetail;
    String family;
    int calls;
    String failure = "none";
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    requireType(request, "expected_action", JsonNode::isObject, "dict_type", "Input should be a valid dictionary");
    requireType(request, "metadata", JsonNode::isObject, "dict_type", "Input should be a valid dictionary");
    requireType(request, "expected_answer", JsonNode::isString, "string_type", "Input should be a valid string");
    requireType(request, "uuid", n -> n.isString() || n.isIntegralNumber(), "string_type",
        "Input should be a valid string or integer");
    Verdict verdict = new Verdict();
    try {
      judge(request, verdict);
    } catch (NotAnObject e) {
      verdict.reward = 0.0;
      verdict.failure = "unknown_error";
    }
    return Verification.of(verdict.reward)
        .with("uuid", orNull(request.field("uuid")))
        .with("expected_action", orNull(request.field("expected_action")))
        .with("model_output", verdict.modelOutput)
        .with("tool_name_match", verdict.toolNameMatch)
        .with("rollout_tool_name", orNull(verdict.rolloutToolName))
        .with("expected_tool_name", orNull(verdict.expectedToolName))
        .with("target_match", verdict.targetMatch == null ? NullNode.getInstance() : (Object) verdict.targetMatch)
        .with("argument_score", verdict.argumentScore == null ? NullNode.getInstance() : (Object) verdict.argumentScore)
        .with("argument_detail", orNull(verdict.argumentDetail))
        .with("tool_family", orNull(verdict.family))
        .with("num_rollout_tool_calls", verdict.calls)
        .with("failure_reason", verdict.failure)
        .with("metadata", orNull(request.field("metadata")));
  }

  private void judge(VerifyRequest request, Verdict verdict) {
    ObjectNode expected = expectedAction(request);
    if (expected == null) {
      verdict.failure = "expected_action_invalid";
      return;
    }
    String text = assistantText(request.field("response"));
    List<ImageToolCalls.Call> calls = ImageToolCalls.parse(text);
    verdict.calls = calls.size();
    if (calls.isEmpty()) {
      verdict.failure = "no_tool_call_in_rollout";
      verdict.modelOutput = lastCodePoints(text, 500);
      return;
    }
    ImageToolCalls.Call call = calls.getFirst();
    String name = PythonValues.str(call.name());
    ObjectNode args = stripIgnored(call.arguments());
    String expectedName = expected.get("name").stringValue();
    ObjectNode expectedArgs = stripIgnored(expected.get("arguments"));
    String dumped = PythonValues.dumps(args);
    verdict.modelOutput = name + "(" + dumped.substring(0, dumped.offsetByCodePoints(0,
        Math.min(400, dumped.codePointCount(0, dumped.length())))) + ")";
    verdict.rolloutToolName = name;
    verdict.expectedToolName = expectedName;
    String family = Families.of(expectedName);
    verdict.family = family;
    verdict.toolNameMatch = canonical(name).equals(canonical(expectedName));
    if (!verdict.toolNameMatch) {
      verdict.failure = "tool_name_mismatch";
      return;
    }
    if (targetMatch) {
      verdict.targetMatch = Families.sameTarget(family, args, expectedArgs);
      if (!verdict.targetMatch) {
        verdict.failure = "target_mismatch";
        return;
      }
    }
    Families.Score score = Families.argumentScore(family, args, expectedArgs, tolerance);
    verdict.argumentScore = score.value();
    verdict.argumentDetail = score.detail();
    verdict.reward = continuous ? score.value() : score.value() >= threshold ? 1.0 : 0.0;
    if (score.value() < threshold) {
      verdict.failure = "argument_below_threshold";
    }
    // One pivot, one decision: a burst of calls is off-policy even when the first is right.
    if (penalizeExtra && calls.size() > 1) {
      verdict.reward = 0.0;
    }
  }

  private String canonical(String name) {
    String stripped = PythonText.strip(name);
    return unifyRegionInspect && REGION_INSPECT.contains(stripped) ? "<region_inspect>" : stripped;
  }

  /** Python's {@code dict.items()} on arguments that are not an object raises; the verdict is unknown_error. */
  private static final class NotAnObject extends RuntimeException {
    NotAnObject() {
      super(null, null, false, false);
    }
  }

  private static ObjectNode stripIgnored(JsonNode args) {
    if (!(args instanceof ObjectNode object)) {
      throw new NotAnObject();
    }
    ObjectNode kept = object.deepCopy();
    kept.remove(IGNORED_ARGS);
    return kept;
  }

  /**
   * NeMo Gym's {@code extract_expected_action}: the first of {@code expected_action},
   * {@code metadata.expected_action} and {@code expected_answer} as JSON that is an object with a truthy
   * name; its arguments an object, or a string holding one, else {}.
   */
  private static ObjectNode expectedAction(VerifyRequest request) {
    JsonNode[] candidates = new JsonNode[3];
    JsonNode action = request.field("expected_action");
    candidates[0] = PythonValues.truthy(action) ? action : null;
    candidates[1] = request.field("metadata").path("expected_action");
    JsonNode answer = request.field("expected_answer");
    if (answer.isString() && !answer.stringValue().isEmpty()) {
      try {
        candidates[2] = ImageToolCalls.loads(answer.stringValue());
      } catch (JacksonException e) {
        // not JSON: no candidate, as in NeMo Gym
      }
    }
    for (JsonNode candidate : candidates) {
      if (candidate != null && candidate.isObject() && PythonValues.truthy(candidate.path("name"))) {
        JsonNode args = candidate.path("arguments");
        if (args.isString()) {
          try {
            args = ImageToolCalls.loads(args.stringValue());
          } catch (JacksonException e) {
            args = Json.object();
          }
        }
        ObjectNode out = Json.object();
        out.put("name", PythonValues.str(candidate.get("name")));
        out.set("arguments", args.isObject() ? args : Json.object());
        return out;
      }
    }
    return null;
  }

  /** Every text part of every output item, one per line, as NeMo Gym's {@code extract_assistant_text}. */
  private static String assistantText(JsonNode response) {
    List<String> parts = new java.util.ArrayList<>();
    for (JsonNode item : response.path("output")) {
      JsonNode content = item.path("content");
      if (content.isString()) {
        parts.add(content.stringValue());
      } else if (content.isArray()) {
        for (JsonNode part : content) {
          if (part.path("text").isString()) {
            parts.add(part.get("text").stringValue());
          }
        }
      }
    }
    return String.join("\n", parts);
  }

  /** Python's {@code text[-n:]}, counted in code points. */
  private static String lastCodePoints(String text, int n) {
    int count = text.codePointCount(0, text.length());
    return count <= n ? text : text.substring(text.offsetByCodePoints(0, count - n));
  }

  private static void requireType(VerifyRequest request, String field, java.util.function.Predicate<JsonNode> ok,
      String type, String message) {
    JsonNode value = request.field(field);
    if (!value.isMissingNode() && !value.isNull() && !ok.test(value)) {
      throw new FieldError(List.of(field), message, type);
    }
  }

  private static Object orNull(Object value) {
    return value == null || value instanceof JsonNode node && node.isMissingNode() ? NullNode.getInstance() : value;
  }
}
