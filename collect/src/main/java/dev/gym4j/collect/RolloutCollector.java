package dev.gym4j.collect;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.ConfigException;
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
 *   <li>Rows naming an agent the deployment does not run are refused before anything runs.
 *   <li>A success (a verify response with a reward) is appended to the output as it finishes.
 *   <li>A failure (timeout, upstream error, verify error) is appended to {@code <output>_failures.jsonl} with
 *       its class and message, never to the output, and is tried again up to {@code maxAttempts} times, after
 *       a jittered, growing wait, while the retry deadline allows.
 *   <li>An agent or head server that cannot be reached uses no attempt: the rollout waits for it (jittered
 *       backoff) up to {@code outageWait}, so a restart of the servers costs time, not rollouts.
 *   <li>The expanded rows are first written to {@code <output>_materialized_inputs.jsonl}; with
 *       {@code resume}, the (task, rollout) pairs already in the output are skipped and earlier failures are
 *       run again (unless {@code retryFailed} is off), so a run killed at any moment loses only the rollouts
 *       that were in flight.
 * </ul>
 */
public final class RolloutCollector {
  /** Marks a failure not worth trying again (set by an agent or environment). */
  public static final String FAILURE_TERMINAL = "_ng_failure_terminal";
  static final String UNREACHABLE = "agent_unreachable";

  /** The rollouts of one failure class that are not in the output, with one example message. */
  public record Missing(int count, String example) {}

  /**
   * What a collection did. {@code missing} counts the rollouts of the input that are not in the output after
   * this run, whatever the reason; {@code missingByClass} says why, by failure class.
   */
  public record Summary(int total, int alreadyDone, int succeeded, int failed, int givenUp, ArrayNode metrics,
      int missing, Map<String, Missing> missingByClass) {}

  private final CollectOptions options;
  private final ServerClient client;
  private final PrintStream log;
  private final boolean terminal;
  /** When the current outage was first seen (nanoTime), or 0 when the servers answer. */
  private final AtomicLong outageSince = new AtomicLong();

  public RolloutCollector(CollectOptions options, ServerClient client, PrintStream log, boolean terminal) {
    this.options = options;
    this.client = client;
    this.log = log;
    this.terminal = terminal;
  }

  /**
   * Runs the collection; refuses at once, with a {@link ConfigException} naming the output, when another collector
   * (of any process) is writing the same output ({@link OutputLock}).
   */
  public Summary collect() {
    try (OutputLock lock = OutputLock.acquire(options.output())) {
      return collectLocked();
    }
  }

  private Summary collectLocked() {
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
      boolean exhausted = !options.retryFailed() && attempts.getOrDefault(key, 0) >= options.maxAttempts();
      if (terminalKeys.contains(key) || exhausted) {
        givenUpBefore++;
        continue;
      }
      pending.add(rollout);
    }
    refuseUnknownAgents(pending);
    int alreadyDone = (int) rollouts.stream().filter(r -> done.contains(TaskRows.key(r))).count();
    log.printf("%d rollouts: %d already done, %d given up after earlier failures, %d to run%n", rollouts.size(),
        alreadyDone, givenUpBefore, pending.size());

