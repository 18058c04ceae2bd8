package dev.gym4j.model;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import dev.gym4j.client.Probe;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.Json;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a model server's {@code GET /upstream_health} answers: whether its upstream (the inference endpoint it
 * calls) answers at all, checked once with a short deadline. {@code status} is {@code ok} or {@code down};
 * {@code failure} says what failed: {@code unreachable} (nothing listens, or the connection failed),
 * {@code timeout} (no answer within the deadline), {@code unauthorized} (401 or 403: the key is refused) or
 * {@code server_error} (5xx). Any other answer counts as up: the endpoint listens and answers; an upstream
 * without the route probed ({@code /models}) is not down. The URL shown is redacted and the detail names no
 * secret.
 */
public record UpstreamHealth(boolean ok, String upstream, String failure, String detail) {

  /** A model server without an upstream (replay_model): always up. */
  public static UpstreamHealth none(String what) {
    return new UpstreamHealth(true, what, null, "no upstream to call");
  }

  /** One GET of {@code url} with these headers, given up after {@code deadline}. */
  public static UpstreamHealth probe(URI url, Map<String, String> headers, Duration deadline) {
    String shown = Secrets.redact(Probe.withoutUserInfo(url.toString()));
    Probe.Result result = Probe.get(url, headers, deadline, "the upstream " + shown);
    if (!result.answered()) {
      return down(shown, result.failure(), result.detail());
    }
    int status = result.response().statusCode();
    if (status == 401 || status == 403) {
      return down(shown, "unauthorized", "the upstream " + shown + " refused the configured credentials (" + status
          + ")");
    }
    if (status >= 500) {
      return down(shown, "server_error", "the upstream " + shown + " answered " + status);
    }
    return new UpstreamHealth(true, shown, null, "the upstream " + shown + " answered " + status);
  }

  private static UpstreamHealth down(String shown, String failure, String detail) {
    return new UpstreamHealth(false, shown, failure, detail);
  }

  /** The answer's body. */
  public ObjectNode json() {
    ObjectNode json = Json.object();
    json.put("status", ok ? "ok" : "down");
    json.put("upstream", upstream);
    if (failure != null) {
      json.put("failure", failure);
    }
    json.put("detail", detail);
    return json;
  }
}
