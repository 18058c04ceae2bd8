package dev.gym4j.judge;

import java.time.Duration;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ServerKind;
import dev.gym4j.config.ServerRef;
import dev.gym4j.json.Json;
import dev.gym4j.server.ServerContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How an environment reaches its judge, from its config block. NeMo Gym's keys: {@code judge_model_server}
 * ({@code {type: responses_api_models, name: …}}, required), {@code judge_responses_create_params} (the
 * request every judge call starts from; {@code input} is replaced), {@code judge_endpoint_max_concurrency}
 * (calls in flight at once, default 64, null for no bound), {@code check_twice_swap} and
 * {@code use_chat_completions_for_judge} (ask on {@code /v1/chat/completions}). gym4j's own:
 * {@code judge_timeout_seconds} (one call, retries included; default 300), {@code judge_max_attempts}
 * (default 3), {@code judge_initial_backoff_seconds} / {@code judge_max_backoff_seconds} (1 and 20) and
 * {@code judge_unparseable}: {@code fail} (default: an answer without a verdict fails the rollout as
 * {@code judge_unparseable}) or {@code zero} (it scores 0, as NeMo Gym scores it).
 *
 * @param maxConcurrency 0 for no bound
 */
public record JudgeSettings(String server, ObjectNode createParams, int maxConcurrency, Duration timeout,
    int maxAttempts, Duration initialBackoff, Duration maxBackoff, boolean checkTwiceSwap, boolean chatCompletions,
    boolean unparseableScoresZero) {

  public JudgeSettings {
    if (maxConcurrency < 0 || maxAttempts < 1 || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("judge settings out of range: concurrency " + maxConcurrency
          + ", attempts " + maxAttempts + ", timeout " + timeout);
    }
    createParams = createParams.deepCopy();
  }

  /** Defaults for a judge behind the named model server. */
  public static JudgeSettings of(String server) {
    return new JudgeSettings(server, Json.object(), 64, Duration.ofSeconds(300), 3, Duration.ofSeconds(1),
        Duration.ofSeconds(20), false, false, false);
  }

  /** The settings in a server's config block; a bad value is a config error naming its key. */
  public static JudgeSettings from(ServerContext context) {
    ObjectNode config = context.config();
    JsonNode ref = context.required("judge_model_server");
    ServerRef server = ServerRef.from(ref).filter(r -> r.type() == ServerKind.MODEL).orElseThrow(() ->
        new ConfigException(context.path("judge_model_server")
            + " must be {type: responses_api_models, name: <model server instance>}"));
    JsonNode params = config.path("judge_responses_create_params");
    if (!params.isMissingNode() && !params.isNull() && !params.isObject()) {
      throw new ConfigException(context.path("judge_responses_create_params") + " must be a mapping");
    }
    JudgeSettings d = of(server.name());
    JsonNode concurrency = config.get("judge_endpoint_max_concurrency");
    return new JudgeSettings(server.name(), params.isObject() ? (ObjectNode) params : Json.object(),
        concurrency != null && concurrency.isNull() ? 0 : positive(context, "judge_endpoint_max_concurrency",
            d.maxConcurrency),
        seconds(context, "judge_timeout_seconds", d.timeout),
        positive(context, "judge_max_attempts", d.maxAttempts),
        seconds(context, "judge_initial_backoff_seconds", d.initialBackoff),
        seconds(context, "judge_max_backoff_seconds", d.maxBackoff),
        config.path("check_twice_swap").asBoolean(false),
        config.path("use_chat_completions_for_judge").asBoolean(false),
        unparseableScoresZero(context));
  }

  /** {@code judge_unparseable}: {@code fail} (the default) or {@code zero}. */
  private static boolean unparseableScoresZero(ServerContext context) {
    JsonNode value = context.config().get("judge_unparseable");
    if (value == null || value.isNull() || value.isString() && value.stringValue().equals("fail")) {
      return false;
    }
    if (value.isString() && value.stringValue().equals("zero")) {
      return true;
    }
    throw new ConfigException(context.path("judge_unparseable") + " must be fail or zero, got " + value);
  }

  /** The same settings with another base request (e.g. NeMo Gym aalcr's judge_responses_create_params_overrides). */
  public JudgeSettings withCreateParams(ObjectNode value) {
    return new JudgeSettings(server, value, maxConcurrency, timeout, maxAttempts, initialBackoff, maxBackoff,
        checkTwiceSwap, chatCompletions, unparseableScoresZero);
  }

  public JudgeSettings withTimeout(Duration value) {
    return new JudgeSettings(server, createParams, maxConcurrency, value, maxAttempts, initialBackoff, maxBackoff,
        checkTwiceSwap, chatCompletions, unparseableScoresZero);
  }

  public JudgeSettings withRetries(int attempts, Duration initial, Duration max) {
    return new JudgeSettings(server, createParams, maxConcurrency, timeout, attempts, initial, max, checkTwiceSwap,
        chatCompletions, unparseableScoresZero);
  }

  public JudgeSettings withMaxConcurrency(int value) {
    return new JudgeSettings(server, createParams, value, timeout, maxAttempts, initialBackoff, maxBackoff,
        checkTwiceSwap, chatCompletions, unparseableScoresZero);
  }

  public JudgeSettings withCheckTwiceSwap(boolean value) {
    return new JudgeSettings(server, createParams, maxConcurrency, timeout, maxAttempts, initialBackoff, maxBackoff,
        value, chatCompletions, unparseableScoresZero);
  }

  /** The same settings scoring an answer without a verdict 0 ({@code judge_unparseable: zero}) or not. */
  public JudgeSettings withUnparseableScoresZero(boolean value) {
    return new JudgeSettings(server, createParams, maxConcurrency, timeout, maxAttempts, initialBackoff, maxBackoff,
        checkTwiceSwap, chatCompletions, value);
  }

  public JudgeSettings withChatCompletions(boolean value) {
    return new JudgeSettings(server, createParams, maxConcurrency, timeout, maxAttempts, initialBackoff, maxBackoff,
        checkTwiceSwap, value, unparseableScoresZero);
  }

  private static int positive(ServerContext context, String key, int fallback) {
    JsonNode value = context.config().get(key);
    if (value == null) {
      return fallback;
    }
    if (!value.isIntegralNumber() || value.asInt() < 1) {
      throw new ConfigException(context.path(key) + " must be a whole number of at least 1, got " + value);
    }
    return value.asInt();
  }

  private static Duration seconds(ServerContext context, String key, Duration fallback) {
    JsonNode value = context.config().get(key);
    if (value == null) {
      return fallback;
    }
    if (!value.isNumber() || value.asDouble() <= 0) {
      throw new ConfigException(context.path(key) + " must be a number of seconds above 0, got " + value);
    }
    return Duration.ofMillis(Math.max(1, (long) (value.asDouble() * 1000)));
  }
}