    Progress progress = new Progress(pending.size(), log, terminal, client.settings().requestTimeout());
    int[] outcome = new int[2];
    try (JsonlFile.Appender output = new JsonlFile.Appender(options.output());
        JsonlFile.Appender failures = new JsonlFile.Appender(options.failures());
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
      Semaphore slots = new Semaphore(options.parallel());
      for (ObjectNode rollout : pending) {
        slots.acquireUninterruptibly();
        progress.inFlight.incrementAndGet();
        int prior = attempts.getOrDefault(TaskRows.key(rollout), 0);
        workers.submit(() -> {
          long running = progress.begin();
          try {
            boolean succeeded = runWithRetries(rollout, prior, output, failures);
            synchronized (outcome) {
              outcome[succeeded ? 0 : 1]++;
            }
            (succeeded ? progress.done : progress.failed).incrementAndGet();
          } finally {
            progress.end(running);
            progress.inFlight.decrementAndGet();
            slots.release();
            progress.tick();
          }
        });
      }
    }
    progress.finish();
    List<JsonNode> results = JsonlFile.readComplete(options.output());
    ArrayNode metrics = options.aggregate() ? AggregateMetrics.compute(results) : Json.array();
    if (options.aggregate()) {
      writeMetrics(metrics);
    } else {
      log.println("aggregate metrics not computed (disable_aggregation): compute them over all shards with "
          + "`gym4j metrics FILE...` (NeMo Gym's `gym eval aggregate`)");
    }
    Map<String, Missing> missing = missing(rollouts, results);
    int missingCount = missing.values().stream().mapToInt(Missing::count).sum();
    return new Summary(rollouts.size(), alreadyDone, outcome[0], outcome[1], givenUpBefore, metrics, missingCount,
        missing);
  }

  private List<ObjectNode> rollouts() {
    if (options.resume() && Files.exists(options.materializedInputs())) {
      List<ObjectNode> rows = new ArrayList<>();
      JsonlFile.readComplete(options.materializedInputs()).forEach(row -> rows.add((ObjectNode) row));
      return rows;
    }
    // task indexes come from the whole input, so every shard numbers its tasks as an unsharded run would
    List<ObjectNode> rows = TaskRows.expand(options).stream()
        .filter(row -> options.shard().includes(row.path("_ng_task_index").asLong())).toList();
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

  /** A row naming an agent that is not running would fail every attempt: say so before anything runs. */
  private void refuseUnknownAgents(List<ObjectNode> pending) {
    Map<String, Integer> rowsByAgent = new LinkedHashMap<>();
    pending.forEach(row -> rowsByAgent.merge(row.path("agent_ref").path("name").asString(""), 1, Integer::sum));
    Set<String> unknown = new LinkedHashSet<>();
    for (String agent : rowsByAgent.keySet()) {
      if (agent.isEmpty() || client.directory().find(agent).isEmpty()) {
        unknown.add(agent);
      }
    }
    if (!unknown.isEmpty()) {
      List<String> named = unknown.stream().map(a -> (a.isEmpty() ? "(no agent_ref.name)" : a) + " ("
          + rowsByAgent.get(a) + " rollouts)").toList();
      throw new ConfigException("agent_ref names " + (unknown.size() == 1 ? "an agent" : "agents")
          + " the deployment does not run: " + String.join(", ", named) + "; fix agent_ref.name in "
          + options.input() + " or start that agent; nothing was run");
    }
  }

  /** Runs one rollout until it succeeds or its attempts or deadline run out; true on success. */
  private boolean runWithRetries(ObjectNode rollout, int prior, JsonlFile.Appender output,
      JsonlFile.Appender failures) {
    CollectOptions.Retries retries = options.retries();
    long started = System.nanoTime();
    long outageStarted = 0;
    int waits = 0;
    for (int attempt = 0; attempt < options.maxAttempts(); ) {
      ObjectNode request = rollout.deepCopy();
      if (prior + attempt > 0) {
        request.put("_ng_attempt_index", prior + attempt);
      }
      ObjectNode failure = attempt(request, output);
      if (failure == null) {
        serversAnswered();
        return true;
      }
      boolean unreachable = UNREACHABLE.equals(failure.path(AgentServer.FAILURE_CLASS).asString(""));
      if (unreachable) {
        long now = System.nanoTime();
        outageStarted = outageStarted == 0 ? now : outageStarted;
        if (now - outageStarted < retries.outageWait().toNanos()) {
          serversUnreachable(failure.path("_ng_failure_message").asString(""));
          sleep(retries.backoff(++waits));
          continue;
        }
        failure.put("_ng_failure_message", failure.path("_ng_failure_message").asString("") + " (still unreachable after "
            + retries.outageWait().toSeconds() + " s of waiting)");
      } else {
        serversAnswered();
      }
      outageStarted = 0;
      failures.append(failure);
      attempt++;
      if (failure.path(FAILURE_TERMINAL).asBoolean(false) || attempt >= options.maxAttempts()) {
        return false;
      }
      Duration wait = retries.backoff(attempt);
      if (System.nanoTime() + wait.toNanos() - started > retries.deadline().toNanos()) {
        return false;
      }
      sleep(wait);
    }
    return false;
  }

  private void serversUnreachable(String message) {
    if (outageSince.compareAndSet(0, System.nanoTime())) {
      log.println("cannot reach the servers (" + message + "); waiting up to " + options.retries().outageWait()
          .toSeconds() + " s for them to come back, without using attempts");
    }
  }

  private void serversAnswered() {
    long since = outageSince.getAndSet(0);
    if (since != 0) {
      log.printf("the servers answer again after %.1f s%n", (System.nanoTime() - since) / 1e9);
    }
  }

  private static void sleep(Duration wait) {
    try {
      Thread.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("interrupted while waiting to retry a rollout");
    }
  }

  /** One try: null when the rollout landed in the output, else the failure row to record. */
  private ObjectNode attempt(ObjectNode request, JsonlFile.Appender output) {
    String agent = request.path("agent_ref").path("name").asString("");
    HttpReply reply;
    try {
      reply = client.post(agent, "/run", request, Map.of());
    } catch (UpstreamException e) {
      String failureClass = e.kind() == UpstreamException.Kind.TIMEOUT ? "timeout" : UNREACHABLE;
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
    // the message may quote an upstream's answer: the failures file is text leaving the process too
    row.put("_ng_failure_message", dev.gym4j.config.Secrets.redact(message == null || message.isBlank() ? failureClass : message));
    if (body != null && body.path(FAILURE_TERMINAL).asBoolean(false)) {
      row.put(FAILURE_TERMINAL, true);
    }
    // a rollout that failed in verify (a judge_error, say) keeps the model's response, for reverify
    if (body != null && body.path("response").isObject() && !row.has("response")) {
      row.set("response", body.get("response"));
    }
    return row;
  }

  /** The rollouts not in the output, by the class of their last recorded failure. */
  private Map<String, Missing> missing(List<ObjectNode> rollouts, List<JsonNode> results) {
    Set<String> landed = new HashSet<>();
    results.forEach(row -> landed.add(TaskRows.key(row)));
    Map<String, JsonNode> lastFailure = new HashMap<>();
    JsonlFile.readComplete(options.failures()).forEach(row -> lastFailure.put(TaskRows.key(row), row));
    Map<String, Missing> missing = new LinkedHashMap<>();
    for (ObjectNode rollout : rollouts) {
      String key = TaskRows.key(rollout);
      if (landed.contains(key)) {
        continue;
      }
      JsonNode failure = lastFailure.get(key);
      String failureClass = failure == null ? "not_run" : failure.path(AgentServer.FAILURE_CLASS).asString("unknown");
      String example = failure == null ? "no attempt was recorded" : failure.path("_ng_failure_message").asString("");
      missing.merge(failureClass, new Missing(1, example), (a, b) -> new Missing(a.count() + 1, a.example()));
    }
    return missing;
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
