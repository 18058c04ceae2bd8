package dev.gym4j.environments.arena_judge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.JudgeSettings;
import dev.gym4j.judge.PromptTemplate;
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
 * Arena-Hard pairwise judging (NeMo Gym's arena_judge, after arena-hard-auto): the judge compares the model's
 * answer with the task's {@code baseline_answer} twice, once as assistant A (gen-base) and once as B (base-gen),
 * with the category's prompt ({@code judge_prompt_paths}); each answer's verdict is its {@code [[A>>B]]}-style
 * label. The reward is 1 when the gen-base verdict prefers the model (A>>B or A>B). The aggregate metrics add
 * the Arena-Elo score with its bootstrap interval ({@link ArenaElo}), overall and per category.
 */
@Implementation("arena_judge")
public final class ArenaJudge extends ResourcesServer {
  private static final Pattern LABEL = Pattern.compile("\\[\\[([AB<>=]+)\\]\\]");

  /** A category's judge prompt: NeMo Gym's prompt YAML, {@code system} (optional) and {@code user}. */
  private record Prompt(PromptTemplate system, PromptTemplate user) {}

  private Judge judge;
  private final Map<String, Prompt> prompts = new LinkedHashMap<>();
  private String defaultCategory;
  private boolean sanitize;
  private int rounds;
  private long seed;

  @Override
  protected void start() {
    ObjectNode config = context().config();
    JsonNode params = config.path("judge_chat_completions_create_params");
    if (!params.isMissingNode() && !params.isObject()) {
      throw new ConfigException(context().path("judge_chat_completions_create_params") + " must be a mapping");
    }
    // asked on /v1/chat/completions with NeMo Gym's max_tokens and temperature
    ObjectNode base = Json.object();
    if (params.path("max_tokens").isNumber()) {
      base.set("max_output_tokens", params.get("max_tokens"));
    }
    if (params.has("temperature")) {
      base.set("temperature", params.get("temperature"));
    }
    if (params.has("top_p")) {
      base.set("top_p", params.get("top_p"));
    }
    judge = new Judge(context().client(), JudgeSettings.from(context()).withChatCompletions(true)
        .withCreateParams(base));
    JsonNode paths = config.path("judge_prompt_paths");
    if (paths.isMissingNode()) {
      paths = Json.object().put("hard_prompt", "prompts/arena.yaml")
          .put("creative_writing", "prompts/arena_creative.yaml");
    }
    if (!paths.isObject() || paths.isEmpty()) {
      throw new ConfigException(context().path("judge_prompt_paths") + " must map each category to a prompt file");
    }
    for (Map.Entry<String, JsonNode> entry : paths.properties()) {
      prompts.put(entry.getKey(), prompt(entry.getKey(), entry.getValue().asString("")));
    }
    defaultCategory = config.path("default_category").asString("hard_prompt");
    if (!prompts.containsKey(defaultCategory)) {
      throw new ConfigException(context().path("default_category") + " = " + defaultCategory
          + " is not a key of judge_prompt_paths " + prompts.keySet());
    }
    sanitize = config.path("sanitize_generations").asBoolean(false);
    rounds = config.path("arena_elo_bootstrap_rounds").asInt(100);
    seed = config.path("arena_elo_bootstrap_seed").asLong(42);
    if (rounds < 1 || rounds > 10_000) {
      throw new ConfigException(context().path("arena_elo_bootstrap_rounds") + " must be between 1 and 10000");
    }
    if (seed < 0 || seed > 0xFFFFFFFFL) {
      throw new ConfigException(context().path("arena_elo_bootstrap_seed") + " must be between 0 and 2^32-1");
    }
  }

  private Prompt prompt(String category, String file) {
    String setting = "judge_prompt_paths." + category;
    JsonNode yaml = dev.gym4j.config.Yaml.read(context().global().serverFile(context().instance(), file,
        context().path(setting)));
    if (!yaml.path("user").isString()) {
      throw new ConfigException(context().path(setting) + ": " + file + " has no 'user' prompt");
    }
    JsonNode system = yaml.path("system");
    return new Prompt(system.isString() ? PromptTemplate.of(system.stringValue()) : null,
        PromptTemplate.of(yaml.get("user").stringValue()));
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String candidate = outputText(request.json().path("response").path("output"));
    String question = text(request.field("question"));
    String baseline = text(request.field("baseline_answer"));
    if (sanitize) {
      candidate = sanitized(candidate);
      baseline = sanitized(baseline);
    }
    String category = text(request.field("category"));
    if (!prompts.containsKey(category)) {
      category = defaultCategory;
    }
    Prompt prompt = prompts.get(category);
    // asked one after the other (NeMo Gym asks both at once): replay answers the n-th call with the n-th recording
    Judged genBase = judgeOnce(prompt, question, candidate, baseline);
    Judged baseGen = judgeOnce(prompt, question, baseline, candidate);
    double reward = "A>>B".equals(genBase.verdict()) || "A>B".equals(genBase.verdict()) ? 1.0 : 0.0;
    Verification result = Verification.of(reward);
    if (genBase.verdict() == null || baseGen.verdict() == null) {
      result = result.with("judge_unparseable", true);
    }
    return result.with("judgement_gen_base", genBase.text())
        .with("judgement_base_gen", baseGen.text()).with("verdict_gen_base", genBase.verdict())
        .with("verdict_base_gen", baseGen.verdict()).with("category", category)
        .with("invalid_gen_base", genBase.verdict() == null).with("invalid_base_gen", baseGen.verdict() == null)
        .with("judge_evaluations", Json.array().add(genBase.exchange()).add(baseGen.exchange()));
  }

  /** One judge answer: its text, its label (null when it has none, under judge_unparseable: zero) and the exchange. */
  private record Judged(String text, String verdict, ObjectNode exchange) {}

  private Judged judgeOnce(Prompt prompt, String question, String answer1, String answer2) {
    Map<String, String> fill = Map.of("question", question, "answer_1", answer1, "answer_2", answer2);
    String system = prompt.system() == null ? "" : prompt.system().render(fill);
    JudgeOutcome<String> outcome = judge.ask(system, prompt.user().render(fill), ArenaJudge::verdict);
    if (outcome instanceof JudgeOutcome.Verdict<String> v) {
      return new Judged(v.text(), v.value(), v.exchange());
    }
    if (outcome instanceof JudgeOutcome.Failed<String> failed && failed.scoresZero()) {
      // NeMo Gym's invalid verdict: no label, reward from the other fields; the judge's text is kept
      ObjectNode exchange = failed.evaluation().orElseThrow();
      String text = exchange.at("/response/choices/0/message/content").asString("");
      return new Judged(text, null, exchange);
    }
    throw ((JudgeOutcome.Failed<String>) outcome).failure();
  }

  /** The label when every {@code [[...]]} in the text is the same one of the five; otherwise none. */
  static Optional<String> verdict(String text) {
    Matcher m = LABEL.matcher(text);
    Set<String> labels = new java.util.HashSet<>();
    while (m.find()) {
      labels.add(m.group(1));
    }
    if (labels.size() != 1) {
      return Optional.empty();
    }
    String label = labels.iterator().next();
    return ArenaElo.VERDICTS.contains(label) ? Optional.of(label) : Optional.empty();
  }

  /** Every {@code output_text} part of every message, concatenated (NeMo Gym's _extract_response_output_text). */
  static String outputText(JsonNode output) {
    StringBuilder text = new StringBuilder();
    for (JsonNode item : output) {
      if (!"message".equals(item.path("type").asString(""))) {
        continue;
      }
      for (JsonNode part : item.path("content")) {
        if ("output_text".equals(part.path("type").asString("")) && part.path("text").isString()) {
          text.append(part.get("text").stringValue());
        }
      }
    }
    return text.toString();
  }

  /**
   * NeMo Gym's sanitize_generation: each lone surrogate half becomes three U+FFFD (its three UTF-8 bytes, each
   * undecodable). Its NUL removal runs on the JSON text, where a NUL is already escaped as \\u0000, so NULs stay,
   * as they do there.
   */
  static String sanitized(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        out.append("\uFFFD\uFFFD\uFFFD");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String text(JsonNode value) {
    return value != null && value.isString() ? value.stringValue() : "";
  }

  @Override
  protected ObjectNode aggregateMetrics(ObjectNode request) {
    PassMajority.Scores scores = ArenaJudge::scores;
    return AggregateMetrics.ofRequest(request, new AggregateMetrics.Custom() {
      @Override
      public ObjectNode compute(List<List<JsonNode>> tasks) {
        ObjectNode metrics = PassMajority.of(tasks, scores, "verdict_gen_base");
        metrics.setAll(PassMajority.subsets(tasks, "category", scores, "verdict_gen_base"));
        metrics.setAll(eloMetrics(tasks, rounds, seed));
        return metrics;
      }

      @Override
      public ObjectNode keyMetrics(ObjectNode agentMetrics) {
        ObjectNode key = PassMajority.keyMetrics(agentMetrics, false);
        for (String name : List.of("arena_elo/score", "arena_elo/ci_lower", "arena_elo/ci_upper",
            "arena_elo/invalid_scores")) {
          if (agentMetrics.has(name)) {
            key.set(name, agentMetrics.get(name));
          }
        }
        return key;
      }
    });
  }

  /** NeMo Gym's _arena_score_fn: the gen-base verdict's class, double wins and invalid verdicts. */
  static Map<String, Double> scores(JsonNode row) {
    String gen = row.path("verdict_gen_base").asString(null);
    String base = row.path("verdict_base_gen").asString(null);
    boolean win = "A>>B".equals(gen) || "A>B".equals(gen);
    Map<String, Double> named = new LinkedHashMap<>();
    named.put("wins", win ? 1.0 : 0.0);
    named.put("strict_wins", "A>>B".equals(gen) ? 1.0 : 0.0);
    named.put("ties", "A=B".equals(gen) ? 1.0 : 0.0);
    named.put("losses", "B>A".equals(gen) || "B>>A".equals(gen) ? 1.0 : 0.0);
    named.put("double_wins", win && ("B>A".equals(base) || "B>>A".equals(base)) ? 1.0 : 0.0);
    named.put("invalid_gen_base", row.path("invalid_gen_base").asBoolean(false) ? 1.0 : 0.0);
    return named;
  }

  /**
   * {@code arena_elo/score|ci_lower|ci_upper|invalid_scores|n}, overall and per category: each task's rollouts
   * reduced to their best gen-base verdict and their best (for the model) base-gen verdict.
   */
  static ObjectNode eloMetrics(List<List<JsonNode>> tasks, int rounds, long seed) {
    List<String[]> scores = new ArrayList<>();
    Map<String, List<String[]>> byCategory = new LinkedHashMap<>();
    for (List<JsonNode> rollouts : tasks) {
      if (rollouts.isEmpty()) {
        continue;
      }
      String[] pair = {best(rollouts, "verdict_gen_base", false), best(rollouts, "verdict_base_gen", true)};
      scores.add(pair);
      JsonNode category = rollouts.get(0).path("category");
      if (category.isString()) {
        byCategory.computeIfAbsent(category.stringValue(), c -> new ArrayList<>()).add(pair);
      }
    }
    ObjectNode out = Json.object();
    put(out, "arena_elo/", ArenaElo.of(scores, rounds, seed));
    byCategory.forEach((category, pairs) -> put(out, "arena_elo/" + category + "/", ArenaElo.of(pairs, rounds, seed)));
    return out;
  }

  private static String best(List<JsonNode> rollouts, String field, boolean reversed) {
    List<String> order = new ArrayList<>(ArenaElo.VERDICTS);
    if (reversed) {
      java.util.Collections.reverse(order);
    }
    for (String label : order) {
      for (JsonNode rollout : rollouts) {
        if (label.equals(rollout.path(field).asString(null))) {
          return label;
        }
      }
    }
    return null;
  }

  private static void put(ObjectNode out, String prefix, ArenaElo.Result result) {
    out.put(prefix + "score", result.score());
    out.put(prefix + "ci_lower", result.ciLower());
    out.put(prefix + "ci_upper", result.ciUpper());
    out.put(prefix + "invalid_scores", result.invalidScores());
    out.put(prefix + "n", result.n());
  }
}
