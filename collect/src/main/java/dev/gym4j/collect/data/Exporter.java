package dev.gym4j.collect.data;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Training data from a rollouts file (gym4j's or NeMo Gym's), in the forms trainers read.
 *
 * <ul>
 *   <li>{@code sft-messages}: {@code {"messages": [...], "tools": [...], "reward": r}} per rollout, the
 *       conversational form of TRL's SFTTrainer and OpenRLHF's SFT datasets.
 *   <li>{@code dpo-pairs}: TRL's conversational preference form {@code {"prompt", "chosen", "rejected"}} per pair
 *       of rollouts of one task whose rewards differ by at least the minimum; best against worst by
 *       default, or every such pair.
 *   <li>{@code rl-scored}: prompt, completion, reward and the whole recorded rollout (token ids kept) per
 *       rollout, for off-line RL and analysis.
 *   <li>{@code verl-jsonl}: one row per task in VeRL's dataset columns ({@code data_source}, {@code prompt},
 *       {@code ability}, {@code reward_model}, {@code extra_info}). VeRL reads Parquet: convert with
 *       {@code pandas.read_json(f, lines=True).to_parquet(...)}; VeRL's nemo_gym recipe instead reads
 *       {@code gym4j data collate}'s JSONL directly. (No Parquet writer here: the Java ones need Hadoop.)
 * </ul>
 */
public final class Exporter {
  /** The output forms. */
  public enum Format {
    SFT_MESSAGES, DPO_PAIRS, RL_SCORED, VERL_JSONL;

    public static Format parse(String name) {
      try {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw new dev.gym4j.config.ConfigException("unknown format " + name
            + "; one of sft-messages, dpo-pairs, rl-scored, verl-jsonl");
      }
    }
  }

  /** How rollouts of a task are paired for DPO. */
  public enum Pairing { BEST_VS_WORST, ALL }

  /**
   * @param minQualityDifference the smallest reward gap between chosen and rejected
   * @param withAdvantages add each rollout's group statistics and GRPO advantage
   */
  public record Options(Format format, RolloutFilter filter, double minQualityDifference, Pairing pairing,
      boolean withAdvantages, Transcript.Reasoning reasoning, boolean keepDeveloperRole) {
    /** With the {@code developer} role written as {@code system}. */
    public Options(Format format, RolloutFilter filter, double minQualityDifference, Pairing pairing,
        boolean withAdvantages, Transcript.Reasoning reasoning) {
      this(format, filter, minQualityDifference, pairing, withAdvantages, reasoning, false);
    }
  }

  /** Where the exports put chat messages. */
  private static final List<String> MESSAGE_LISTS = List.of("messages", "prompt", "completion", "chosen", "rejected");

  private Exporter() {}

  public static List<ObjectNode> export(List<JsonNode> rows, Options options) {
    Map<JsonNode, TaskGroups.Group> groupOf = new java.util.IdentityHashMap<>();
    if (options.withAdvantages()) {
      for (TaskGroups.Group group : TaskGroups.of(rows)) {
        group.rollouts().forEach(rollout -> groupOf.put(rollout, group));
      }
    }
    List<JsonNode> kept = rows.stream().filter(options.filter()::keeps).toList();
    List<ObjectNode> out = new ArrayList<>();
    switch (options.format()) {
      case SFT_MESSAGES -> kept.forEach(row -> out.add(withGroup(sft(row, options), row, groupOf)));
      case RL_SCORED -> kept.forEach(row -> out.add(withGroup(scored(row, options), row, groupOf)));
      case DPO_PAIRS -> out.addAll(pairs(kept, options));
      case VERL_JSONL -> out.addAll(verl(kept));
    }
    if (!options.keepDeveloperRole()) {
      out.forEach(Exporter::developerAsSystem);
    }
    return out;
  }

  /**
   * The Responses API's {@code developer} role as {@code system}: many chat templates (Qwen's, Llama's) reject
   * any role they do not know, and {@code system} is what {@code developer} means to them.
   */
  private static void developerAsSystem(ObjectNode row) {
    for (String field : MESSAGE_LISTS) {
      for (JsonNode message : row.path(field)) {
        if (message instanceof ObjectNode object && "developer".equals(object.path("role").asString(""))) {
          object.put("role", "system");
        }
      }
    }
  }

  private static ObjectNode sft(JsonNode row, Options options) {
    Transcript transcript = Transcript.of(row, options.reasoning());
    ObjectNode out = Json.object();
    out.set("messages", transcript.messages());
    if (!transcript.tools().isEmpty()) {
      out.set("tools", transcript.tools());
    }
    copy(row, out, "reward", "_ng_task_index", "_ng_rollout_index");
    return out;
  }

  private static ObjectNode scored(JsonNode row, Options options) {
    Transcript transcript = Transcript.of(row, options.reasoning());
    ObjectNode out = Json.object();
    out.set("prompt", transcript.prompt());
    out.set("completion", transcript.completion());
    copy(row, out, "reward", "_ng_task_index", "_ng_rollout_index", "agent_ref", "responses_create_params", "response");
    return out;
  }

