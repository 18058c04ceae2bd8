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

  /**
   * A non-2xx answer fails the rollout, with the answer's status when it was the request's fault (4xx) or a
   * timeout (504), and 502 for any other failure of the server called.
   */
  static void requireOk(HttpReply reply, String failureClass, String what) {
    if (!reply.ok()) {
      int status = reply.status();
      throw new RolloutFailure(failureClass, status == 504 || (status >= 400 && status < 500) ? status : 502,
          what + " answered " + status + ": " + abbreviate(reply.text()), null);
    }
  }

  static String abbreviate(String text) {
    return text.length() <= 500 ? text : text.substring(0, 500) + "…";
  }
}
