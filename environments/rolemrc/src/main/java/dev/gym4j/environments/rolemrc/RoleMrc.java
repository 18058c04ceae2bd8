package dev.gym4j.environments.rolemrc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.JudgeSettings;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonFormat;
import dev.gym4j.text.PythonText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * RoleMRC role-play reading comprehension (NeMo Gym's rolemrc), by {@code mode}:
 * <ul>
 *   <li>{@code reference} (default): the answer (after any {@code <think>} block) against the row's
 *       {@code reference} by ROUGE (rouge_score with stemming) and sentence BLEU (sacrebleu); the reward is
 *       ROUGE-L. METEOR and BERTScore are not computed (see README).
 *   <li>{@code judge}: one judge call per aspect the row's {@code task} calls for (knowledge range, style,
 *       nested instruction, multi-turn instruction, instruction priority), each scored 0/1 from the first number
 *       in the judge's answer; the reward is their mean.
 * </ul>
 */
@Implementation("rolemrc")
public final class RoleMrc extends ResourcesServer {
  /** What NeMo Gym's reference-mode verify adds to the request (it also writes task and dimension back). */
  static final List<String> REFERENCE_FIELDS = List.of("generation", "rouge1", "rouge2", "rougeL", "rougeLsum",
      "bleu");
  private static final Logger LOG = LoggerFactory.getLogger(RoleMrc.class);
  private static final Pattern THINK = Pattern.compile("<think>.*?</think>", Pattern.DOTALL);
  private static final Pattern SCORE = Pattern.compile("-?\\d+(?:\\.\\d+)?");
  private static final List<Map.Entry<String, String>> DIMENSIONS = List.of(Map.entry("-2ndrefused", "multi_turn"),
      Map.entry("-2ndanswer", "multi_turn"), Map.entry("-special-content", "nested_instruction"),
      Map.entry("-special-format", "nested_instruction"), Map.entry("-refused", "instruction_priority"));
  private static final List<String> NESTED_LEADS = List.of("You love to ", "You will ", "You must ",
      "You prefer to ", "You would like to ", "You are used to ", "You should ", "You are in the habit of ");

  /** One judged aspect: its name, prompt file and the extra template values. */
  private record Aspect(String name, Map<String, String> values) {}

  private static final Map<String, List<Aspect>> EVALUATION = evaluation();

  private boolean judgeMode;
  private Judge judge;
  private Map<String, String> prompts;

  private static Map<String, List<Aspect>> evaluation() {
    Aspect within = new Aspect("knowledge_range", Map.of("range", "within"));
    Aspect outside = new Aspect("knowledge_range", Map.of("range", "outside"));
    Aspect style = new Aspect("style_compliance", Map.of());
    Aspect nested = new Aspect("nested_instruction", Map.of());
    Aspect unanswerable = new Aspect("multi_turn_instruction", Map.of("type", "unanswerable"));
    Aspect answerable = new Aspect("multi_turn_instruction", Map.of("type", "answerable"));
    Aspect priority = new Aspect("instruction_priority", Map.of());
    Map<String, List<Aspect>> config = new LinkedHashMap<>();
    config.put("role_related_mrc_answer_with_narration", List.of(within, style));
    config.put("role_related_mrc_answer_no_narration", List.of(within));
    config.put("role_unrelated_mrc_refused_with_narration", List.of(outside));
    config.put("role_unrelated_mrc_refused_no_narration", List.of(outside, style));
    config.put("role_related_mrc_refused_with_narration", List.of(within));
    config.put("role_unrelated_mrc_answer_with_narration", List.of(outside));
    config.put("role_related_mrc_refused_no_narration", List.of(style));
    config.put("role_unrelated_mrc_answer_no_narration", List.of(style));
    for (String base : List.of("role_related_mrc_answer_with_narration", "role_related_mrc_answer_no_narration")) {
      config.put(base + "-special-content", List.of(nested));
      config.put(base + "-special-format", List.of(nested));
      config.put(base + "-refused", List.of(priority));
    }
    config.put("role_related_mrc_refused_with_narration-2ndrefused", List.of(unanswerable));
    config.put("role_related_mrc_refused_no_narration-2ndrefused", List.of(unanswerable));
    config.put("role_unrelated_mrc_refused_with_narration-2ndanswer", List.of(answerable));
    config.put("role_unrelated_mrc_refused_no_narration-2ndanswer", List.of(answerable));
    return config;
  }