  /**
   * Why an export of {@code rows} wrote no row, in one sentence a user can act on (issue 39: "0 rows written"
   * alone leaves them guessing); call it when {@link #export} returned nothing.
   */
  public static String whyEmpty(List<JsonNode> rows, Options options) {
    if (rows.isEmpty()) {
      return "the file has no rollouts";
    }
    List<JsonNode> kept = rows.stream().filter(options.filter()::keeps).toList();
    if (kept.isEmpty()) {
      Map<String, Long> reasons = new LinkedHashMap<>();
      rows.forEach(row -> reasons.merge(options.filter().dropReason(row), 1L, Long::sum));
      List<String> parts = new ArrayList<>();
      reasons.forEach((reason, count) -> parts.add(count + " " + reason));
      return "the filters kept none of the " + rows.size() + " rollouts: " + String.join(", ", parts);
    }
    if (options.format() == Format.DPO_PAIRS) {
      List<TaskGroups.Group> groups = TaskGroups.of(kept.stream().filter(r -> r.path("reward").isNumber()).toList());
      if (groups.isEmpty()) {
        return "no rollout has a numeric reward to pair by";
      }
      long single = groups.stream().filter(g -> g.rollouts().size() < 2).count();
      return "no task had two rollouts whose rewards differ by at least " + options.minQualityDifference()
          + " (--min-quality-difference) among " + groups.size() + " tasks" + (single == 0 ? ""
          : ", " + single + " of them with a single rollout (collect with --repeats 2 or more)");
    }
    return "no rollout could be exported";
  }

  private static List<ObjectNode> pairs(List<JsonNode> rows, Options options) {
    List<ObjectNode> pairs = new ArrayList<>();
    rows = rows.stream().filter(row -> row.path("reward").isNumber()).toList();
    for (TaskGroups.Group group : TaskGroups.of(rows)) {
      List<JsonNode> ranked = new ArrayList<>(group.rollouts());
      ranked.sort(Comparator.comparingDouble((JsonNode r) -> r.get("reward").asDouble()).reversed());
      if (options.pairing() == Pairing.BEST_VS_WORST) {
        addPair(pairs, ranked.getFirst(), ranked.getLast(), options);
      } else {
        for (int i = 0; i < ranked.size(); i++) {
          for (int j = i + 1; j < ranked.size(); j++) {
            addPair(pairs, ranked.get(i), ranked.get(j), options);
          }
        }
      }
    }
    return pairs;
  }

  private static void addPair(List<ObjectNode> pairs, JsonNode chosen, JsonNode rejected, Options options) {
    double difference = chosen.get("reward").asDouble() - rejected.get("reward").asDouble();
    if (chosen == rejected || difference < options.minQualityDifference() || difference <= 0) {
      return;
    }
    Transcript better = Transcript.of(chosen, options.reasoning());
    Transcript worse = Transcript.of(rejected, options.reasoning());
    ObjectNode pair = Json.object();
    pair.set("prompt", better.prompt());
    pair.set("chosen", better.completion());
    pair.set("rejected", worse.completion());
    if (!better.tools().isEmpty()) {
      pair.set("tools", better.tools());
    }
    pair.set("chosen_reward", chosen.get("reward"));
    pair.set("rejected_reward", rejected.get("reward"));
    pair.put("quality_difference", difference);
    copy(chosen, pair, "_ng_task_index");
    pairs.add(pair);
  }

  private static List<ObjectNode> verl(List<JsonNode> rows) {
    Map<String, JsonNode> firstOfTask = new LinkedHashMap<>();
    rows.forEach(row -> firstOfTask.putIfAbsent(TaskGroups.key(row), row));
    List<ObjectNode> out = new ArrayList<>();
    int index = 0;
    for (JsonNode row : firstOfTask.values()) {
      String agent = row.path("agent_ref").path("name").asString("gym4j");
      ObjectNode task = Json.object();
      task.put("data_source", agent);
      task.set("prompt", Transcript.of(row, Transcript.Reasoning.DROP).prompt());
      task.put("ability", agent);
      ObjectNode rewardModel = task.putObject("reward_model");
      rewardModel.put("style", "rule");
      rewardModel.set("ground_truth", row.has("expected_answer") ? row.get("expected_answer") : null);
      ObjectNode extra = task.putObject("extra_info");
      extra.put("index", row.path("_ng_task_index").asInt(index));
      copy(row, extra, "responses_create_params", "agent_ref");
      out.add(task);
      index++;
    }
    return out;
  }

  private static ObjectNode withGroup(ObjectNode out, JsonNode row, Map<JsonNode, TaskGroups.Group> groupOf) {
    TaskGroups.Group group = groupOf.get(row);
    if (group != null) {
      out.put("group_mean_reward", group.mean());
      out.put("group_std_reward", group.std());
      out.put("advantage", group.advantage(row));
    }
    return out;
  }

  private static void copy(JsonNode from, ObjectNode to, String... fields) {
    for (String field : fields) {
      if (from.has(field)) {
        to.set(field, from.get(field));
      }
    }
  }
}
