package dev.gym4j.testing;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.gym4j.metrics.AggregateMetrics;
import dev.gym4j.metrics.PassMajority;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A test environment whose own metrics never finish by themselves: they recompute NeMo Gym's pass@k family of the
 * request's rollouts over and over, as an environment's heavy metrics of a huge request would keep a core busy.
 * Only the metrics code's own stop (the caller left, the time ran out) ends them; {@link #STARTED} and
 * {@link #STOPPED} tell a test when the work began and ended.
 */
@Implementation("test_slow_metrics")
public final class SlowMetricsEnvironment extends ResourcesServer {
  public static volatile CountDownLatch STARTED = new CountDownLatch(1);
  public static volatile CountDownLatch STOPPED = new CountDownLatch(1);

  /** New latches for the next test. */
  public static void reset() {
    STARTED = new CountDownLatch(1);
    STOPPED = new CountDownLatch(1);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    return Verification.of(0);
  }

  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    return AggregateMetrics.ofRequest(request, new AggregateMetrics.Custom() {
      @Override
      public ObjectNode compute(List<List<JsonNode>> tasks) {
        STARTED.countDown();
        try {
          while (true) {
            PassMajority.of(tasks, PassMajority.REWARD, null);
          }
        } finally {
          STOPPED.countDown();
        }
      }

      @Override
      public ObjectNode keyMetrics(ObjectNode agentMetrics) {
        return agentMetrics;
      }
    });
  }
}
