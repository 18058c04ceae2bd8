package dev.gym4j.environments.longmemeval;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.JudgeSettings;
import dev.gym4j.metrics.AggregateMetrics;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * LongMemEval (NeMo Gym's longmemeval): long-term-memory QA over a chat history rendered into the prompt. The
 * judge gets LongMemEval's rubric for the row's question type (the abstention rubric for an abstention row)
 * with the question, the gold answer and the model's answer, and the row scores 1 when its reply contains
 * "yes". An empty answer scores 0 without a judge; rows with unusable metadata or an unknown question type
 * score 0 with a {@code judge_error} marker.
 */
@Implementation("longmemeval")
public final class LongMemEval extends ResourcesServer {
  static final String BAD_METADATA = "bad_metadata";
  static final String UNKNOWN_QUESTION_TYPE = "unknown_question_type";
  /** Rows NeMo Gym leaves out of {@code accuracy} (its judge_call_failed rows are gym4j's judge_error failures). */
  private static final List<String> EXCLUDED = List.of("judge_call_failed", UNKNOWN_QUESTION_TYPE);
  private static final List<String> COUNTED = List.of("judge_call_failed", "empty_judge_output",
      UNKNOWN_QUESTION_TYPE, BAD_METADATA);
  private static final Pattern THINK = Pattern.compile("<think>.*?</think>", Pattern.DOTALL);
  /** LongMemEval's rubrics by question type (and "abstention"), NeMo Gym's text, with three {} slots each. */
  static final Map<String, String> RUBRICS = rubrics();

  private Judge judge;

  @Override
  protected void start() {
    JudgeSettings settings = JudgeSettings.from(context());
    JsonNode config = context().config();
    // NeMo Gym's judge_max_retries / judge_retry_base_delay, where the SDK's own keys are not given
    if (!config.has("judge_max_attempts") && config.path("judge_max_retries").isIntegralNumber()) {
      Duration base = config.has("judge_initial_backoff_seconds") ? settings.initialBackoff()
          : Duration.ofMillis((long) (config.path("judge_retry_base_delay").asDouble(1.0) * 1000));
      settings = settings.withRetries(Math.max(0, config.get("judge_max_retries").asInt()) + 1, base,
          config.has("judge_max_backoff_seconds") ? settings.maxBackoff() : Duration.ofSeconds(30));
    }
    judge = new Judge(context().client(), settings).reading(Judge.Reading.OUTPUT_TEXT);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode raw = request.field("verifier_metadata");
    JsonNode meta = raw.isObject() ? raw : Json.object();
    String questionId = text(meta, "question_id");
    String questionType = text(meta, "question_type");
    boolean abstention = truthy(meta.path("abstention")) || questionId.contains("_abs");
    String answer = PythonText.strip(stripThink(responseText(request.json().path("response"))));
    boolean badMetadata = !raw.isObject() || raw.isEmpty() || questionType.isEmpty() || text(meta, "question").isEmpty();
    String rubric = abstention ? RUBRICS.get("abstention") : RUBRICS.get(questionType);
    String error = badMetadata ? BAD_METADATA : rubric == null ? UNKNOWN_QUESTION_TYPE : null;
    boolean label = false;
    String judgeRaw = "";
    Verification result = Verification.of(0.0);
    if (error == null && !answer.isEmpty()) {
      String prompt = fill(rubric, text(meta, "question"), text(meta, "answer"), answer);
      JudgeOutcome<String> outcome = judge.ask(prompt, LongMemEval::verdict);
      judgeRaw = outcome.orThrow();
      label = judgeRaw.toLowerCase(Locale.ROOT).contains("yes");
      result = result.with("judge_evaluations", Json.array().add(outcome.evaluation().orElseThrow()));
    }
    return new Verification(label ? 1.0 : 0.0, result.extra()).with("question_id", questionId)
        .with("question_type", questionType).with("abstention", abstention).with("judge_label", label)
        .with("judge_raw", judgeRaw).with("judge_error", error).with("judge_error_detail", "")
        .with("empty_response", answer.isEmpty()).with("generation", firstCodePoints(answer, 500));
  }

  /** The judge's reply, reasoning removed and stripped; an empty one is no verdict. */
  static Optional<String> verdict(String text) {
    String reply = PythonText.strip(stripThink(text));
    return reply.isEmpty() ? Optional.empty() : Optional.of(reply);
  }

  /** The rubric with its three {} slots filled in order; the values are never read as template. */
  static String fill(String rubric, String question, String gold, String answer) {
    String[] parts = rubric.split("\\{\\}", -1);
    if (parts.length != 4) {
      throw new IllegalStateException("a LongMemEval rubric has three {} slots");
    }
    return parts[0] + question + parts[1] + gold + parts[2] + answer + parts[3];
  }

  /** NeMo Gym's _strip_think: an unclosed think keeps what precedes it; else blocks (or all up to </think>) go. */
  static String stripThink(String text) {
    if (text.isEmpty()) {
      return text;
    }
    if (text.contains("<think>") && !text.contains("</think>")) {
      return PythonText.strip(text.substring(0, text.indexOf("<think>")));
    }
    if (!text.contains("</think>")) {
      return text;
    }
    String cleaned = THINK.matcher(text).replaceAll("");
    if (cleaned.equals(text)) {
      cleaned = text.substring(text.indexOf("</think>") + "</think>".length());
    }
    return PythonText.strip(cleaned);
  }

  /** The response's output_text (every output_text part of every message), else every part's text, joined. */
  static String responseText(JsonNode response) {
    StringBuilder outputText = new StringBuilder();
    StringBuilder any = new StringBuilder();
    for (JsonNode item : response.path("output")) {
      if (!"message".equals(item.path("type").asString(""))) {
        continue;
      }
      JsonNode content = item.path("content");
      if (content.isString()) {
        any.append(content.stringValue());
      }
      for (JsonNode part : content.isArray() ? content : Json.array()) {
        String text = part.isString() ? part.stringValue() : part.path("text").isString()
            ? part.get("text").stringValue() : null;
        if (text != null) {
          any.append(text);
          if ("output_text".equals(part.path("type").asString(""))) {
            outputText.append(text);
          }
        }
      }
    }
    return !outputText.isEmpty() ? outputText.toString() : any.toString();
  }

  private static String firstCodePoints(String text, int count) {
    return text.codePointCount(0, text.length()) <= count ? text
        : text.substring(0, text.offsetByCodePoints(0, count));
  }

  private static boolean truthy(JsonNode value) {
    return value.isBoolean() ? value.asBoolean() : value.isNumber() ? value.asDouble() != 0
        : value.isString() ? !value.stringValue().isEmpty() : (value.isArray() || value.isObject()) && !value.isEmpty();
  }

  private static String text(JsonNode meta, String key) {
    JsonNode value = meta.path(key);
    return value.isNull() || value.isMissingNode() || (value.isBoolean() && !value.asBoolean())
        || (value.isNumber() && value.asDouble() == 0) ? "" : value.isString() ? value.stringValue()
        : value.toString();
  }

  private static Map<String, String> rubrics() {
    try (InputStream in = LongMemEval.class.getResourceAsStream("rubrics.json")) {
      JsonNode all = Json.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      Map<String, String> byType = new TreeMap<>();
      all.propertyNames().forEach(name -> byType.put(name, all.get(name).stringValue()));
      return Map.copyOf(byType);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** NeMo Gym's compute_metrics: accuracy without the excluded rows, per question type, abstention, counters. */
  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    return AggregateMetrics.ofRequest(request, new AggregateMetrics.Custom() {
      @Override
      public ObjectNode compute(List<List<JsonNode>> tasks) {
        List<JsonNode> rewarded = new ArrayList<>();
        tasks.forEach(task -> task.stream().filter(r -> r.path("reward").isNumber()).forEach(rewarded::add));
        ObjectNode metrics = Json.object();
        if (rewarded.isEmpty()) {
          return metrics;
        }
        COUNTED.forEach(reason -> metrics.put("n_" + reason, 0));
        int other = 0;
        for (JsonNode row : rewarded) {
          String reason = row.path("judge_error").isString() ? row.get("judge_error").stringValue() : "";
          if (!reason.isEmpty()) {
            if (COUNTED.contains(reason)) {
              metrics.put("n_" + reason, metrics.get("n_" + reason).asInt() + 1);
            } else {
              other++;
            }
          }
        }
        metrics.put("n_judge_errors_other", other);
        List<JsonNode> scored = rewarded.stream()
            .filter(r -> !EXCLUDED.contains(r.path("judge_error").asString(""))).toList();
        metrics.put("n_excluded", rewarded.size() - scored.size());
        metrics.put("n_empty_response", scored.stream().filter(r -> r.path("empty_response").asBoolean(false)).count());
        metrics.put("accuracy_strict", mean(rewarded));
        if (scored.isEmpty()) {
          return metrics;
        }
        metrics.put("accuracy", mean(scored));
        metrics.put("count", scored.size());
        Map<String, List<JsonNode>> buckets = new TreeMap<>();
        for (JsonNode row : scored) {
          String type = row.path("question_type").asString("");
          buckets.computeIfAbsent(type.isEmpty() ? "unknown" : type, k -> new ArrayList<>()).add(row);
        }
        buckets.forEach((type, rows) -> metrics.put("question_type/" + type + "/accuracy", mean(rows))
            .put("question_type/" + type + "/count", rows.size()));
        List<JsonNode> abstain = scored.stream().filter(r -> r.path("abstention").asBoolean(false)).toList();
        if (!abstain.isEmpty()) {
          metrics.put("abstention/accuracy", mean(abstain)).put("abstention/count", abstain.size());
        }
        return metrics;
      }

      @Override
      public ObjectNode keyMetrics(ObjectNode agentMetrics) {
        ObjectNode key = Json.object();
        for (String name : List.of("accuracy", "abstention/accuracy", "n_excluded")) {
          if (agentMetrics.has(name)) {
            key.set(name, agentMetrics.get(name));
          }
        }
        return key;
      }
    });
  }

  private static double mean(List<JsonNode> rows) {
    return rows.stream().mapToDouble(r -> r.get("reward").asDouble()).sum() / rows.size();
  }
}
