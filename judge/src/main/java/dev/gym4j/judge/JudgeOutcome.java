package dev.gym4j.judge;

import java.util.Optional;

import dev.gym4j.agent.RolloutFailure;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one judge call came to: a {@link Verdict}, or a {@link Failed} call of class {@value #JUDGE_ERROR}
 * (no usable answer: transport, 5xx, 4xx, the deadline) or {@value #JUDGE_UNPARSEABLE} (an answer without a
 * recognizable verdict). A failure is never a reward: {@link #orThrow} turns it into a {@link RolloutFailure},
 * which sends the rollout to the failures file under its class.
 */
public sealed interface JudgeOutcome<T> {
  /** The judge could not be asked, or did not answer, within its attempts and deadline. */
  String JUDGE_ERROR = "judge_error";
  /** The judge answered, but without a verdict the parser recognizes. */
  String JUDGE_UNPARSEABLE = "judge_unparseable";

  /**
   * The exchange as NeMo Gym keeps it in {@code judge_evaluations}: {@code responses_create_params} (the
   * request) and {@code response} (the judge's answer); absent when no answer came.
   */
  Optional<ObjectNode> evaluation();

  /** The verdict, or a {@link RolloutFailure} of the outcome's class. */
  T orThrow();

  /**
   * The verdict; for an environment that asks several judge calls and scores each (one per rubric criterion,
   * say), under {@code judge_unparseable: zero} an answer without a verdict reads as {@code zeroVerdict}, the
   * verdict NeMo Gym gives that call (the criterion fails) rather than 0 for the whole rollout. Otherwise as
   * {@link #orThrow()}.
   */
  default T orThrow(T zeroVerdict) {
    return this instanceof Failed<T> failed && failed.scoresZero() ? zeroVerdict : orThrow();
  }

  /** The judge answered and the parser found a verdict in its text. */
  record Verdict<T>(T value, String text, ObjectNode exchange) implements JudgeOutcome<T> {
    @Override
    public Optional<ObjectNode> evaluation() {
      return Optional.of(exchange);
    }

    @Override
    public T orThrow() {
      return value;
    }
  }

  /**
   * The judge call failed; {@code failureClass} is {@value #JUDGE_ERROR} or {@value #JUDGE_UNPARSEABLE}.
   * {@code scoresZero}: the environment's {@code judge_unparseable: zero} applies to this failure.
   */
  record Failed<T>(String failureClass, String message, boolean timedOut, Optional<ObjectNode> evaluation,
      boolean scoresZero) implements JudgeOutcome<T> {
    /**
     * Fails the rollout ({@link #failure()}); or, under {@code judge_unparseable: zero}, ends the verify with
     * reward 0.0, {@code judge_unparseable: true} and the exchange in {@code judge_evaluations}.
     */
    @Override
    public T orThrow() {
      if (scoresZero) {
        ObjectNode fields = dev.gym4j.json.Json.object().put(JUDGE_UNPARSEABLE, true);
        evaluation.ifPresent(exchange -> fields.putArray("judge_evaluations").add(exchange));
        throw new dev.gym4j.resources.ZeroReward(message, fields);
      }
      throw failure();
    }

    /** The rollout failure this outcome becomes: 504 when the deadline passed, else 502. */
    public RolloutFailure failure() {
      return new RolloutFailure(failureClass, timedOut ? 504 : 502, message, null);
    }
  }
}