  @Override
  protected void start() {
    JsonNode config = context().config();
    String mode = config.path("mode").asString("reference");
    if (!mode.equals("reference") && !mode.equals("judge")) {
      throw new ConfigException(context().path("mode") + ": expected reference or judge, got " + mode);
    }
    judgeMode = mode.equals("judge");
    if (judgeMode) {
      if (config.path("judge_model_server").isMissingNode() || config.path("judge_responses_create_params")
          .isMissingNode()) {
        throw new ConfigException(context().path("mode") + ": judge mode needs judge_model_server and "
            + "judge_responses_create_params");
      }
      judge = new Judge(context().client(), JudgeSettings.from(context())).reading(Judge.Reading.OUTPUT_TEXT);
      prompts = new LinkedHashMap<>();
      for (String aspect : List.of("knowledge_range", "style_compliance", "nested_instruction",
          "multi_turn_instruction", "instruction_priority")) {
        prompts.put(aspect, resource("prompts/" + aspect + ".txt"));
      }
    } else if (config.path("include_bertscore").asBoolean(true)) {
      LOG.warn("rolemrc: include_bertscore is set, but gym4j does not compute BERTScore (a roberta-large model); "
          + "its fields are left out. METEOR is left out too. The reward, ROUGE-L, is unaffected.");
    }
  }

