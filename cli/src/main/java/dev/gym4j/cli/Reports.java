package dev.gym4j.cli;

import java.io.PrintWriter;

import dev.gym4j.collect.CollectOptions;
import dev.gym4j.collect.RolloutCollector;
import tools.jackson.databind.JsonNode;

/** How collection results and metrics are shown on the terminal. */
final class Reports {
  private Reports() {}

  static void printSummary(PrintWriter out, RolloutCollector.Summary summary, CollectOptions options) {
    out.printf("%d rollouts: %d already done, %d succeeded, %d failed%s%n", summary.total(), summary.alreadyDone(),
        summary.succeeded(), summary.failed(), summary.givenUp() > 0 ? ", " + summary.givenUp() + " given up earlier" : "");
    out.println("rollouts: " + options.output());
    if (summary.failed() > 0 || summary.givenUp() > 0) {
      out.println("failures: " + options.failures());
    }
    out.println("metrics:  " + options.aggregateMetrics());
    printMetrics(out, summary.metrics(), false);
    out.flush();
  }

  /** Each agent's key metrics, or all its metrics. */
  static void printMetrics(PrintWriter out, JsonNode metrics, boolean all) {
    for (JsonNode agent : metrics) {
      String name = agent.path("agent_ref").path("name").asString("(no agent_ref)");
      out.println();
      out.println(name + ": " + agent.path("agent_metrics").path("num_rollouts").asInt() + " rollouts, "
          + agent.path("agent_metrics").path("num_tasks").asInt() + " tasks");
      JsonNode shown = all ? agent.path("agent_metrics") : agent.path("key_metrics");
      for (var metric : shown.properties()) {
        if (metric.getValue().isNumber() && !metric.getKey().startsWith("num_")) {
          out.printf("  %-28s %.4f%n", metric.getKey(), metric.getValue().asDouble());
        }
      }
    }
  }
}
