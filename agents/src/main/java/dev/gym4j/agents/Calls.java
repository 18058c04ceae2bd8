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
   * A non-2xx answer fails the rollout, under the failure class the answer names ({@code _ng_failure_class},
   * e.g. {@code judge_error} from a verify whose judge failed), else under the given one.
   */
  static void requireOk(HttpReply reply, String failureClass, String what) {
    if (!reply.ok()) {
      int status = reply.status();
      throw new RolloutFailure(namedClass(reply).orElse(failureClass),
          status == 504 || (status >= 400 && status < 500) ? status : 502,
          what + " answered " + status + ": " + abbreviate(reply.text()), null);
    }
  }

  /** The failure class an error body names, if it is a plain snake_case word (the body is not ours to trust). */
  static java.util.Optional<String> namedClass(HttpReply reply) {
    try {
      String named = reply.json().path(dev.gym4j.agent.AgentServer.FAILURE_CLASS).asString("");
      return named.matches("[a-z][a-z0-9_]{0,63}") ? java.util.Optional.of(named) : java.util.Optional.empty();
    } catch (RuntimeException notJson) {
      return java.util.Optional.empty();
    }
  }

  static String abbreviate(String text) {
    return text.length() <= 500 ? text : text.substring(0, 500) + "…";
  }
}
