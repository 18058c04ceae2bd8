package dev.gym4j.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bounds every query from a model runs under (moved here from bird_sql's tests with the code). */
class SqliteQueryTest {
  @TempDir
  Path dir;

  @Test
  void modelSqlCannotWriteAttachOrLoadAnything() throws Exception {
    Path db = dir.resolve("t.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)");
    }
    Duration second = Duration.ofSeconds(2);
    for (String hostile : List.of("DELETE FROM t", "ATTACH DATABASE '" + dir.resolve("x.db") + "' AS x",
        "VACUUM INTO '" + dir.resolve("copy.db") + "'", "PRAGMA writable_schema = 1",
        "SELECT load_extension('/lib/x.so')", "SELECT 1; DELETE FROM t",
        "WITH x AS (SELECT 1) DELETE FROM t")) {
      assertThatThrownBy(() -> SqliteQuery.rows(db, hostile, second, 100)).as(hostile)
          .isInstanceOf(SqliteQuery.Failed.class);
    }
    assertThat(SqliteQuery.rows(db, "SELECT count(*) FROM t", second, 100)).containsExactly(List.of(1L));
    assertThat(Files.exists(dir.resolve("x.db"))).isFalse();
    assertThat(Files.exists(dir.resolve("copy.db"))).isFalse();
  }

  @Test
  void aRunawayQueryIsStoppedAndSoIsAFloodOfRows() throws Exception {
    Path db = dir.resolve("e.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE e (a INTEGER)");
    }
    String forever = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
    assertThatThrownBy(() -> SqliteQuery.rows(db, forever, Duration.ofMillis(300), 100))
        .isInstanceOf(SqliteQuery.Failed.class).hasMessageContaining("did not finish");
    String many = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 500) SELECT n FROM r";
    assertThatThrownBy(() -> SqliteQuery.rows(db, many, Duration.ofSeconds(5), 100))
        .isInstanceOf(SqliteQuery.Failed.class).hasMessageContaining("more than 100 rows");
  }

  @Test
  void onlyTheFirstStatementRunsAndOnlyIfNothingFollows() throws Exception {
    // Python's sqlite3: "You can only execute one statement at a time"; whitespace and comments after are fine
    assertThat(SqliteQuery.singleStatement("  -- c\n SELECT ';' ; /* end */ ")).isEqualTo("SELECT ';' ;");
    assertThat(SqliteQuery.singleStatement(" /* only */ ")).isEmpty();
    assertThatThrownBy(() -> SqliteQuery.singleStatement("SELECT 1; SELECT 2"))
        .isInstanceOf(SqliteQuery.Failed.class);
  }

  @Test
  void fixturesAreBuiltFromScriptsBesideTheirOwnerAndRemoved() throws Exception {
    Path built = SqliteFixtures.build(SqliteQueryTest.class, "gym4j-sql-test-", List.of("tiny"),
        (root, name) -> root.resolve(name).resolve(name + ".sqlite"));
    try {
      assertThat(SqliteQuery.rows(built.resolve("tiny").resolve("tiny.sqlite"), "SELECT a FROM t ORDER BY a",
          Duration.ofSeconds(5), 10)).containsExactly(List.of(1L), List.of(2L));
    } finally {
      SqliteFixtures.delete(built);
    }
    assertThat(Files.exists(built)).isFalse();
  }
}
