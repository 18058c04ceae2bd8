package dev.gym4j.sql;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Semaphore;

import tools.jackson.databind.JsonNode;

/**
 * {@link SqliteQuery} with an environment's bounds: at most {@code max_concurrency} queries at once (default 32),
 * each stopped after {@code sql_execution_timeout_s} (default 30) and after {@code max_result_rows} rows
 * (default 1,000,000), as NeMo Gym's bird_sql and spider2_lite configure them.
 */
public final class SqliteRunner {
  private final Semaphore slots;
  private final Duration timeout;
  private final int maxRows;

  public SqliteRunner(int maxConcurrency, Duration timeout, int maxRows) {
    this.slots = new Semaphore(Math.max(1, maxConcurrency));
    this.timeout = timeout;
    this.maxRows = maxRows;
  }

  /** The bounds from an environment's config keys {@code max_concurrency}, {@code sql_execution_timeout_s}, {@code max_result_rows}. */
  public static SqliteRunner fromConfig(JsonNode config) {
    return new SqliteRunner(config.path("max_concurrency").asInt(32),
        Duration.ofMillis((long) (config.path("sql_execution_timeout_s").asDouble(30.0) * 1000)),
        config.path("max_result_rows").asInt(1_000_000));
  }

  /** The rows of {@code sql} on the database, once a slot is free; see {@link SqliteQuery#rows}. */
  public List<List<Object>> rows(Path database, String sql) throws SqliteQuery.Failed {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted waiting for a SQL slot");
    }
    try {
      return SqliteQuery.rows(database, sql, timeout, maxRows);
    } finally {
      slots.release();
    }
  }
}
