package dev.gym4j.metrics;

import java.time.Duration;
import java.util.function.Function;

import dev.gym4j.server.Call;
import dev.gym4j.server.ErrorBodies;
import dev.gym4j.server.Reply;
import dev.gym4j.server.ServerContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one {@code POST /aggregate_metrics} may cost a server (resources, Gymnasium or agent): at most
 * {@code aggregate_metrics_max_rows} verify responses (default 100,000; more is a 413 before the rest of the body is
 * built into a tree) and {@code aggregate_metrics_timeout_seconds} of work (default 60; past it a 422). The body
 * itself is bounded by the server's {@code max_body_bytes}. A caller that leaves stops the work (the route's caller
 * watch interrupts it, and {@link Work#check} ends it). NeMo Gym bounds none of these; metrics of a larger run are
 * computed from its files ({@code gym4j metrics}), with no limit.
 */
public record MetricsLimits(int maxRows, Duration timeout) {
  public static final int DEFAULT_MAX_ROWS = 100_000;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  public MetricsLimits {
    if (maxRows < 1 || !timeout.isPositive()) {
      throw new IllegalArgumentException("aggregate_metrics limits must be positive");
    }
  }

  /** The limits a server instance sets, or the defaults. */
  public static MetricsLimits of(ServerContext context) {
    ObjectNode config = context.config();
    JsonNode rows = config.path("aggregate_metrics_max_rows");
    JsonNode seconds = config.path("aggregate_metrics_timeout_seconds");
    if (!rows.isMissingNode() && !(rows.canConvertToInt() && rows.asInt() >= 1)) {
      throw new dev.gym4j.config.ConfigException(context.path("aggregate_metrics_max_rows")
          + " must be a whole number of at least 1");
    }
    if (!seconds.isMissingNode() && !(seconds.isNumber() && seconds.asDouble() >= 0.001)) {
      throw new dev.gym4j.config.ConfigException(context.path("aggregate_metrics_timeout_seconds")
          + " must be a positive number");
    }
    return new MetricsLimits(rows.isMissingNode() ? DEFAULT_MAX_ROWS : rows.asInt(), seconds.isMissingNode()
        ? DEFAULT_TIMEOUT : Duration.ofMillis((long) Math.min(seconds.asDouble() * 1000, Long.MAX_VALUE)));
  }

  /** Answers one request: its rows read within the row limit, then {@code compute} within the time limit. */
  public Object serve(Call call, Function<ObjectNode, Object> compute) {
    ObjectNode body = call.bodyObject("verify_responses", maxRows).orElse(null);
    if (body == null) {
      return Reply.of(413, ErrorBodies.detail("verify_responses has more than " + maxRows
          + " rows (aggregate_metrics_max_rows of this server); send fewer, or compute the metrics of a rollouts "
          + "file with `gym4j metrics FILE`"));
    }
    int rows = body.path("verify_responses").size();
    return call.within(timeout, () -> compute.apply(body)).orElseGet(() -> Reply.of(422, ErrorBodies.detail(
        "the metrics of " + rows + " rows took longer than " + seconds() + " s (aggregate_metrics_timeout_seconds "
            + "of this server); send fewer rows")));
  }

  private String seconds() {
    return timeout.toMillis() % 1000 == 0 ? String.valueOf(timeout.toSeconds()) : String.valueOf(timeout.toMillis()
        / 1000.0);
  }
}
