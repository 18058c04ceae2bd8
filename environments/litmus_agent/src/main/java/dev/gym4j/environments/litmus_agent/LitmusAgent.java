package dev.gym4j.environments.litmus_agent;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.sandbox.Limits;
import dev.gym4j.sandbox.PythonRepl;
import dev.gym4j.sandbox.PythonSessions;
import dev.gym4j.sandbox.Sandbox;
import dev.gym4j.sandbox.SandboxException;
import dev.gym4j.sandbox.SandboxSettings;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.server.Implementation;
import dev.gym4j.server.RawBody;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * NeMo Gym's litmus_agent: a domain-free answer scorer. The answer is found in the assistant text by the row's
 * regex or answer format ({@link Answers}), read by {@code answer_type} (float, bool or string; rows without one
 * take it from a legacy {@code property_type}), and compared with {@code expected_answer} by a rule: the row's
 * {@code match: {rule, …params}} or the type's default ({@code isclose}, {@code bool_eq}, {@code string_eq}).
 * With {@code sandbox_provider} set, the server also offers a stateful Python tool (default name
 * {@code stateful_python_code_exec}) that runs in gym4j's sandbox; the verdict never reads anything from it.
 */
@Implementation("litmus_agent")
public final class LitmusAgent extends ResourcesServer {
  /** The fields NeMo Gym's verify response computes. */
  public static final List<String> FIELDS = List.of("predicted_value", "correct", "resolved_answer_type",
      "resolved_reward_rule", "abs_error");
  private static final Set<String> TYPES = Set.of(Answers.FLOAT, Answers.BOOL, Answers.STRING);
  private static final Map<String, String> LEGACY = Map.of("float", Answers.FLOAT, "count", Answers.FLOAT,
      "fragment", Answers.FLOAT, "bool", Answers.BOOL, "presence", Answers.BOOL);
  private static final Set<String> LEGACY_DISCRETE = Set.of("count", "fragment", "bool", "presence");
  private static final Map<String, String> DEFAULT_RULE = Map.of(Answers.FLOAT, "isclose", Answers.BOOL, "bool_eq",
      Answers.STRING, "string_eq");
  private static final Set<String> RULES = Set.of("exact", "isclose", "abs_window", "rel_window", "bool_eq",
      "string_eq");

  private double relTol;
  private double absTol;
  private String toolName;
  private int maxOutputChars;
  private Sandbox sandbox;
  private PythonSessions sessions;

  @Override
  protected void start() {
    ObjectNode config = context().config();
    relTol = number(config, "float_rel_tol", 1e-6);
    absTol = number(config, "float_abs_tol", 1e-6);
    toolName = config.path("code_exec_tool_name").asString("stateful_python_code_exec");
    maxOutputChars = (int) number(config, "code_exec_max_output_chars", 10000);
    if (!config.path("sandbox_provider").isMissingNode() && !config.path("sandbox_provider").isNull()) {
      // NeMo Gym names a remote sandbox service here; gym4j runs the tool in its own bubblewrap sandbox
      sandbox = Sandbox.start(SandboxSettings.from(config, context().name()));
      Duration perCall = Duration.ofMillis((long) (number(config, "code_exec_timeout_s", 120) * 1000));
      Limits lifetime = sandbox.settings().limits().withWallClock(Duration.ofSeconds(
          config.path("session_lifetime_seconds").asLong(1800))).withCpu(Duration.ofSeconds(
          config.path("session_cpu_seconds").asLong(600)));
      sessions = new PythonSessions(sandbox, lifetime, perCall, Math.max(maxOutputChars, 1) * 4,
          Duration.ofSeconds(config.path("session_ttl_seconds").asLong(DEFAULT_SESSION_TTL.toSeconds())));
    }
  }

