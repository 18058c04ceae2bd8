package dev.gym4j.environments.spider2_lite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.sql.SqliteFixtures;
import dev.gym4j.sql.SqliteQuery;
import dev.gym4j.sql.SqliteRunner;
import dev.gym4j.text.PythonText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * Spider 2.0-Lite's local SQLite tasks (NeMo Gym's spider2_lite): the model's SQL (the last {@code ```sql}
 * block, else the last code block that starts like SQL, else the text from the first SQL keyword to the last
 * semicolon) runs on {@code <spider2_lite_dir>/sqlite/<db_id>.sqlite}, as does the row's {@code gold_sql} (or the
 * row's {@code gold_result} sets are used); reward 1 iff every gold column appears among the predicted columns
 * ({@link ResultSets}).
 *
 * <p>Without Spider 2.0-Lite's databases under {@code spider2_lite_dir}, the server uses its fixture databases
 * (IPL, Pagila, California_Traffic_Collision: the example rows' schemas with a few rows), and says so when it
 * starts.
 */
@Implementation("spider2_lite")
public final class Spider2Lite extends ResourcesServer {
  /** The fields NeMo Gym's verify adds (it also writes back uuid, instance_id, db_id, question, gold_sql). */
  static final List<String> FIELDS = List.of("model_output", "extracted_sql", "execution_match", "failure_reason");
  static final List<String> FIXTURES = List.of("IPL", "Pagila", "California_Traffic_Collision");
  private static final Logger LOG = LoggerFactory.getLogger(Spider2Lite.class);
  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
  private static final String PY_SPACE = "[\\x09-\\x0d\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  private static final Pattern SQL_START = Pattern.compile("^" + PY_SPACE
      + "*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)" + PY_SPACE, FLAGS);
  private static final Pattern RAW_START = Pattern.compile("(?:SELECT|INSERT|UPDATE|DELETE|WITH)" + PY_SPACE, FLAGS);

  private Path databases;
  private Path fixtureDir;
  private SqliteRunner sql;

  @Override
  protected void start() {
    JsonNode config = context().config();
    Path dir = Path.of(config.path("spider2_lite_dir").asString("resources_servers/spider2_lite/.spider2_lite"));
    sql = SqliteRunner.fromConfig(config);
    databases = dir.resolve("sqlite");
    if (!hasDatabases(databases)) {
      fixtureDir = fixtures();
      LOG.warn("spider2_lite: no Spider 2.0-Lite databases under {}; using the fixture databases {} built from the "
          + "example rows (see environments/spider2_lite/README.md to fetch the real ones)", databases, FIXTURES);
      databases = fixtureDir;
    }
  }

  @Override
  protected void stop() {
    if (fixtureDir != null) {
      try {
        SqliteFixtures.delete(fixtureDir);
      } catch (IOException e) {
        LOG.debug("spider2_lite: fixture directory {} not removed: {}", fixtureDir, e.getMessage());
      }
    }
  }

  private static boolean hasDatabases(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> children = Files.list(dir)) {
      return children.anyMatch(child -> child.getFileName().toString().endsWith(".sqlite"));
    } catch (IOException e) {
      return false;
    }
  }

  private static Path fixtures() {
    try {
      return SqliteFixtures.build(Spider2Lite.class, "gym4j-spider2-lite-", FIXTURES,
          (dir, name) -> dir.resolve(name + ".sqlite"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("spider2_lite: a fixture database could not be built: " + e.getMessage(), e);
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String dbId = required(request, "db_id");
    String question = required(request, "question");
    JsonNode goldSql = request.field("gold_sql");
    if (!goldSql.isMissingNode() && !goldSql.isNull() && !goldSql.isString()) {
      throw new FieldError(List.of("gold_sql"), "Input should be a valid string", "string_type");
    }
    String generated = request.response().outputTextParts();
    Verification base = Verification.of(0.0).with("uuid", optional(request, "uuid"))
        .with("instance_id", optional(request, "instance_id")).with("db_id", dbId).with("question", question)
        .with("metadata", optional(request, "metadata")).with("model_output", generated)
        .with("gold_sql", goldSql.isString() ? goldSql : NullNode.getInstance());
    String extracted = generated.isEmpty() ? null : extractSql(generated);
    if (extracted == null || extracted.isEmpty()) {
      return base.with("extracted_sql", NullNode.getInstance()).with("execution_match", false)
          .with("failure_reason", "no_sql_extracted");
    }
    boolean ignoreOrder = ignoreOrder(request);
    List<?> conditionCols = conditionCols(request);
    Path database = database(dbId);
    boolean match;
    try {
      List<List<Object>> predicted;
      List<List<List<Object>>> goldSets;
      if (goldSql.isString() && !goldSql.stringValue().isEmpty()) {
        List<List<Object>> gold;
        try {
          gold = sql.rows(database, goldSql.stringValue());
        } catch (SqliteQuery.Failed e) {
          throw new FieldError(List.of("gold_sql"), "the gold query fails on " + dbId + ": " + e.getMessage(),
              "value_error");
        }
        goldSets = List.of(gold);
      } else {
        goldSets = goldResult(request);
      }
      predicted = sql.rows(database, extracted);
      match = ResultSets.matchesAny(goldSets, predicted, conditionCols, ignoreOrder);
    } catch (SqliteQuery.Failed e) {
      match = false;
    }
    return new Verification(match ? 1.0 : 0.0, base.extra()).with("extracted_sql", extracted)
        .with("execution_match", match).with("failure_reason", match ? "none" : "execution_error");
  }

  private Path database(String dbId) {
    Path database = databases.resolve(dbId + ".sqlite");
    if (dbId.isEmpty() || !database.normalize().getParent().equals(databases.normalize())
        || !Files.isRegularFile(database)) {
      throw new RolloutFailure("resources_error", 503, "database " + dbId + " is not under " + databases
          + (fixtureDir != null ? " (only the fixture databases " + FIXTURES + " are here; see environments/"
          + "spider2_lite/README.md to fetch Spider 2.0-Lite)" : ""), null);
    }
    return database;
  }

  /**
   * NeMo Gym's extract_sql_from_response, scanned without backtracking: the last {@code ```sql} block
   * (any case), stripped; else the last plain code block that starts with a SQL keyword; else from the first
   * SELECT/INSERT/UPDATE/DELETE/WITH followed by a space to the last semicolon (or the end), ending in exactly
   * one semicolon; null if none.
   */
  static String extractSql(String text) {
    String lastSql = null;
    for (int at = indexOfIgnoreCase(text, "```sql", 0); at >= 0; ) {
      int close = text.indexOf("```", at + 6);
      if (close < 0) {
        break;
      }
      lastSql = PythonText.strip(text.substring(at + 6, close));
      at = indexOfIgnoreCase(text, "```sql", close + 3);
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

  private static int indexOfIgnoreCase(String text, String needle, int from) {
    for (int i = Math.max(0, from); i + needle.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, needle, 0, needle.length())) {
        return i;
      }
    }
    return -1;
  }

  private static boolean ignoreOrder(VerifyRequest request) {
    JsonNode value = request.field("ignore_order");
    if (value.isMissingNode() || value.isNull()) {
      return true;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isString()) {
      // pydantic's lax bool
      switch (value.stringValue().toLowerCase(Locale.ROOT)) {
        case "true", "1", "yes", "on", "t", "y" -> {
          return true;
        }
        case "false", "0", "no", "off", "f", "n" -> {
          return false;
        }
        default -> { }
      }
    }
    throw new FieldError(List.of("ignore_order"), "Input should be a valid boolean", "bool_parsing");
  }

  private static List<?> conditionCols(VerifyRequest request) {
    JsonNode value = request.field("condition_cols");
    if (value.isMissingNode() || value.isNull()) {
      return null;
    }
    if (!value.isArray()) {
      throw new FieldError(List.of("condition_cols"), "Input should be a valid list", "list_type");
    }
    List<Object> out = new ArrayList<>();
    for (JsonNode item : value) {
      if (item.isIntegralNumber()) {
        out.add(item.asInt());
      } else if (item.isArray()) {
        List<Integer> inner = new ArrayList<>();
        for (JsonNode col : item) {
          if (!col.isIntegralNumber()) {
            throw new FieldError(List.of("condition_cols"), "Input should be column numbers", "int_type");
          }
          inner.add(col.asInt());
        }
        out.add(inner);
      } else {
        throw new FieldError(List.of("condition_cols"), "Input should be column numbers or lists of them",
            "int_type");
      }
    }
    return out;
  }

  /** {@code gold_result}: result sets of rows of values. */
  private static List<List<List<Object>>> goldResult(VerifyRequest request) {
    JsonNode sets = request.field("gold_result");
    if (!sets.isArray() || sets.isEmpty()) {
      throw new FieldError(List.of("gold_sql"), "the row needs gold_sql or gold_result", "value_error");
    }
    List<List<List<Object>>> out = new ArrayList<>();
    for (JsonNode set : sets) {
      List<List<Object>> rows = new ArrayList<>();
      for (JsonNode row : set) {
        if (!row.isArray()) {
          throw new FieldError(List.of("gold_result"), "Input should be a list of lists of rows", "list_type");
        }
        List<Object> values = new ArrayList<>();
        for (JsonNode value : row) {
          values.add(value.isNull() ? null : value.isIntegralNumber() ? (Object) value.asLong()
              : value.isNumber() ? (Object) value.asDouble() : value.isString() ? value.stringValue()
              : Json.write(value));
        }
        rows.add(values);
      }
      out.add(rows);
    }
    return out;
  }

  private static JsonNode optional(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    return value.isMissingNode() ? NullNode.getInstance() : value;
  }

  private static String required(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
  }
}
