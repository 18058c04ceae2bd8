package dev.gym4j.environments.multichallenge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.RubricScores;
import dev.gym4j.judge.TextPicks;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * MultiChallenge (NeMo Gym's multichallenge): the final answer of a multi-turn conversation is judged against
 * each rubric question ({@code [[YES]]} / {@code [[NO]]}, the later of the two labels in the judge's text wins);
 * an item scores 1 when the verdict is its {@code pass_criteria}, and the items are aggregated by
 * {@code aggregation_mode}.
 */
@Implementation("multichallenge")
public final class MultiChallenge extends ResourcesServer {
  static final String DEFAULT_TEMPLATE = """
      You are judging one criterion of an assistant's last reply in a conversation.

      CONVERSATION CONTEXT:
      {context}

      MODEL'S FINAL RESPONSE:
      {response}

      EVALUATION QUESTION:
      {question}

      EXPECTED ANSWER: {pass_criteria}

      Answer the evaluation question about the final response. Reason briefly, then give [[YES]] or [[NO]] \
      alone on the last line.""";

  private Judge judge;
  private PromptTemplate template;
  private String systemMessage;
  private String yesLabel;
  private String noLabel;
  private RubricScores mode;

  @Override
  protected void start() {
    JsonNode config = context().config();
    judge = Judge.from(context());
    template = PromptTemplate.configured(context(), DEFAULT_TEMPLATE);
    JsonNode system = config.path("judge_system_message");
    systemMessage = system.isString() ? system.stringValue()
        : system.isNull() ? "" : "Judge strictly and only against the criterion you are given.";
    yesLabel = config.path("yes_label").asString("[[YES]]");
    noLabel = config.path("no_label").asString("[[NO]]");
    mode = RubricScores.from(context());
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String generated = TextPicks.withoutThinking(TextPicks.lastAssistantTurn(request.json().path("response")
        .path("output")));
    JsonNode metadata = request.field("metadata");
    String context = request.field("context").isString() ? request.field("context").stringValue() : "";
    if (context.isEmpty() && metadata.path("messages").isArray()) {
      context = contextOf(metadata.get("messages"));
    }
    JsonNode rubric = request.field("rubric");
    if ((!rubric.isArray() || rubric.isEmpty()) && metadata.has("rubric")) {
      rubric = metadata.get("rubric");
    }

    // one item after another, so that each judge call has its place in the recorded order (replay)
    ArrayNode evaluations = Json.array();
    List<Double> scores = new ArrayList<>();
    List<Double> weights = new ArrayList<>();
    for (JsonNode item : rubric.isArray() ? rubric : Json.array()) {
      String question = item.path("question").isString() ? item.get("question").stringValue() : "";
      String passCriteria = item.path("pass_criteria").isString() ? item.get("pass_criteria").stringValue() : "YES";
      double weight = item.path("weight").isNumber() ? item.get("weight").asDouble() : 1.0;
      String prompt = template.render(Map.of("context", context, "response", generated, "question", question,
          "pass_criteria", passCriteria));
      JudgeOutcome<String> outcome = judge.ask(systemMessage, prompt, text -> verdict(text, yesLabel, noLabel));
      String verdict = outcome.orThrow("NO");
      String expected = passCriteria.toUpperCase(Locale.ROOT);
      double score = expected.equals("NO") ? (verdict.equals("NO") ? 1.0 : 0.0) : (verdict.equals("YES") ? 1.0 : 0.0);
      scores.add(score);
      weights.add(weight);
      evaluations.addObject().put("question", question).put("pass_criteria", passCriteria)
          .put("judge_prompt", prompt)
          .put("judge_response", outcome instanceof JudgeOutcome.Verdict<String> v
              ? TextPicks.withoutThinking(v.text()) : "")
          .put("verdict", verdict).put("score", score).put("weight", weight);
    }
    return Verification.of(mode.aggregate(scores, weights)).with("context", context)
        .with("generated_response", generated).with("rubric_evaluations", evaluations)
        .with("aggregation_mode", mode.label())
        .with("num_passed", (int) scores.stream().filter(RubricScores::passes).count())
        .with("num_total", scores.size());
  }

  /**
   * YES or NO: whichever label comes last in the judge's text (reasoning removed); without either, YES or NO
   * in its last line. Neither is no verdict (NeMo Gym reads it as NO).
   */
  static Optional<String> verdict(String rawText, String yesLabel, String noLabel) {
    String text = TextPicks.withoutThinking(rawText);
    int yes = text.lastIndexOf(yesLabel);
    int no = text.lastIndexOf(noLabel);
    if (yes >= 0 || no >= 0) {
      return Optional.of(yes > no ? "YES" : "NO");
    }
    String[] lines = PythonText.strip(text).split("\n", -1);
    String last = PythonText.strip(lines[lines.length - 1]).toUpperCase(Locale.ROOT);
    return last.contains("YES") ? Optional.of("YES") : last.contains("NO") ? Optional.of("NO") : Optional.empty();
  }

  /** {@code [ROLE]: content} per message, blank-line separated, thinking messages left out. */
  static String contextOf(JsonNode messages) {
    List<String> parts = new ArrayList<>();
    for (JsonNode message : messages) {
      String role = message.path("role").asString("unknown");
      if (role.equals("thinking")) {
        continue;
      }
      JsonNode content = message.path("content");
      parts.add("[" + role.toUpperCase(Locale.ROOT) + "]: " + (content.isString() ? content.stringValue()
          : content.isMissingNode() ? "" : content.toString()));
    }
    return String.join("\n\n", parts);
  }
}