  private static String resource(String name) {
    try (InputStream in = RoleMrc.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String response = stripThink(request.response().outputTextParts());
    String task = optionalString(request, "task");
    String dimension = optionalString(request, "dimension");
    if (dimension.isEmpty()) {
      dimension = dimension(task);
    }
    // Python's response[:500]: the first 500 code points
    String generation = response.codePointCount(0, response.length()) <= 500 ? response
        : response.substring(0, response.offsetByCodePoints(0, 500));
    Verification base = Verification.of(0.0).with("task", task).with("dimension", dimension)
        .with("generation", generation);
    return judgeMode ? judged(request, base, task, response) : referenced(request, base, response);
  }

  private static Verification referenced(VerifyRequest request, Verification base, String response) {
    String reference = optionalString(request, "reference");
    Map<String, Double> rouge = Rouge.scores(reference, response);
    Verification result = new Verification(rouge.get("rougeL"), base.extra());
    for (var score : rouge.entrySet()) {
      result = result.with(score.getKey(), score.getValue());
    }
    double bleu = PythonText.strip(response).isEmpty() || PythonText.strip(reference).isEmpty() ? 0.0
        : SentenceBleu.score(response, reference) / 100.0;
    return result.with("bleu", bleu);
  }

  private Verification judged(VerifyRequest request, Verification base, String task, String response) {
    List<Aspect> aspects = EVALUATION.getOrDefault(task, List.of());
    if (aspects.isEmpty()) {
      LOG.warn("rolemrc judge: no evaluation config for task {}: reward 0", task);
      return base.with("judge_skipped", true);
    }
    List<String[]> messages = messages(request);
    StringBuilder conversation = new StringBuilder();
    String system = "";
    for (String[] message : messages) {
      String label = switch (message[0]) {
        case "system" -> "System Instruction";
        case "user" -> "User Query";
        case "assistant" -> "LLM Response";
        default -> null;
      };
      if (label != null) {
        conversation.append(label).append(": \"").append(message[1]).append("\"\n");
      }
      if (system.isEmpty() && message[0].equals("system")) {
        system = message[1];
      }
    }
    Map<String, Integer> scores = new LinkedHashMap<>();
    ArrayNode bad = Json.array();
    ArrayNode evaluations = Json.array();
    String last = "";
    for (Aspect aspect : aspects) {
      Map<String, Object> values = new LinkedHashMap<>(aspect.values());
      values.put("conversations", conversation.toString());
      values.put("response", response);
      if (aspect.name().equals("nested_instruction")) {
        values.put("content", nestedContent(system));
      }
      String prompt = PythonFormat.formatMap(prompts.get(aspect.name()), values);
      JudgeOutcome<String> outcome = judge.ask(prompt, text -> Optional.of(text));
      // a judge that cannot be reached fails the rollout, as NeMo Gym's JudgeError does
      String text = stripThink(outcome.orThrow());
      outcome.evaluation().ifPresent(evaluations::add);
      last = text;
      String cleaned = PythonText.strip(text.replace("Score:", ""));
      Matcher number = SCORE.matcher(cleaned);
      int score = number.find() && Math.rint(Double.parseDouble(number.group())) >= 1 ? 1 : 0;
      if (!SCORE.matcher(text.replace("Score:", "")).find()) {
        bad.add(aspect.name());
      }
      scores.put(aspect.name(), score);
    }
    double reward = scores.values().stream().mapToInt(Integer::intValue).sum() / (double) scores.size();
    ObjectNode aspectsNode = Json.object();
    scores.forEach(aspectsNode::put);
    Verification result = new Verification(reward, base.extra()).with("aspects", aspectsNode)
        .with("n_aspects", scores.size()).with("bad_aspects", bad).with("judge_errors", Json.array())
        .with("judge_response", last).with("judge_evaluations", evaluations);
    for (var score : scores.entrySet()) {
      result = result.with("aspect_" + score.getKey(), (double) score.getValue());
    }
    return result;
  }

  /** NeMo Gym's _extract_nested_content: the system prompt's second sentence without its lead-in. */
  static String nestedContent(String system) {
    String[] sentences = system.split("\\. ", -1);
    String second = sentences.length > 1 ? sentences[1] : system;
    for (String lead : NESTED_LEADS) {
      if (second.startsWith(lead)) {
        second = second.substring(lead.length());
        break;
      }
    }
    int end = second.length();
    while (end > 0 && second.charAt(end - 1) == '.') {
      end--;
    }
    return second.substring(0, end);
  }

  /** The request's input as (role, text) pairs, roles lower-cased. */
  private static List<String[]> messages(VerifyRequest request) {
    JsonNode input = request.field("responses_create_params").path("input");
    List<String[]> out = new ArrayList<>();
    if (input.isString()) {
      out.add(new String[] {"user", input.stringValue()});
      return out;
    }
    for (JsonNode item : input) {
      String role = item.path("role").asString("user").toLowerCase(Locale.ROOT);
      out.add(new String[] {role, contentText(item.path("content"))});
    }
    return out;
  }

  private static String contentText(JsonNode content) {
    if (content.isString()) {
      return content.stringValue();
    }
    if (content.isArray()) {
      StringBuilder text = new StringBuilder();
      for (JsonNode part : content) {
        if (part.isString()) {
          text.append(part.stringValue());
        } else if (part.path("text").isString()) {
          text.append(part.get("text").stringValue());
        }
      }
      return text.toString();
    }
    return content.isMissingNode() || content.isNull() ? "" : content.toString();
  }

  static String dimension(String task) {
    for (var entry : DIMENSIONS) {
      if (task.endsWith(entry.getKey())) {
        return entry.getValue();
      }
    }
    return "on_scene_dialogue";
  }

  /** NeMo Gym's _strip_think: {@code <think>…</think>} blocks removed, else what follows the first {@code </think>}. */
  static String stripThink(String text) {
    if (text == null || !text.contains("</think>")) {
      return text == null ? "" : text;
    }
    String cleaned = THINK.matcher(text).replaceAll("");
    if (cleaned.equals(text)) {
      cleaned = text.substring(text.indexOf("</think>") + "</think>".length());
    }
    return PythonText.strip(cleaned);
  }

  private static String optionalString(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (value.isMissingNode() || value.isNull()) {
      return "";
    }
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Input should be a valid string", "string_type");
    }
    return value.stringValue();
  }
}
