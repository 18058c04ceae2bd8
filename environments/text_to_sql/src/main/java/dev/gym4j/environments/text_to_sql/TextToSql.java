package dev.gym4j.environments.text_to_sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.JudgeSettings;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.VerdictParser;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * SQL from a question and a schema (NeMo Gym's text_to_sql): the query is taken from the model's text (the
 * last {@code ```sql} block, else the last code block that starts like SQL, else the text from the first
 * SQL keyword to the last semicolon) and compared with the row's {@code sql} by an LLM judge answering
 * {@code [[A=B]]} or {@code [[A!=B]]}, then again with the queries swapped ({@code check_twice_swap}, on by
 * default). A judge that fails or answers with neither label fails the rollout (NeMo Gym scores it 0).
 */
@Implementation("text_to_sql")
public final class TextToSql extends ResourcesServer {
  static final String SYSTEM_MESSAGE = """
      You compare two SQL queries for the same question and database. They are equivalent when they return \
      the same result on every database with this schema, for the given dialect: the same rows, columns and \
      order where the question asks for an order. Differences in formatting, aliases, join syntax or the \
      order of conditions do not matter.""";
  static final String DEFAULT_PROMPT = """
      Dialect: {sql_dialect}

      Question:
      {sql_prompt}

      Database:
      {sql_context}

      Query A:
      {first_answer}

      Query B:
      {second_answer}

      Reason briefly, then give your verdict: [[A=B]] if the queries are equivalent, [[A!=B]] if not.""";
  private static final Set<String> DIALECTS = Set.of("mysql", "postgresql", "sqlite");
  private static final Map<String, String> ALIASES = Map.of("postgres", "postgresql", "pg", "postgresql",
      "sqlite3", "sqlite");
  private static final Pattern SQL_START = Pattern.compile("^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\\s",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern RAW_START = Pattern.compile("(?:SELECT|INSERT|UPDATE|DELETE|WITH)\\s",
      Pattern.CASE_INSENSITIVE);

  private Judge judge;
  private PromptTemplate template;
  private String systemMessage;
  private String equal;
  private VerdictParser<String> labels;
  private double rewardIfSwapFails;

  @Override
  protected void start() {
    JsonNode config = context().config();
    // NeMo Gym's text_to_sql swaps by default, unlike the judge client
    JudgeSettings settings = JudgeSettings.from(context())
        .withCheckTwiceSwap(config.path("check_twice_swap").asBoolean(true));
    judge = new Judge(context().client(), settings).reading(Judge.Reading.OUTPUT_TEXT);
    template = PromptTemplate.configured(context(), DEFAULT_PROMPT);
    systemMessage = config.path("judge_system_message").isString() ? config.get("judge_system_message").stringValue()
        : SYSTEM_MESSAGE;
    equal = config.path("judge_equal_label").asString("[[A=B]]");
    labels = VerdictParser.labels(equal, config.path("judge_not_equal_label").asString("[[A!=B]]"));
    rewardIfSwapFails = config.path("reward_if_swap_fails").asDouble(0.0);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String expected = required(request, "sql");
    String question = required(request, "sql_prompt");
    String dialect = dialect(required(request, "sql_dialect"));
    JsonNode contextField = request.field("sql_context");
    String schema = contextField.isString() ? contextField.stringValue() : "";
    String generated = request.response().outputTextParts();
    Verification result = Verification.of(0.0).with("sql", expected).with("model_output", generated)
        .with("sql_dialect", dialect).with("sql_context", schema).with("sql_prompt", question);
    String extracted = generated.isEmpty() ? null : extractSql(generated);
    if (extracted == null) {
      return result.with("extracted_sql", null).with("judge_passed", false)
          .with("failure_reason", "no_sql_extracted").with("judge_evaluations", Json.array());
    }
    ArrayNode evaluations = Json.array();
    List<JudgeOutcome<String>> outcomes = judge.askSwapped(systemMessage, swapped -> template.render(Map.of(
        "sql_prompt", question, "sql_context", schema, "first_answer", swapped ? extracted : expected,
        "second_answer", swapped ? expected : extracted, "sql_dialect", dialect)), labels, equal::equals);
    List<Boolean> verdicts = new ArrayList<>();
    for (JudgeOutcome<String> outcome : outcomes) {
      String label = outcome.orThrow();
      evaluations.add(outcome.evaluation().orElseThrow().put("verdict_label", label));
      verdicts.add(label.equals(equal));
    }
    boolean passed = verdicts.stream().allMatch(Boolean::booleanValue);
    double reward = passed ? 1.0 : verdicts.size() == 2 ? rewardIfSwapFails : 0.0;
    return new Verification(reward, result.extra()).with("extracted_sql", extracted).with("judge_passed", passed)
        .with("failure_reason", passed ? "none" : "judge_evaluation_failed").with("judge_evaluations", evaluations);
  }

  /**
   * NeMo Gym's extract_sql_from_response, scanned without backtracking: the last {@code ```sql} block, else
   * the last plain code block starting with a SQL keyword, else from the first SELECT/INSERT/UPDATE/
   * DELETE/WITH to the last semicolon (or the end), with exactly one trailing semicolon; null if none.
   */
  static String extractSql(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    String lastSql = null;
    for (int at = lower.indexOf("```sql"); at >= 0; ) {
      int close = text.indexOf("```", at + 6);
      if (close < 0) {
        break;
      }
      lastSql = PythonText.strip(text.substring(at + 6, close));
      at = lower.indexOf("```sql", close + 3);
    }
    if (lastSql != null) {
      return lastSql;
    }
    List<String> blocks = new ArrayList<>();
    for (int at = text.indexOf("```"); at >= 0; ) {
      int close = text.indexOf("```", at + 3);
      if (close < 0) {
        break;
      }
      blocks.add(PythonText.strip(text.substring(at + 3, close)));
      at = text.indexOf("```", close + 3);
    }
    for (int i = blocks.size() - 1; i >= 0; i--) {
      if (SQL_START.matcher(blocks.get(i)).find()) {
        return blocks.get(i);
      }
    }
    Matcher start = RAW_START.matcher(text);
    if (!start.find()) {
      return null;
    }
    int semicolon = text.lastIndexOf(';');
    String raw = PythonText.strip(semicolon >= start.start() ? text.substring(start.start(), semicolon + 1)
        : text.substring(start.start()));
    int end = raw.length();
    while (end > 0 && raw.charAt(end - 1) == ';') {
      end--;
    }
    return raw.substring(0, end) + ";";
  }

  private static String dialect(String given) {
    String normalized = PythonText.strip(given).toLowerCase(Locale.ROOT);
    normalized = ALIASES.getOrDefault(normalized, normalized);
    if (!DIALECTS.contains(normalized)) {
      throw new FieldError(List.of("sql_dialect"), "Unsupported SQL dialect '" + given + "'. Supported: "
          + DIALECTS.stream().sorted().toList(), "value_error");
    }
    return normalized;
  }

  private static String required(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
  }
}
