package dev.gym4j.environments.aalcr;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.FieldError;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.JudgeSettings;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Long-context reasoning over documents (NeMo Gym's aalcr, Artificial Analysis' AA-LCR): a judge compares
 * the model's answer (its whole {@code output_text}, stripped) with the official {@code answer} and must
 * reply exactly {@code CORRECT} (reward 1) or {@code INCORRECT}. An empty model answer scores 0 without a
 * judge. The reward is also reported under the row's input-length band. Any other judge reply fails the
 * rollout as {@code judge_unparseable}; NeMo Gym scores it 0 with {@code invalid_judge_response}.
 */
@Implementation("aalcr")
public final class Aalcr extends ResourcesServer {
  static final String PROMPT = """
      Is the CANDIDATE ANSWER below CORRECT or INCORRECT? It is correct when it agrees with the OFFICIAL \
      ANSWER.

      The question (for context only): %s
      The OFFICIAL ANSWER: %s
      CANDIDATE ANSWER: %s

      Reply with CORRECT or INCORRECT and nothing else.""";
  private static final Map<String, String> BANDS = Map.of("<80k", "reward_lt_80k", "80k-100k", "reward_80k_100k",
      "100k-110k", "reward_100k_110k", "110k-128k", "reward_110k_128k", "128k+", "reward_128k_plus");

  private Judge judge;

  @Override
  protected void start() {
    JudgeSettings settings = JudgeSettings.from(context());
    JsonNode overrides = context().config().path("judge_responses_create_params_overrides");
    judge = new Judge(context().client(), overrides.isObject() ? settings.withCreateParams((ObjectNode) overrides)
        : settings).reading(Judge.Reading.OUTPUT_TEXT);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String band = BANDS.get(required(request, "input_tokens_band"));
    if (band == null) {
      throw new FieldError(List.of("input_tokens_band"), "Input should be one of " + BANDS.keySet(), "enum");
    }
    String question = required(request, "question");
    String official = required(request, "answer");
    String candidate = PythonText.strip(request.response().outputTextParts());
    if (candidate.isEmpty()) {
      return Verification.of(0.0).with("invalid_model_response", true).with(band, 0.0);
    }
    JudgeOutcome<Boolean> outcome = judge.ask(PROMPT.formatted(question, official, candidate), Aalcr::verdict);
    double reward = outcome.orThrow() ? 1.0 : 0.0;
    ObjectNode exchange = outcome.evaluation().orElseThrow();
    return Verification.of(reward).with("invalid_model_response", false).with("invalid_judge_response", false)
        .with("judge_responses_create_params", exchange.get("responses_create_params"))
        .with("judge_response", exchange.get("response")).with(band, reward);
  }

  /** NeMo Gym's rule: exactly CORRECT or INCORRECT, once stripped. */
  static Optional<Boolean> verdict(String text) {
    return switch (PythonText.strip(text)) {
      case "CORRECT" -> Optional.of(true);
      case "INCORRECT" -> Optional.of(false);
      default -> Optional.empty();
    };
  }

  private static String required(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
  }
}
