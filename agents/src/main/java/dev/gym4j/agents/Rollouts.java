package dev.gym4j.agents;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.server.ServerContext;

/**
 * Runs rollouts under a deadline ({@code rollout_timeout_seconds}, default one hour): one past it is
 * stopped and fails as {@code timeout}, so no rollout hangs for ever.
 */
final class Rollouts {
  private static final Duration DEFAULT_TIMEOUT = Duration.ofHours(1);

  private Duration timeout;
  private ExecutorService executor;

  void start(ServerContext context) {
    double seconds = context.config().path("rollout_timeout_seconds").asDouble(DEFAULT_TIMEOUT.toSeconds());
    timeout = Duration.ofMillis((long) (seconds * 1000));
    executor = Executors.newVirtualThreadPerTaskExecutor();
  }

  void stop() {
    executor.shutdownNow();
  }

  <T> T run(Supplier<T> rollout) {
    Future<T> future = executor.submit(rollout::get);
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new RolloutFailure("timeout", 504, "the rollout did not finish within " + timeout.toSeconds()
          + " s (rollout_timeout_seconds)", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new RolloutFailure("agent_error", 500, "the rollout failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new RolloutFailure("agent_error", 503, "the agent is stopping", e);
    }
  }
}
