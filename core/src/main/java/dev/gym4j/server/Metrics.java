package dev.gym4j.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The meters of this JVM, served in Prometheus format at {@code GET /metrics} by every server in it. Each
 * meter is tagged with the server instance it belongs to, so one scrape covers a whole {@code gym4j run}.
 */
public final class Metrics {
  public static final PrometheusMeterRegistry REGISTRY = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private static final java.util.concurrent.ConcurrentMap<String, java.util.concurrent.atomic.AtomicInteger> GAUGES =
      new java.util.concurrent.ConcurrentHashMap<>();

  private Metrics() {}

  /**
   * A count that goes up and down (requests or rollouts in flight) for a server: one per name and server
   * in this JVM, shared by every server of that name started here (tests and benchmarks start several).
   */
  public static java.util.concurrent.atomic.AtomicInteger gauge(String name, String server) {
    return GAUGES.computeIfAbsent(name + "|" + server, key -> {
      var value = new java.util.concurrent.atomic.AtomicInteger();
      io.micrometer.core.instrument.Gauge.builder(name, value, Number::doubleValue).tag("server", server)
          .register(REGISTRY);
      return value;
    });
  }
}
