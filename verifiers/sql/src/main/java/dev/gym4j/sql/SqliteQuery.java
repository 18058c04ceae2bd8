package dev.gym4j.sql;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;

/**
 * One untrusted query on a SQLite database file: opened read-only, with no database attachable and no
 * extension loadable; only a single SELECT, WITH or VALUES statement runs; a watchdog interrupts it after the
 * time bound, and at most {@code maxRows} rows are read. Any of these, and any SQLite error, is a
 * {@link Failed} naming why.
 */
public final class SqliteQuery {
  private static final Set<String> ALLOWED = Set.of("select", "with", "values");
  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(
      Thread.ofPlatform().daemon().name("sqlite-watchdog").factory());

  /** Why a query gave no rows. */
  public static final class Failed extends Exception {
    Failed(String message) {
      super(message, null, false, false);
    }
  }

  private SqliteQuery() {}

  /**
   * The rows of {@code sql} on the database, each value a Long, Double, String, {@link Blob} or null (as
   * Python's sqlite3 returns int, float, str, bytes, None). An empty statement (only whitespace and comments)
   * gives no rows, as in Python.
   */
  public static List<List<Object>> rows(Path database, String sql, Duration timeout, int maxRows) throws Failed {
    String statement = singleStatement(sql);
    if (statement.isEmpty()) {
      return List.of();
    }
    String keyword = firstWord(statement);
    if (!ALLOWED.contains(keyword)) {
      throw new Failed("only a SELECT, WITH or VALUES query runs here, not " + keyword.toUpperCase(Locale.ROOT));
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.enableLoadExtension(false);
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database, config.toProperties())) {
      ((SQLiteConnection) connection).setLimit(SQLiteLimits.SQLITE_LIMIT_ATTACHED, 0);
      try (Statement query = connection.createStatement()) {
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
          timedOut.set(true);
          try {
            query.cancel();
          } catch (SQLException ignored) {
            // the query ended as we cancelled it
          }
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        try (ResultSet results = query.executeQuery(statement)) {
          int columns = results.getMetaData().getColumnCount();
          List<List<Object>> rows = new ArrayList<>();
          while (results.next()) {
            if (rows.size() == maxRows) {
              throw new Failed("the query returned more than " + maxRows + " rows");
            }
            List<Object> row = new ArrayList<>(columns);
            for (int i = 1; i <= columns; i++) {
              row.add(value(results.getObject(i)));
            }
            rows.add(row);
          }
          return rows;
        } catch (SQLException e) {
          throw new Failed(timedOut.get() ? "the query did not finish within " + timeout.toMillis() + " ms"
              : e.getMessage());
        } finally {
          watchdog.cancel(false);
        }
      }
    } catch (SQLException e) {
      throw new Failed(e.getMessage());
    }
  }

  /** A BLOB value, equal by content. */
  public record Blob(String hex) {}

  private static Object value(Object value) {
    return switch (value) {
      case null -> null;
      case Integer i -> (long) i;
      case Long l -> l;
      case Double d -> d;
      case Float f -> (double) f;
      case String s -> s;
      case byte[] bytes -> new Blob(HexFormat.of().formatHex(bytes));
      default -> value.toString();
    };
  }

  private static String firstWord(String statement) {
    int start = skipSpaceAndComments(statement, 0);
    int end = start;
    while (end < statement.length() && Character.isLetter(statement.charAt(end))) {
      end++;
    }
    return statement.substring(start, end).toLowerCase(Locale.ROOT);
  }

  /**
   * The statement up to and including its first top-level {@code ;}; a failure if anything but whitespace
   * and comments follows (Python's sqlite3: "You can only execute one statement at a time"); "" when the
   * text holds only whitespace and comments.
   */
  static String singleStatement(String sql) throws Failed {
    int start = skipSpaceAndComments(sql, 0);
    if (start == sql.length()) {
      return "";
    }
    int i = start;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`' || c == '[') {
        char close = c == '[' ? ']' : c;
        int end = sql.indexOf(close, i + 1);
        i = end < 0 ? sql.length() : end + 1;
      } else if (sql.startsWith("--", i) || sql.startsWith("/*", i)) {
        i = skipSpaceAndComments(sql, i);
      } else if (c == ';') {
        if (skipSpaceAndComments(sql, i + 1) != sql.length()) {
          throw new Failed("You can only execute one statement at a time.");
        }
        return sql.substring(start, i + 1);
      } else {
        i++;
      }
    }
    return sql.substring(start);
  }

  private static int skipSpaceAndComments(String sql, int from) {
    int i = from;
    while (i < sql.length()) {
      if (Character.isWhitespace(sql.charAt(i))) {
        i++;
      } else if (sql.startsWith("--", i)) {
        int newline = sql.indexOf('\n', i);
        i = newline < 0 ? sql.length() : newline + 1;
      } else if (sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? sql.length() : close + 2;
      } else {
        break;
      }
    }
    return i;
  }
}
