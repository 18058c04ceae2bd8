package dev.gym4j.environments.bird_sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.json.FieldError;
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
 * BIRD text-to-SQL (NeMo Gym's bird_sql): the last {@code ```sql} block of the answer (comments removed,
 * whitespace collapsed; {@code SELECT 1} when there is none) and the row's {@code gt_sql} run on the row's
 * database ({@code <bird_sql_dir>/dev_20240627/dev_databases/<db_id>/<db_id>.sqlite}); reward 1 iff the two
 * result sets are equal as sets of rows (order and duplicates ignored; 1 equals 1.0, as in Python).
 *
 * <p>Without BIRD's databases under {@code bird_sql_dir}, the server uses the fixture databases it ships
 * (california_schools, built from the example rows' schema), and says so when it starts.
 */
@Implementation("bird_sql")
public final class BirdSql extends ResourcesServer {
  /** The fields NeMo Gym's verify adds to the request (it also writes back question, gt_sql, db_id, difficulty, id). */
  static final List<String> FIELDS = List.of("model_output", "extracted_sql", "had_codeblock", "execution_match",
      "failure_reason");
  static final List<String> FIXTURES = List.of("california_schools");
  private static final Logger LOG = LoggerFactory.getLogger(BirdSql.class);
  private static final String NO_ANSWER_FILLER = "SELECT 1";
  private static final Pattern SPACES = Pattern.compile("[\\s\\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+");
  private static final Pattern BOLD_HEADER = Pattern.compile("^\\*\\*.*\\*\\*", Pattern.UNIX_LINES);
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

  private Path databases;
  private Path fixtureDir;
  private SqliteRunner sql;

  @Override
  protected void start() {
    JsonNode config = context().config();
    Path dir = Path.of(config.path("bird_sql_dir").asString("resources_servers/bird_sql/.bird_sql"));
    sql = SqliteRunner.fromConfig(config);
    databases = dir.resolve("dev_20240627").resolve("dev_databases");
    if (!hasDatabases(databases)) {
      fixtureDir = fixtures();
      LOG.warn("bird_sql: no BIRD databases under {}; using the fixture database{} {} built from the example rows "
          + "(see environments/bird_sql/README.md to fetch BIRD dev)", databases, FIXTURES.size() == 1 ? "" : "s",
          FIXTURES);
      databases = fixtureDir;
    }
  }

  @Override
  protected void stop() {
    if (fixtureDir != null) {
      try {
        SqliteFixtures.delete(fixtureDir);
      } catch (IOException e) {
        LOG.debug("bird_sql: fixture directory {} not removed: {}", fixtureDir, e.getMessage());
      }
    }
  }

  private static boolean hasDatabases(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> children = Files.list(dir)) {
      return children.anyMatch(child -> Files.exists(child.resolve(child.getFileName() + ".sqlite")));
    } catch (IOException e) {
      return false;
    }
  }

  /** Each fixture database, built from its SQL script into a fresh directory in BIRD's layout. */
  private static Path fixtures() {
    try {
      return SqliteFixtures.build(BirdSql.class, "gym4j-bird-sql-", FIXTURES,
          (dir, name) -> dir.resolve(name).resolve(name + ".sqlite"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("bird_sql: a fixture database could not be built: " + e.getMessage(), e);
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String question = required(request, "question");
    String gold = required(request, "gt_sql");
    String dbId = required(request, "db_id");
    String generated = request.response().outputTextParts();
    Path database = databases.resolve(dbId).resolve(dbId + ".sqlite");
    if (dbId.isEmpty() || !database.normalize().startsWith(databases.normalize()) || !Files.isRegularFile(database)) {
      throw new RolloutFailure("resources_error", 503, "database " + dbId + " is not under " + databases
          + (fixtureDir != null ? " (only the fixture databases " + FIXTURES + " are here; see environments/"
          + "bird_sql/README.md to fetch BIRD dev)" : ""), null);
    }
    List<String> blocks = sqlBlocks(generated);
    boolean hadCodeblock = !blocks.isEmpty();
    String extracted = hadCodeblock ? clean(blocks.getLast()) : NO_ANSWER_FILLER;
    List<List<Object>> goldRows;
    try {
      goldRows = sql.rows(database, gold);
    } catch (SqliteQuery.Failed e) {
      throw new FieldError(List.of("gt_sql"), "the gold query fails on " + dbId + ": " + e.getMessage(),
          "value_error");
    }
    boolean match;
    String failure;
    try {
      match = sameRows(goldRows, sql.rows(database, extracted));
      failure = match ? "none" : hadCodeblock ? "execution_error" : "no_sql_extracted";
    } catch (SqliteQuery.Failed e) {
      match = false;
      failure = hadCodeblock ? "execution_error" : "no_sql_extracted";
    }
    return Verification.of(match ? 1.0 : 0.0).with("question", question).with("gt_sql", gold).with("db_id", dbId)
        .with("difficulty", optionalString(request, "difficulty")).with("id", id(request))
        .with("model_output", generated).with("extracted_sql", extracted).with("had_codeblock", hadCodeblock)
        .with("execution_match", match).with("failure_reason", failure);
  }

  /**
   * The contents of NeMo Gym's {@code (?:```sql)(.*?[a-zA-Z].*?)(?:```)} matches (DOTALL), found in one pass:
   * from each {@code ```sql}, the text up to the first {@code ```} after its first ASCII letter.
   */
  static List<String> sqlBlocks(String text) {
    List<String> blocks = new ArrayList<>();
    int at = 0;
    while (true) {
      int start = text.indexOf("```sql", at);
      if (start < 0) {
        return blocks;
      }
      int content = start + 6;
      int letter = content;
      while (letter < text.length() && !isAsciiLetter(text.charAt(letter))) {
        letter++;
      }
      int close = letter < text.length() ? text.indexOf("```", letter + 1) : -1;
      if (close < 0) {
        // no later start can close either: every later first letter is at or after this one
        return blocks;
      }
      blocks.add(text.substring(content, close));
      at = close + 3;
    }
  }

  private static boolean isAsciiLetter(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  /**
   * NeMo Gym's clean-up of the block: {@code --} comments run to the end of the text (not of the line: its
   * pattern has DOTALL and no MULTILINE), {@code /* *\/} comments go, whitespace runs become one space, a
   * leading {@code **...**} header goes, and the ends are stripped.
   */
  static String clean(String block) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < block.length()) {
      if (block.startsWith("--", i)) {
        // `--.*?$`: to the end, or to just before a final newline
        if (block.endsWith("\n")) {
          out.append('\n');
        }
        break;
      }
      if (block.startsWith("/*", i)) {
        int close = block.indexOf("*/", i + 2);
        if (close >= 0) {
          i = close + 2;
          continue;
        }
      }
      out.append(block.charAt(i));
      i++;
    }
    String collapsed = SPACES.matcher(out).replaceAll(" ");
    return PythonText.strip(BOLD_HEADER.matcher(collapsed).replaceFirst(""));
  }

  /** Python's {@code set(gold) == set(pred)} over tuples: order and duplicates ignored, 1 == 1.0. */
  static boolean sameRows(List<List<Object>> gold, List<List<Object>> predicted) {
    return keys(gold).equals(keys(predicted));
  }

  private static Set<List<Object>> keys(List<List<Object>> rows) {
    Set<List<Object>> keys = new HashSet<>();
    for (List<Object> row : rows) {
      List<Object> key = new ArrayList<>(row.size());
      for (Object value : row) {
        key.add(value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 0x1p63 ? (Object) d.longValue() : value);
      }
      keys.add(key);
    }
    return keys;
  }

  private static JsonNode id(VerifyRequest request) {
    JsonNode id = request.field("id");
    if (id.isMissingNode() || id.isNull()) {
      return NullNode.getInstance();
    }
    // NeMo Gym's `id: Optional[int]` takes "0" as 0
    if (id.isIntegralNumber()) {
      return id;
    }
    if (id.isString() && INTEGER.matcher(PythonText.strip(id.stringValue())).matches()) {
      return dev.gym4j.json.Json.toTree(Long.parseLong(PythonText.strip(id.stringValue())));
    }
    throw new FieldError(List.of("id"), "Input should be a valid integer", "int_parsing");
  }

  private static JsonNode optionalString(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (value.isMissingNode() || value.isNull()) {
      return NullNode.getInstance();
    }
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Input should be a valid string", "string_type");
    }
    return value;
  }

  private static String required(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
  }
}
