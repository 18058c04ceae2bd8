package dev.gym4j.judge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.Json;
import dev.gym4j.server.Metrics;
import dev.gym4j.server.ServerContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An LLM judge behind one of our model servers ({@code POST <judge_model_server>/v1/responses}), for
 * environments that score with one. {@link #ask} sends a prompt, reads the verdict with a
 * {@link VerdictParser} and returns a typed {@link JudgeOutcome}: never a reward of 0 for a judge that failed.
 *
 * <p>A call tries up to {@code maxAttempts} times on transient failures (no connection, 429, 5xx), with
 * jittered exponential backoff, all within one deadline ({@code judge_timeout_seconds}); it waits for one of
 * the judge's {@code judge_endpoint_max_concurrency} slots within the same deadline. A 4xx other than 429
 * is not retried. Thread-safe; one instance per environment instance.
 */
public final class Judge {
  private static final Set<Integer> TRANSIENT = Set.of(429, 500, 502, 503, 504);

  /** Which text of a Responses answer the verdict is read from. */
  public enum Reading {
    /** The last content part of the last output item, which must be a message (NeMo Gym's judges, mostly). */
    LAST_PART,
    /** Every {@code output_text} of every message, joined, stripped: the Responses API's {@code output_text}. */
    OUTPUT_TEXT
  }

  private final ServerClient client;
  private final JudgeSettings settings;
  private final Semaphore slots;
  private final Reading reading;

  public Judge(ServerClient client, JudgeSettings settings) {
    this(client, settings, settings.maxConcurrency() == 0 ? null : new Semaphore(settings.maxConcurrency(), true),
        Reading.LAST_PART);
  }

  private Judge(ServerClient client, JudgeSettings settings, Semaphore slots, Reading reading) {
    this.client = client;
    this.settings = settings;
    this.slots = slots;
    this.reading = reading;
  }

  /** The same judge, sharing its slots, with another deadline per call (for a task that needs longer). */
  public Judge withTimeout(Duration timeout) {
    return new Judge(client, settings.withTimeout(timeout), slots, reading);
  }

  /** The same judge, sharing its slots, reading its verdicts from another part of its answers. */
  public Judge reading(Reading value) {
    return new Judge(client, settings, slots, value);
  }

  /** The judge an environment's config names (see {@link JudgeSettings#from}). */
  public static Judge from(ServerContext context) {
    return new Judge(context.client(), JudgeSettings.from(context));
  }

  public JudgeSettings settings() {
    return settings;
  }

  /** Asks with a user prompt only. */
  public <T> JudgeOutcome<T> ask(String prompt, VerdictParser<T> parser) {
    return ask("", prompt, parser);
  }

  /**
   * Asks the judge once: a system message (left out when blank, as NeMo Gym does) and the user prompt on top
   * of {@code judge_responses_create_params}. The verdict is read from the text of the last content part of
   * the judge's last output item, which must be a message (NeMo Gym's rule). With
   * {@code use_chat_completions_for_judge} the call is {@code /v1/chat/completions} instead, with NeMo Gym's
   * {@code max_tokens}, {@code temperature} and {@code top_p} taken from the create params (or 64, 0 and 1),
   * and the verdict is read from the first choice's message, stripped.
   */
  public <T> JudgeOutcome<T> ask(String systemMessage, String prompt, VerdictParser<T> parser) {
    ObjectNode params = settings.chatCompletions() ? Json.object() : settings.createParams().deepCopy();
    ArrayNode messages = params.putArray(settings.chatCompletions() ? "messages" : "input");
    if (!systemMessage.isBlank()) {
      messages.addObject().put("role", "system").put("content", systemMessage);
    }
    messages.addObject().put("role", "user").put("content", prompt);
    if (settings.chatCompletions()) {
      ObjectNode base = settings.createParams();
      params.set("max_tokens", orDefault(base.get("max_output_tokens"), Json.toTree(64)));
      params.set("temperature", orDefault(base.get("temperature"), Json.toTree(0.0)));
      params.set("top_p", orDefault(base.get("top_p"), Json.toTree(1.0)));
    } else {
      messages.forEach(message -> ((ObjectNode) message).put("type", "message"));
    }
    JudgeOutcome<T> outcome = call(params, parser, dev.gym4j.model.JudgedRollout.nextCall());
    io.micrometer.core.instrument.Counter.builder("gym4j.judge.calls").tag("judge", settings.server())
        .tag("outcome", outcome instanceof JudgeOutcome.Failed<T> f ? f.failureClass() : "verdict")
        .register(Metrics.REGISTRY).increment();
    return outcome;
  }

  /** Python's {@code x or default}: null, 0, false and "" fall back. */
  private static JsonNode orDefault(JsonNode value, JsonNode fallback) {
    boolean falsy = value == null || value.isNull() || (value.isNumber() && value.asDouble() == 0)
        || (value.isBoolean() && !value.asBoolean()) || (value.isString() && value.stringValue().isEmpty());
    return falsy ? fallback : value;
  }

  /**
   * Swap-order double judging, as NeMo Gym's equivalence judge does it: asks with the answers in the given
   * order ({@code prompt.apply(false)}), then, when {@code check_twice_swap} is set and the first verdict
   * {@code passes}, with them swapped ({@code prompt.apply(true)}). Returns one or two outcomes; a failed
   * first call is not followed by a second.
   */
  public <T> List<JudgeOutcome<T>> askSwapped(String systemMessage, Function<Boolean, String> prompt,
      VerdictParser<T> parser, Predicate<T> passes) {
    List<JudgeOutcome<T>> outcomes = new ArrayList<>();
    JudgeOutcome<T> first = ask(systemMessage, prompt.apply(false), parser);
    outcomes.add(first);
    if (settings.checkTwiceSwap() && first instanceof JudgeOutcome.Verdict<T> v && passes.test(v.value())) {
      outcomes.add(ask(systemMessage, prompt.apply(true), parser));
    }
    return outcomes;
  }

  /** @param cookies the marker of the rollout being judged (see JudgedRollout), the same on every attempt */
  private <T> JudgeOutcome<T> call(ObjectNode params, VerdictParser<T> parser, Map<String, String> cookies) {
    long deadline = System.nanoTime() + settings.timeout().toNanos();
    String last = "no attempt was made";
    int attempt = 1;
    for (; attempt <= settings.maxAttempts(); attempt++) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return timedOut(last);
      }
      HttpReply reply;
      try {
        reply = within(params, remaining, cookies);
      } catch (TimeoutException e) {
        return timedOut(e.getMessage() != null ? e.getMessage() : last);
      } catch (UpstreamException e) {
        last = describe(e);
        if (e.kind() != UpstreamException.Kind.CONNECTION) {
          return failed(JudgeOutcome.JUDGE_ERROR, last, e.kind() == UpstreamException.Kind.TIMEOUT, null);
        }
        if (!pause(attempt, deadline)) {
          break;
        }
        continue;
      }
      if (reply.ok()) {
        return read(params, reply, parser);
      }
      last = "the judge answered " + reply.status() + ": " + abbreviate(reply.text());
      // a model server's failure of its own upstream comes after that server's retries: not retried again
      if (!TRANSIENT.contains(reply.status()) || reply.upstreamFailure() || !pause(attempt, deadline)) {
        break;
      }
    }
    return failed(JudgeOutcome.JUDGE_ERROR, last + " (attempt " + Math.min(attempt, settings.maxAttempts())
        + " of at most " + settings.maxAttempts() + ")", false, null);
  }

  /** One POST, given up at the deadline; the slot is held until the call really ends. */
  private HttpReply within(ObjectNode params, long remainingNanos, Map<String, String> cookies)
      throws TimeoutException {
    long start = System.nanoTime();
    try {
      if (slots != null && !slots.tryAcquire(remainingNanos, TimeUnit.NANOSECONDS)) {
        throw new TimeoutException("no free judge slot (judge_endpoint_max_concurrency "
            + settings.maxConcurrency() + ")");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("interrupted while waiting for the judge");
    }
    FutureTask<HttpReply> task = new FutureTask<>(() -> {
      try {
        return client.post(settings.server(), settings.chatCompletions() ? "/v1/chat/completions" : "/v1/responses",
            params, cookies);
      } finally {
        if (slots != null) {
          slots.release();
        }
      }
    });
    Thread thread = Thread.ofVirtual().name("judge-" + settings.server()).start(task);
    try {
      return task.get(Math.max(1, remainingNanos - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      thread.interrupt();
      throw new TimeoutException("the call was still running");
    } catch (InterruptedException e) {
      thread.interrupt();
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("interrupted while waiting for the judge");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private <T> JudgeOutcome<T> read(ObjectNode params, HttpReply reply, VerdictParser<T> parser) {
    JsonNode response;
    try {
      response = reply.json();
    } catch (RuntimeException e) {
      return failed(JudgeOutcome.JUDGE_ERROR, "the judge answered 200 with a body that is not JSON", false, null);
    }
    ObjectNode exchange = Json.object();
    exchange.set(settings.chatCompletions() ? "chat_completion_create_params" : "responses_create_params", params);
    exchange.set("response", response);
    Optional<String> text = settings.chatCompletions() ? AnswerText.chat(response)
        : reading == Reading.LAST_PART ? AnswerText.lastMessageText(response)
        : Optional.of(dev.gym4j.text.PythonText.strip(AnswerText.outputText(response)));
    if (text.isEmpty()) {
      return failed(JudgeOutcome.JUDGE_UNPARSEABLE, "the judge's last output item is not a message with text",
          false, exchange);
    }
    Optional<T> verdict = parser.parse(text.get());
    if (verdict.isEmpty()) {
      return failed(JudgeOutcome.JUDGE_UNPARSEABLE, "the judge answered without a recognizable verdict: "
          + abbreviate(text.get()), false, exchange);
    }
    return new JudgeOutcome.Verdict<>(verdict.get(), text.get(), exchange);
  }

  /** Waits before the next attempt; false when there is none or the wait would pass the deadline. */
  private boolean pause(int attempt, long deadline) {
    if (attempt >= settings.maxAttempts()) {
      return false;
    }
    long cap = settings.maxBackoff().toMillis();
    long exponential = Math.min(cap, settings.initialBackoff().toMillis() << Math.min(attempt - 1, 20));
    long delay = exponential / 2 + ThreadLocalRandom.current().nextLong(exponential / 2 + 1);
    if (System.nanoTime() + Duration.ofMillis(delay).toNanos() >= deadline) {
      return false;
    }
    try {
      Thread.sleep(delay);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("interrupted during the judge's retry backoff");
    }
  }

  private <T> JudgeOutcome<T> timedOut(String last) {
    return failed(JudgeOutcome.JUDGE_ERROR, "no judge verdict within " + seconds(settings.timeout())
        + " s (judge_timeout_seconds); last: " + last, true, null);
  }

  private <T> JudgeOutcome<T> failed(String failureClass, String message, boolean timedOut, ObjectNode exchange) {
    return new JudgeOutcome.Failed<>(failureClass, "judge " + settings.server() + ": " + message, timedOut,
        Optional.ofNullable(exchange),
        settings.unparseableScoresZero() && failureClass.equals(JudgeOutcome.JUDGE_UNPARSEABLE));
  }

  private static String describe(UpstreamException e) {
    return e.getMessage() == null ? e.kind().name().toLowerCase(java.util.Locale.ROOT) : abbreviate(e.getMessage());
  }

  private static String seconds(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? String.valueOf(duration.toSeconds())
        : String.valueOf(duration.toMillis() / 1000.0);
  }

  static String abbreviate(String text) {
    String flat = text.strip();
    return flat.length() <= 200 ? flat : flat.substring(0, 200) + "…";
  }
}
