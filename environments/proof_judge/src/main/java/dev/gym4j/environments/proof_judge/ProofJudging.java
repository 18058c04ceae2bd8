package dev.gym4j.environments.proof_judge;

import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeSettings;
import dev.gym4j.server.ServerContext;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What NeMo Gym's proof_judge and proof_verification share: their judge (asked on /v1/responses with
 * {@code judge_model_name}, {@code temperature}, {@code top_p} and {@code max_tokens} from the config, its
 * answer read as the whole {@code output_text}) and their score reading, the last {@code \boxed{0|0.5|1}}.
 */
public final class ProofJudging {
  /** NeMo Gym's limits on the text a judge is shown; longer texts score 0 without a judge. */
  public static final int MAX_PROOF_CHARS = 40_000;
  public static final int MAX_VERIFICATION_CHARS = 20_000;

  private ProofJudging() {}

  /** The judge of a proof environment's config. */
  public static Judge judge(ServerContext context) {
    JsonNode config = context.config();
    JudgeSettings settings = JudgeSettings.from(context);
    String model = config.path("judge_model_name").asString("");
    ObjectNode params = Json.object();
    params.put("model", model.isEmpty() ? settings.server() : model);
    params.put("temperature", config.path("temperature").asDouble(0.6));
    params.put("top_p", config.path("top_p").asDouble(0.95));
    params.put("max_output_tokens", config.path("max_tokens").asInt(100_000));
    return new Judge(context.client(), settings.withCreateParams(params)).reading(Judge.Reading.OUTPUT_TEXT);
  }

  /**
   * The score in the last {@code \boxed{…}} (up to its first closing brace), when it is 0, 0.5 or 1 (NeMo
   * Gym's extract_boxed_score).
   */
  public static Optional<Double> boxedScore(String text) {
    int start = text.lastIndexOf("\\boxed{");
    if (start < 0) {
      return Optional.empty();
    }
    int from = start + "\\boxed{".length();
    int end = text.indexOf('}', from);
    if (end < 0) {
      return Optional.empty();
    }
    return PythonText.parseFloat(PythonText.strip(text.substring(from, end)))
        .filter(score -> score == 0 || score == 0.5 || score == 1);
  }

  /** The text after the last {@code </think>}, stripped; null when {@code assertThinkEnd} and there is none. */
  public static String afterThinking(String text, boolean assertThinkEnd) {
    if (assertThinkEnd && !text.contains("</think>")) {
      return null;
    }
    int close = text.lastIndexOf("</think>");
    return PythonText.strip(close < 0 ? text : text.substring(close + "</think>".length()));
  }

  /** Every output_text of the assistant's messages, joined. */
  public static String assistantText(JsonNode output) {
    StringBuilder text = new StringBuilder();
    for (JsonNode item : output) {
      if ("message".equals(item.path("type").asString("")) && "assistant".equals(item.path("role").asString(""))) {
        for (JsonNode part : item.path("content")) {
          if ("output_text".equals(part.path("type").asString(""))) {
            text.append(part.path("text").asString(""));
          }
        }
      }
    }
    return text.toString();
  }
}
