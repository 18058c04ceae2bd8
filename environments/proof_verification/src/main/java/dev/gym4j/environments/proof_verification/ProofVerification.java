package dev.gym4j.environments.proof_verification;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.environments.proof_judge.ProofJudging;
import dev.gym4j.json.FieldError;
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

/**
 * Grading proofs (NeMo Gym's proof_verification): the model evaluates a given proof and ends with a score in
 * {@code \boxed{0|0.5|1}}. Its agreement with the row's {@code ground_truth_verify_score},
 * {@code r_score = 1 - |predicted - truth|}, is weighed by a meta-verifier judge that compares the model's
 * evaluation with {@code ground_truth_judgement} ({@code r_meta}, its last boxed score): reward
 * {@code r_score * r_meta}. A response out of format or too long scores 0 without a judge. A judge answer
 * without a valid score fails the rollout as {@code judge_unparseable}; NeMo Gym counts it 0.
 */
@Implementation("proof_verification")
public final class ProofVerification extends ResourcesServer {
  static final String META_VERIFIER_PROMPT = """
      Below are a problem, a proof, an expert's evaluation of the proof and a candidate evaluation of the \
      same proof. Judge whether the candidate evaluation is accurate, taking the expert's as the reference: \
      does it find the same real errors and omissions, and does its score (0, 0.5 or 1) fit them?

      Score 1 when the candidate evaluation is accurate, 0.5 when it is partly accurate, 0 when it is wrong. \
      End with the score as \\boxed{{score}}, where score is 0, 0.5 or 1 and nothing else.

      ## Problem
      {problem}

      ## Proof
      {proof}

      ## Expert evaluation
      {ground_truth_judgement}

      ## Candidate evaluation
      {candidate_judgement}""";

  private Judge judge;
  private PromptTemplate metaVerifier;
  private boolean assertThinkEnd;

  @Override
  protected void start() {
    judge = ProofJudging.judge(context());
    metaVerifier = PromptTemplate.of(META_VERIFIER_PROMPT);
    assertThinkEnd = context().config().path("assert_think_end").asBoolean(false);
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String problem = text(request.field("problem"));
    String proof = text(request.field("proof"));
    String truthJudgement = required(request, "ground_truth_judgement");
    JsonNode truthField = request.field("ground_truth_verify_score");
    if (!truthField.isNumber()) {
      throw new FieldError(List.of("ground_truth_verify_score"), "Field required: a number", "missing");
    }
    double truth = truthField.asDouble();
    String text = ProofJudging.assistantText(request.json().path("response").path("output"));
    if (text.isEmpty()) {
      return Verification.of(0.0);
    }
    String verification = ProofJudging.afterThinking(text, assertThinkEnd);
    if (verification == null) {
      return formatFailure("missing_think_end");
    }
    Optional<Double> predicted = ProofJudging.boxedScore(verification);
    if (predicted.isEmpty()) {
      return formatFailure("invalid_boxed_score");
    }
    if (proof.length() > ProofJudging.MAX_PROOF_CHARS) {
      return formatFailure("proof_too_long").with("proof_length", proof.length());
    }
    if (verification.length() > ProofJudging.MAX_VERIFICATION_CHARS) {
      return formatFailure("verification_too_long").with("verification_length", verification.length());
    }
    if (truth != 0 && truth != 0.5 && truth != 1) {
      return Verification.of(0.0).with("r_format", 1.0).with("reason", "invalid_ground_truth_score");
    }
    double rScore = 1.0 - Math.abs(predicted.get() - truth);
    JudgeOutcome<Double> outcome = judge.ask(metaVerifier.render(Map.of("problem", problem, "proof", proof,
        "ground_truth_judgement", truthJudgement, "candidate_judgement", verification)), ProofJudging::boxedScore);
    double meta = outcome.orThrow();
    return Verification.of(rScore * meta).with("predicted_score", predicted.get()).with("r_score", rScore)
        .with("r_meta", meta).with("judge_evaluations", Json.array().add(outcome.evaluation().orElseThrow()));
  }

  private static Verification formatFailure(String reason) {
    return Verification.of(0.0).with("r_format", 0.0).with("reason", reason);
  }

  private static String required(VerifyRequest request, String field) {
    JsonNode value = request.field(field);
    if (!value.isString()) {
      throw new FieldError(List.of(field), "Field required: a string", "missing");
    }
    return value.stringValue();
  }

  private static String text(JsonNode value) {
    return value.isString() ? value.stringValue() : "";
  }
}
