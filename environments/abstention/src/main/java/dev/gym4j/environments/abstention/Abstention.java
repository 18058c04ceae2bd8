package dev.gym4j.environments.abstention;

import java.util.Map;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.judge.TextPicks;
import dev.gym4j.judge.VerdictParser;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.text.PythonText;
import tools.jackson.databind.JsonNode;

/**
 * Abstaining instead of guessing (NeMo Gym's abstention): correct (1) beats abstaining ({@code
 * abstention_reward}, 0.5) beats wrong (0). The answer is the last {@code \boxed{…}} of the model's last
 * message (reasoning removed), else the whole message. {@code \boxed{[IDK]}} (after SQuAD normalization) is
 * an abstention without a judge; anything else is graded by the judge: A correct, B incorrect, C not
 * attempted (an abstention). A judge text without a grade fails the rollout (NeMo Gym grades it B).
 */
@Implementation("abstention")
public final class Abstention extends ResourcesServer {
  static final String DEFAULT_PROMPT = """
      Grade a predicted answer to a question against the gold target.

      A: CORRECT. It matches the gold target or is equivalent to it. Numbers must agree to the gold \
      target's last significant figure (identifiers such as versions or sections exactly); information the \
      question already implies, such as units or a surname, may be left out; small misspellings of names \
      are fine.
      B: INCORRECT. It contradicts the gold target, differs in meaning, or is incomplete.
      C: NOT_ATTEMPTED. It declines, is empty, says it does not know, or asks for more context or tools.

      Question: {question}
      Gold target: {target}
      Predicted answer: {predicted_answer}

      Reply with only the letter A, B or C.""";
  private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b", Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern PUNCTUATION = Pattern.compile("[^\\w\\s]", Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern SPACES = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

  private Judge judge;
  private PromptTemplate template;
  private double abstentionReward;
  private double correctReward;
  private double incorrectReward;
  private String abstentionToken;

  @Override
  protected void start() {
    judge = Judge.from(context());
    template = PromptTemplate.configured(context(), DEFAULT_PROMPT);
    JsonNode config = context().config();
    abstentionReward = config.path("abstention_reward").asDouble(0.5);
    correctReward = config.path("correct_reward").asDouble(1.0);
    incorrectReward = config.path("incorrect_reward").asDouble(0.0);
    abstentionToken = config.path("abstention_token").isString() ? config.get("abstention_token").stringValue()
        : "[IDK]";
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String output = withoutThinking(TextPicks.lastAssistantMessage(request.json().path("response").path("output")));
    String boxed = lastBoxed(output);
    String extracted = boxed != null ? boxed : output;
    String truth = text(request.field("answer"));
    String verdict;
    double reward;
    String judgeText = null;
    JsonNode evaluations = null;
    if (normalize(extracted).equals(normalize(abstentionToken))) {
      verdict = "abstain";
      reward = abstentionReward;
    } else {
      String prompt = template.render(Map.of("question", text(request.field("question")), "target", truth,
          "predicted_answer", extracted));
      JudgeOutcome<String> outcome = judge.ask(prompt, VerdictParser.letterGrade("ABC"));
      String grade = outcome.orThrow();
      judgeText = ((JudgeOutcome.Verdict<String>) outcome).text();
      evaluations = Json.array().add(outcome.evaluation().orElseThrow());
      verdict = switch (grade) {
        case "A" -> "correct";
        case "C" -> "abstain";
        default -> "incorrect";
      };
      reward = switch (grade) {
        case "A" -> correctReward;
        case "C" -> abstentionReward;
        default -> incorrectReward;
      };
    }
    double correct = verdict.equals("correct") ? 1.0 : 0.0;
    double incorrect = verdict.equals("incorrect") ? 1.0 : 0.0;
    return Verification.of(reward).with("extracted_answer", extracted).with("ground_truth", truth)
        .with("verdict", verdict).with("judge_output", judgeText).with("is_correct", correct)
        .with("is_abstain", verdict.equals("abstain") ? 1.0 : 0.0).with("is_incorrect", incorrect)
        .with("omniscience_index", correct - incorrect).with("judge_evaluations", evaluations);
  }

  /** The contents of the last {@code \boxed{…}}, braces balanced; null when there is none or it does not close. */
  static String lastBoxed(String text) {
    int at = text.lastIndexOf("\\boxed{");
    if (at < 0) {
      return null;
    }
    int start = at + "\\boxed{".length();
    int depth = 1;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return text.substring(start, i);
      }
    }
    return null;
  }

  /** SQuAD-style: lower case, no articles, no punctuation, single spaces. */
  static String normalize(String text) {
    String s = PythonText.strip(text.toLowerCase(java.util.Locale.ROOT));
    s = ARTICLES.matcher(s).replaceAll(" ");
    s = PUNCTUATION.matcher(s).replaceAll("");
    return String.join(" ", SPACES.split(PythonText.strip(s))).strip();
  }

  /** Reasoning blocks removed, and anything up to a stray closing tag; stripped. */
  static String withoutThinking(String text) {
    String out = text.replaceAll("(?s)<think>.*?</think>", "").replaceAll("(?s)<thinking>.*?</thinking>", "");
    int close = out.indexOf("</think>");
    if (close >= 0) {
      out = out.substring(close + "</think>".length());
    }
    close = out.indexOf("</thinking>");
    if (close >= 0) {
      out = out.substring(close + "</thinking>".length());
    }
    return PythonText.strip(out);
  }

  private static String text(JsonNode value) {
    return value.isString() ? value.stringValue() : "";
  }
}
