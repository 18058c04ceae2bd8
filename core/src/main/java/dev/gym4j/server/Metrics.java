package dev.gym4j.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The meters of this JVM, served in Prometheus format at {@code GET /metrics} by every server in it. Each
 * meter is tagged with the server instance it belongs to, so one scrape covers a whole {@code gym4j run}.
 */
public final class Metrics {
  public static final PrometheusMeterRegistry REGISTRY = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  private Metrics() {}
}
