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
    if (options.aggregate()) {
      out.println("metrics:  " + options.aggregateMetrics());
      printMetrics(out, summary.metrics(), false);
    } else {
      out.println("metrics:  not computed (--disable-aggregation); `gym4j metrics` over every shard gives them");
    }
    printMissing(out, summary, options);
    out.flush();
  }

  /** Rollouts of the input that are not in the output: how many, and why, by failure class. */
  static void printMissing(PrintWriter out, RolloutCollector.Summary summary, CollectOptions options) {
    if (summary.missing() == 0) {
      return;
    }
    out.println();
    out.printf("%d of %d rollouts are missing from %s:%n", summary.missing(), summary.total(), options.output());
    summary.missingByClass().forEach((failureClass, missing) -> out.printf("  %d %s, e.g. %s%n", missing.count(),
        failureClass, missing.example()));
    out.println("Details per attempt: " + options.failures() + ". Run the same command with --resume to try them again.");
  }

  /** The GRPO view of a rollouts file: how many task groups carry a learning signal. */
  static void printGroups(PrintWriter out, JsonNode report) {
    out.printf("%d task groups, %d with zero reward variance (%.1f %%): GRPO learns nothing from those%n",
        report.get("num_groups").asInt(), report.get("num_zero_variance_groups").asInt(),
        100 * report.get("zero_variance_share").asDouble());
    out.println("  task   rollouts  mean      std       zero-var");
    for (JsonNode group : report.get("groups")) {
      out.printf("  %-6s %-9d %-9.4f %-9.4f %s%n", group.path("_ng_task_index").asString("-"),
          group.get("num_rollouts").asInt(), group.get("mean_reward").asDouble(), group.get("std_reward").asDouble(),
          group.get("zero_variance").asBoolean() ? "yes" : "");
    }
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