  /** A number setting, also as text (what an {@code ${oc.env:NAME,default}} interpolation gives). */
  private double number(ObjectNode config, String key, double fallback) {
    JsonNode value = config.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return fallback;
    }
    return value.isNumber() ? value.asDouble() : PythonText.parseFloat(value.asString(""))
        .orElseThrow(() -> new ConfigException(context().path(key) + " must be a number, got " + value));
  }

  @Override
  protected void stop() {
    if (sessions != null) {
      sessions.close();
    }
    if (sandbox != null) {
      sandbox.close();
    }
    super.stop();
  }

  @Override
  protected Map<String, FreeTool> freeTools() {
    return sessions == null ? Map.of() : Map.of(toolName, (arguments, session) -> runCell(arguments, session));
  }

  /** One cell in the rollout's interpreter; its stdout and stderr (or error) as plain text, as NeMo Gym's tool. */
  private RawBody runCell(ObjectNode arguments, Session session) {
    JsonNode code = arguments.path("code");
    PythonRepl.Reply reply;
    try {
      reply = sessions.execute(session.id(), code.isString() ? code.stringValue() : "");
    } catch (SandboxException e) {
      throw new UpstreamException(UpstreamException.Kind.STATUS, context().name() + ": " + e.getMessage(), 0, e);
    }
    List<String> parts = new ArrayList<>();
    for (String part : new String[] {reply.stdout(), reply.stderr(), reply.errorMessage()}) {
      if (part != null && !part.isEmpty()) {
        parts.add(part);
      }
    }
    String text = String.join("\n", parts);
    if (maxOutputChars > 0 && text.length() > maxOutputChars) {
      text = text.substring(0, maxOutputChars) + "\n... [output truncated to " + maxOutputChars + " chars]";
    }
    return new RawBody("text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    try {
      return score(request);
    } finally {
      if (sessions != null) {
        sessions.end(session.id());
      }
    }
  }

  private Verification score(VerifyRequest request) {
    JsonNode expected = request.field("expected_answer");
    if (!expected.isString() && !expected.isNumber()) {
      throw new FieldError(List.of("expected_answer"), "Field required: a string or a number", "missing");
    }
    JsonNode answerTypeField = optionalString(request, "answer_type");
    String answerType = resolveAnswerType(answerTypeField.asString(""), request.field("property_type"));
    String parsingType = answerType;
    JsonNode matchField = request.field("match");
    if (!matchField.isMissingNode() && !matchField.isNull() && !matchField.isObject()) {
      throw new FieldError(List.of("match"), "must be an object {rule, ...params}", "dict_type");
    }
    ObjectNode match = matchField.isObject() ? (ObjectNode) matchField : null;
    if (answerTypeField.isNull() && request.field("property_type").isString()
        && LEGACY_DISCRETE.contains(request.field("property_type").stringValue())) {
      parsingType = Answers.FLOAT;
      if (match == null) {
        match = Json.object().put("rule", "exact");
      }
    }
    JsonNode box = request.field("use_box_format");
    String text = assistantText(request);
    String raw = Answers.capture(text, Answers.pattern(optionalString(request, "output_regex").asString(null),
        optionalString(request, "answer_format").asString(null), box.asBoolean(false)));
    Object predicted = raw == null ? null : Answers.read(raw, parsingType);

    String rule = DEFAULT_RULE.get(answerType);
    if (match != null && !match.isEmpty()) {
      JsonNode named = match.path("rule");
      if (!named.isString() || named.stringValue().isEmpty()) {
        throw new FieldError(List.of("match", "rule"), "a match must name its rule", "value_error");
      }
      rule = named.stringValue();
    }
    double reward = predicted == null || predicted instanceof Double d && d.isNaN() ? 0.0
        : reward(rule, predicted, expected, match);

    Verification verification = Verification.of(reward)
        .with("predicted_value", predicted instanceof Double d && !Double.isFinite(d) ? NullNode.getInstance()
            : predicted == null ? NullNode.getInstance() : Json.toTree(predicted))
        .with("correct", reward == 1.0).with("resolved_answer_type", answerType).with("resolved_reward_rule", rule)
        .with("abs_error", absError(predicted, expected, request.field("property_type"), answerType));
    // NeMo Gym's response echoes its request model's optional fields, defaults included
    for (String field : List.of("answer_type", "output_regex", "answer_format", "match")) {
      if (request.field(field).isMissingNode()) {
        verification = verification.with(field, NullNode.getInstance());
      }
    }
    if (box.isMissingNode()) {
      verification = verification.with("use_box_format", false);
    }
    return verification;
  }

  private static JsonNode optionalString(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (value.isMissingNode() || value.isNull()) {
      return NullNode.getInstance();
    }
    if (!value.isString()) {
      throw new FieldError(List.of(field), "must be a string", "string_type");
    }
    return value;
  }

  private static String resolveAnswerType(String answerType, JsonNode propertyType) {
    if (!answerType.isEmpty()) {
      if (!TYPES.contains(answerType)) {
        throw new FieldError(List.of("answer_type"), "must be one of float, bool, string", "literal_error");
      }
      return answerType;
    }
    String mapped = propertyType.isString() ? LEGACY.get(propertyType.stringValue()) : null;
    if (mapped == null) {
      throw new FieldError(List.of("answer_type"), "Field required: answer_type (float, bool or string), or a "
          + "property_type of float, count, fragment, bool or presence", "missing");
    }
    return mapped;
  }

  /** One rule's verdict, 0 or 1. Bad rule parameters or a non-numeric expected value are the row's fault: 422. */
  private double reward(String rule, Object predicted, JsonNode expected, ObjectNode match) {
    if (!RULES.contains(rule)) {
      throw new FieldError(List.of("match", "rule"), "must be one of " + new java.util.TreeSet<>(RULES), "value_error");
    }
    if (rule.equals("string_eq")) {
      return Answers.normalize(pythonStr(predicted)).equals(Answers.normalize(pythonStr(expected))) ? 1.0 : 0.0;
    }
    Double p = predicted instanceof Double d ? d : PythonText.parseFloat((String) predicted).orElse(null);
    if (p == null) {
      // float() of the model's text fails: NeMo Gym answers 500 here; it is a wrong answer, not a broken row
      return 0.0;
    }
    if (rule.equals("bool_eq")) {
      Double wanted = Answers.bool(pythonStr(expected));
      return wanted != null && p.doubleValue() == wanted ? 1.0 : 0.0;
    }
    double e = expectedNumber(expected);
    double rel = param(match, "rel_tol", relTol);
    double abs = param(match, "abs_tol", absTol);
    return switch (rule) {
      case "exact" -> Double.isFinite(p) && Double.isFinite(e) && Math.rint(p) == Math.rint(e) ? 1.0 : 0.0;
      case "isclose" -> {
        if (rel < 0 || abs < 0) {
          throw new FieldError(List.of("match"), "tolerances must be at least 0", "value_error");
        }
        yield isClose(p, e, rel, abs) ? 1.0 : 0.0;
      }
      case "abs_window" -> Math.abs(p - e) <= abs ? 1.0 : 0.0;
      default -> Math.abs(p - e) <= Math.abs(rel * e) ? 1.0 : 0.0;
    };
  }

  /** {@code math.isclose}. */
  static boolean isClose(double a, double b, double rel, double abs) {
    if (a == b) {
      return true;
    }
    if (Double.isInfinite(a) || Double.isInfinite(b)) {
      return false;
    }
    double diff = Math.abs(b - a);
    return diff <= Math.abs(rel * b) || diff <= Math.abs(rel * a) || diff <= abs;
  }

  private static double param(ObjectNode match, String name, double fallback) {
    JsonNode value = match == null ? null : match.get(name);
    if (value == null) {
      return fallback;
    }
    if (!value.isNumber()) {
      throw new FieldError(List.of("match", name), "must be a number", "float_type");
    }
    return value.asDouble();
  }

  private static double expectedNumber(JsonNode expected) {
    if (expected.isNumber()) {
      return expected.asDouble();
    }
    return PythonText.parseFloat(expected.stringValue()).orElseThrow(() -> new FieldError(List.of("expected_answer"),
        "must be a number for this rule", "float_parsing"));
  }

  /** {@code abs(float(predicted) - float(expected))} for continuous rows, when it is a finite number. */
  private static JsonNode absError(Object predicted, JsonNode expected, JsonNode propertyType, String answerType) {
    boolean continuous = propertyType.isMissingNode() || propertyType.isNull() ? answerType.equals(Answers.FLOAT)
        : propertyType.isString() && Set.of("float", "count").contains(propertyType.stringValue());
    if (!continuous || predicted == null) {
      return NullNode.getInstance();
    }
    Double p = predicted instanceof Double d ? d : PythonText.parseFloat((String) predicted).orElse(null);
    Double e = expected.isNumber() ? Double.valueOf(expected.asDouble())
        : PythonText.parseFloat(expected.stringValue()).orElse(null);
    if (p == null || e == null || !Double.isFinite(Math.abs(p - e))) {
      return NullNode.getInstance();
    }
    return Json.toTree(Math.abs(p - e));
  }

  /** Python's {@code str()} of a predicted or expected value. */
  private static String pythonStr(Object value) {
    if (value instanceof Double d) {
      return PythonText.floatRepr(d);
    }
    if (value instanceof JsonNode node) {
      if (node.isString()) {
        return node.stringValue();
      }
      return node.isIntegralNumber() ? node.bigIntegerValue().toString()
          : PythonText.floatRepr(node.asDouble());
    }
    return String.valueOf(value);
  }

  /** The assistant messages' texts, joined by newlines and stripped. */
  static String assistantText(VerifyRequest request) {
    return PythonText.strip(String.join("\n", request.response().assistantContentTexts()));
  }
}
