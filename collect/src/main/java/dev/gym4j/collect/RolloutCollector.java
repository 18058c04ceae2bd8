package dev.gym4j.collect;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.Json;
import dev.gym4j.metrics.AggregateMetrics;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rollout collection (NeMo Gym's {@code ng_collect_rollouts}): every (task, rollout) of the expanded input
 * is sent to its agent's {@code /run}, at most {@code parallel} at a time, and lands exactly once.
 *
 * <ul>
 *   <li>A success (a verify response with a reward) is appended to the output as it finishes.
 *   <li>A failure (timeout, upstream error, verify error, unreachable agent) is appended to
 *       {@code <output>_failures.jsonl} with its class and message, never to the output, and is tried again
 *       up to {@code maxAttempts} times counting earlier runs' attempts.
 *   <li>The expanded rows are first written to {@code <output>_materialized_inputs.jsonl}; with
 *       {@code resume}, the (task, rollout) pairs already in the output are skipped, so a run killed at any
 *       moment loses only the rollouts that were in flight.
 * </ul>
 */
public final class RolloutCollector {
  /** Marks a failure not worth trying again (set by an agent or environment). */
  public static final String FAILURE_TERMINAL = "_ng_failure_terminal";

  /** What a collection did. */
  public record Summary(int total, int alreadyDone, int succeeded, int failed, int givenUp, ArrayNode metrics) {}

  private final CollectOptions options;
  private final ServerClient client;
  private final PrintStream log;
  private final boolean terminal;

  public RolloutCollector(CollectOptions options, ServerClient client, PrintStream log, boolean terminal) {
    this.options = options;
    this.client = client;
    this.log = log;
    this.terminal = terminal;
  }

  public Summary collect() {
    List<ObjectNode> rollouts = rollouts();
    Set<String> done = new HashSet<>();
    JsonlFile.dropTornTail(options.output());
    JsonlFile.readComplete(options.output()).forEach(row -> done.add(TaskRows.key(row)));
    Map<String, Integer> attempts = new HashMap<>();
    Set<String> terminalKeys = new HashSet<>();
    JsonlFile.dropTornTail(options.failures());
    for (JsonNode failure : JsonlFile.readComplete(options.failures())) {
      String key = TaskRows.key(failure);
      attempts.merge(key, 1, Integer::sum);
      if (failure.path(FAILURE_TERMINAL).asBoolean(false)) {
        terminalKeys.add(key);
      }
    }
    List<ObjectNode> pending = new ArrayList<>();
    int givenUpBefore = 0;
    for (ObjectNode rollout : rollouts) {
      String key = TaskRows.key(rollout);
      if (done.contains(key)) {
        continue;
      }
      if (terminalKeys.contains(key) || attempts.getOrDefault(key, 0) >= options.maxAttempts()) {
        givenUpBefore++;
        continue;
      }
      pending.add(rollout);
    }
    int alreadyDone = (int) rollouts.stream().filter(r -> done.contains(TaskRows.key(r))).count();
    log.printf("%d rollouts: %d already done, %d given up after earlier failures, %d to run%n", rollouts.size(),
        alreadyDone, givenUpBefore, pending.size());

    Progress progress = new Progress(pending.size(), log, terminal);
    int[] outcome = new int[3];
    try (JsonlFile.Appender output = new JsonlFile.Appender(options.output());
        JsonlFile.Appender failures = new JsonlFile.Appender(options.failures());
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
      Semaphore slots = new Semaphore(options.parallel());
      for (ObjectNode rollout : pending) {
        slots.acquireUninterruptibly();
        progress.inFlight.incrementAndGet();
        int prior = attempts.getOrDefault(TaskRows.key(rollout), 0);
        workers.submit(() -> {
          try {
            boolean succeeded = runWithRetries(rollout, prior, output, failures);
            synchronized (outcome) {
              outcome[succeeded ? 0 : 1]++;
            }
            (succeeded ? progress.done : progress.failed).incrementAndGet();
          } finally {
            progress.inFlight.decrementAndGet();
            slots.release();
            progress.tick();
          }
        });
      }
    }
    progress.finish();
    List<JsonNode> results = JsonlFile.readComplete(options.output());
    ArrayNode metrics = AggregateMetrics.compute(results);
    writeMetrics(metrics);
    return new Summary(rollouts.size(), alreadyDone, outcome[0], outcome[1], givenUpBefore, metrics);
  }

  private List<ObjectNode> rollouts() {
    if (options.resume() && Files.exists(options.materializedInputs())) {
      List<ObjectNode> rows = new ArrayList<>();
      JsonlFile.readComplete(options.materializedInputs()).forEach(row -> rows.add((ObjectNode) row));
      return rows;
    }
    List<ObjectNode> rows = TaskRows.expand(options);
    if (!options.resume()) {
      try {
        Files.deleteIfExists(options.output());
        Files.deleteIfExists(options.failures());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    JsonlFile.writeAtomically(options.materializedInputs(), rows);
    return rows;
  }

  /** Runs one rollout until it succeeds or its attempts run out; true on success. */
  private boolean runWithRetries(ObjectNode rollout, int prior, JsonlFile.Appender output,
      JsonlFile.Appender failures) {
    for (int attempt = prior; attempt < options.maxAttempts(); attempt++) {
      ObjectNode request = rollout.deepCopy();
      if (attempt > 0) {
        request.put("_ng_attempt_index", attempt);
      }
      ObjectNode failure = attempt(request, output);
      if (failure == null) {
        return true;
      }
      failures.append(failure);
      if (failure.path(FAILURE_TERMINAL).asBoolean(false)) {
        return false;
      }
    }
    return false;
  }

  /** One try: null when the rollout landed in the output, else the failure row to record. */
  private ObjectNode attempt(ObjectNode request, JsonlFile.Appender output) {
    String agent = request.path("agent_ref").path("name").asString("");
    HttpReply reply;
    try {
      reply = client.post(agent, "/run", request, Map.of());
    } catch (UpstreamException e) {
      String failureClass = e.kind() == UpstreamException.Kind.TIMEOUT ? "timeout" : "agent_unreachable";
      return failure(request, failureClass, e.getMessage(), null);
    }
    JsonNode body;
    try {
      body = reply.json();
    } catch (JacksonException e) {
      return failure(request, "agent_error", "agent " + agent + " answered " + reply.status()
          + " with a body that is not JSON", null);
    }
    if (!reply.ok() || !(body instanceof ObjectNode result)) {
      String failureClass = body.path(AgentServer.FAILURE_CLASS).asString("http_" + reply.status());
      return failure(request, failureClass, body.path("detail").asString(reply.text()), body);
    }
    if (result.has(AgentServer.FAILURE_CLASS)) {
      return failure(request, result.get(AgentServer.FAILURE_CLASS).asString(),
          result.path("_ng_failure_message").asString("the verifier reported a failure"), result);
    }
    if (!result.path("reward").isNumber()) {
      return failure(request, "verify_error", "the result has no numeric reward", result);
    }
    for (String stamp : List.of("_ng_task_index", "_ng_rollout_index", "_ng_attempt_index", "agent_ref")) {
      if (request.has(stamp)) {
        result.set(stamp, request.get(stamp));
      }
    }
    output.append(result);
    return null;
  }

  private static ObjectNode failure(ObjectNode request, String failureClass, String message, JsonNode body) {
    ObjectNode row = request.deepCopy();
    row.put("_ng_attempt_index", request.path("_ng_attempt_index").asInt(0));
    row.put(AgentServer.FAILURE_CLASS, failureClass);
    row.put("_ng_failure_message", message);
    if (body != null && body.path(FAILURE_TERMINAL).asBoolean(false)) {
      row.put(FAILURE_TERMINAL, true);
    }
    // a rollout that failed in verify (a judge_error, say) keeps the model's response, for reverify
    if (body != null && body.path("response").isObject() && !row.has("response")) {
      row.set("response", body.get("response"));
    }
    return row;
  }

  private void writeMetrics(ArrayNode metrics) {
    try {
      Files.createDirectories(options.aggregateMetrics().toAbsolutePath().getParent());
      Files.writeString(options.aggregateMetrics(), Json.MAPPER.writerWithDefaultPrettyPrinter()
          .writeValueAsString(metrics));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
