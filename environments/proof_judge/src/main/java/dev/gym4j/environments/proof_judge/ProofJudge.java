package dev.gym4j.environments.proof_judge;

import java.util.Map;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import dev.gym4j.judge.Judge;
import dev.gym4j.judge.JudgeOutcome;
import dev.gym4j.judge.PromptTemplate;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Theorem proving with a self-evaluation (NeMo Gym's proof_judge): the model writes {@code ## Solution}, then
 * {@code ## Self Evaluation} ending in {@code \boxed{0|0.5|1}}. A verifier judge scores the proof
 * ({@code r_y}, its last {@code \boxed{}} score); with {@code beta} above 0 a meta-verifier also scores the
 * self-evaluation ({@code r_meta}), and the reward is {@code alpha * r_y + beta * (1 - |s' - r_y|) * r_meta}.
 * A response out of format, or too long, scores 0 without a judge. A judge answer without a valid score
 * fails the rollout as {@code judge_unparseable}; NeMo Gym counts it 0.
 */
@Implementation("proof_judge")
public final class ProofJudge extends ResourcesServer {
  static final String SOLUTION = "## Solution";
  static final String SELF_EVALUATION = "## Self Evaluation";
  static final String VERIFIER_PROMPT = """
      Evaluate a solution to the problem below. If the problem asks for an answer, the solution must give \
      it and rigorously prove it; if it asks for a proof, the proof must be complete.

      Score 1 when the solution is completely correct, every step done properly and clearly; 0.5 when it is \
      correct in general but omits details or has minor errors; 0 when it does not address the problem, has \
      a fatal error or severe omissions. Citing a paper proves nothing unless the solution also proves what \
      it cites.

      Analyse the solution carefully, then write your evaluation and end with the score as \\boxed{{score}}, \
      where score is 0, 0.5 or 1 and nothing else.

      ## Problem
      {problem}

      ## Solution
      {proof}""";
  static final String META_VERIFIER_PROMPT = """
      A solution to the problem below comes with its author's own evaluation. Judge whether that evaluation \
      is accurate: does it find the real errors and omissions of the solution, and does its score (0, 0.5 or \
      1) fit them?

      Score 1 when the evaluation is accurate, 0.5 when it is partly accurate, 0 when it is wrong. End with \
      the score as \\boxed{{score}}, where score is 0, 0.5 or 1 and nothing else.

      ## Problem
      {problem}

      ## Solution
      {proof}

      ## Evaluation of the solution
      {proof_analysis}""";

  private Judge judge;
  private PromptTemplate verifier;
  private PromptTemplate metaVerifier;
  private double alpha;
  private double beta;
  private boolean assertThinkEnd;

  @Override
  protected void start() {
    JsonNode config = context().config();
    if (config.path("zero_reward_incorrect_groups").asBoolean(false)) {
      throw new ConfigException(context().path("zero_reward_incorrect_groups") + " is not supported: it makes "
          + "each rollout wait for its whole group, with no deadline");
    }
    judge = ProofJudging.judge(context());
    verifier = PromptTemplate.of(VERIFIER_PROMPT);
    metaVerifier = PromptTemplate.of(META_VERIFIER_PROMPT);
    alpha = config.path("alpha").asDouble(1.0);
    beta = config.path("beta").asDouble(0.0);
    assertThinkEnd = config.path("assert_think_end").asBoolean(false);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode problemField = request.field("problem");
    String problem = problemField.isString() ? problemField.stringValue() : "";
    String text = ProofJudging.assistantText(request.json().path("response").path("output"));
    if (text.isEmpty()) {
      return Verification.of(0.0).with("r_format", 0.0).with("reason", "empty_response");
    }
    String response = ProofJudging.afterThinking(text, assertThinkEnd);
    if (response == null) {
      return formatFailure("missing_think_end");
    }
    int solution = response.indexOf(SOLUTION);
    if (solution < 0) {
      return formatFailure("missing_solution_header");
    }
    String afterSolution = response.substring(solution + SOLUTION.length());
    int selfEvaluation = afterSolution.indexOf(SELF_EVALUATION);
    if (selfEvaluation < 0) {
      return formatFailure("missing_self_eval_header");
    }
    String proof = dev.gym4j.text.PythonText.strip(afterSolution.substring(0, selfEvaluation));
    String analysis = dev.gym4j.text.PythonText.strip(afterSolution.substring(selfEvaluation
        + SELF_EVALUATION.length()));
    var selfScore = ProofJudging.boxedScore(analysis);
    if (selfScore.isEmpty()) {
      return formatFailure("invalid_boxed_score");
    }
    if (proof.length() > ProofJudging.MAX_PROOF_CHARS) {
      return formatFailure("proof_too_long").with("proof_length", proof.length());
    }
    if (analysis.length() > ProofJudging.MAX_VERIFICATION_CHARS) {
      return formatFailure("self_verification_too_long").with("self_verification_length", analysis.length());
    }
    ArrayNode evaluations = Json.array();
    double ry = score(verifier.render(Map.of("problem", problem, "proof", proof)), evaluations);
    if (beta == 0) {
      return Verification.of(alpha * ry).with("r_y", ry).with("s_prime", selfScore.get())
          .with("judge_evaluations", evaluations);
    }
    double meta = score(metaVerifier.render(Map.of("problem", problem, "proof", proof, "proof_analysis", analysis)),
        evaluations);
    double rz = (1.0 - Math.abs(selfScore.get() - ry)) * meta;
    return Verification.of(alpha * ry + beta * rz).with("r_y", ry).with("r_meta", meta)
        .with("s_prime", selfScore.get()).with("judge_evaluations", evaluations);
  }

  private double score(String prompt, ArrayNode evaluations) {
    JudgeOutcome<Double> outcome = judge.ask(prompt, ProofJudging::boxedScore);
    double score = outcome.orThrow();
    evaluations.add(outcome.evaluation().orElseThrow());
    return score;
  }

  private static Verification formatFailure(String reason) {
    return Verification.of(0.0).with("r_format", 0.0).with("reason", reason);
  }
}
