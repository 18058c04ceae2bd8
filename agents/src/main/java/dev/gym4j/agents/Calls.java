package dev.gym4j.agents;

import java.util.function.Supplier;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.UpstreamException;

/** An agent's calls to other servers, whose failures end the rollout as typed failures. */
final class Calls {
  private Calls() {}

  /** Makes a call; a call that got no answer fails the rollout with the given class (or as a timeout). */
  static HttpReply call(String failureClass, Supplier<HttpReply> request) {
    try {
      return request.get();
    } catch (UpstreamException e) {
      boolean timeout = e.kind() == UpstreamException.Kind.TIMEOUT;
      throw new RolloutFailure(timeout ? "timeout" : failureClass, timeout ? 504 : 502, e.getMessage(), e);
    }
  }

  /** A non-2xx answer fails the rollout. */
  static void requireOk(HttpReply reply, String failureClass, String what) {
    if (!reply.ok()) {
      throw new RolloutFailure(failureClass, reply.status() == 504 ? 504 : 502, what + " answered " + reply.status()
          + ": " + abbreviate(reply.text()), null);
    }
  }

  static String abbreviate(String text) {
    return text.length() <= 500 ? text : text.substring(0, 500) + "…";
  }
}
