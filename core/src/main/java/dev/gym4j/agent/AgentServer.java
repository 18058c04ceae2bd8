package dev.gym4j.agent;

import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Shape;
import dev.gym4j.server.Call;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Routes;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An agent server: the loop between a model and an environment. {@code POST /v1/responses} runs the loop
 * for a request and returns the whole episode as one response; {@code POST /run} runs one rollout of a
 * task row end to end (seed, loop, verify) and returns the verify response.
 *
 * <p>A rollout that cannot finish (model or environment unreachable, a deadline passed) is answered with
 * a non-2xx status and a body whose {@code _ng_failure_class} names the kind of failure, so the collector
 * records it as a failure, never as a reward.
 */
public abstract class AgentServer extends GymServer {
  /** The body field that names a failed rollout's kind, as in NeMo Gym's failure sidecar rows. */
  public static final String FAILURE_CLASS = "_ng_failure_class";

  /** Counts finished rollouts by outcome: {@code success} or the failure class. */
  private void outcome(String outcome) {
    io.micrometer.core.instrument.Counter.builder("gym4j.rollouts").tag("server", context().name())
        .tag("outcome", outcome).register(dev.gym4j.server.Metrics.REGISTRY).increment();
  }

  /** A failed episode's answer: its status, a detail, and the failure class in body and header. */
  private static dev.gym4j.server.Reply failed(RolloutFailure failure) {
    ObjectNode body = dev.gym4j.server.ErrorBodies.detail(failure.getMessage());
    body.put(FAILURE_CLASS, failure.failureClass());
    failure.response().ifPresent(response -> body.set("response", response));
    // the failure is final for this attempt: the collector decides whether to try the rollout again
    return dev.gym4j.server.Reply.of(failure.status(), body)
        .withHeader(dev.gym4j.client.ServerClient.UPSTREAM_FAILURE_HEADER, failure.failureClass());
  }

  @Override
  public final ServerKind kind() {
    return ServerKind.AGENT;
  }

  /**
   * The episode for a request: a {@link dev.gym4j.wire.Response}, whose tree is the caller's (it is made valid
   * in place and sent), or any other answer, sent as it is.
   */
  protected abstract Object responses(ResponseCreateParams request, Call call);

  protected abstract Object run(ObjectNode row, Call call);

  /**
   * {@code POST /v1/responses} with {@code "stream": true}: by default the episode is played to its end and
   * then streamed as Responses events, so a failure keeps its HTTP status; an agent that can stream its
   * items as they are produced overrides this.
   */
  protected Object streamResponses(ResponseCreateParams request, Call call) {
    Object answer = responses(request, call);
    if (!(answer instanceof dev.gym4j.wire.Response response)) {
      return answer;
    }
    return dev.gym4j.server.ServerSentEvents.stream(sink -> dev.gym4j.wire.ResponseEvents.replay(response, sink));
  }

  /**
   * Whether {@link #streamResponses} streams the episode while it runs; then a streamed {@code /v1/messages} is
   * made from it too. By default it does not, and {@code /v1/messages} pings its reader until the episode ends.
   */
  protected boolean streamsLive() {
    return false;
  }

  /**
   * The answer to {@code POST /aggregate_metrics} ({@code {"verify_responses": [...]}}): by default computed
   * here, as NeMo Gym's agents do; an agent that proxies it to its environment overrides this.
   */
  protected Object aggregateMetrics(ObjectNode body, Call call) {
    return dev.gym4j.metrics.AggregateMetrics.ofRequest(body);
  }

  @Override
  protected void routes(Routes routes) {
    var rolloutsInFlight = dev.gym4j.server.Metrics.gauge("gym4j.rollouts.in_flight", context().name());
    routes.post("/v1/responses", call -> {
      ObjectNode body = call.bodyObject();
      boolean stream = dev.gym4j.wire.Streaming.asked(body);
      ResponseCreateParams request = ResponseCreateParams.of(stream ? dev.gym4j.wire.Streaming.without(body) : body);
      try {
        if (stream) {
          return streamResponses(request, call);
        }
        Object answer = responses(request, call);
        return answer instanceof dev.gym4j.wire.Response response
            ? dev.gym4j.wire.OpenAIShapes.responseInPlace(response.json()) : answer;
      } catch (RolloutFailure failure) {
        // the model's 4xx, 502 or 504 is passed on, not turned into a 500
        return failed(failure);
      }
    });
    routes.openAICompatible("/v1/responses");
    // the episode in the Anthropic Messages API, streamed or not
    routes.post("/v1/messages", call -> dev.gym4j.model.MessagesRoute.handle(call, params -> responses(params, call),
        params -> streamsLive() ? streamResponses(params, call) : null, dev.gym4j.model.MessagesRoute.Live.EPISODE));
    routes.anthropicCompatible("/v1/messages");
    var metricsLimits = dev.gym4j.metrics.MetricsLimits.of(context());
    routes.post("/aggregate_metrics", call -> metricsLimits.serve(call, body -> {
      try {
        return aggregateMetrics(body, call);
      } catch (RolloutFailure failure) {
        return failed(failure);
      }
    }));
    routes.post("/run", call -> {
      ObjectNode row = call.bodyObject();
      JsonNode params = Shape.required(row, "responses_create_params", java.util.List.of());
      ResponseCreateParams.of(params, java.util.List.of("responses_create_params"));
      rolloutsInFlight.incrementAndGet();
      try {
        Object result = run(row, call);
        outcome("success");
        return result;
      } catch (RolloutFailure failure) {
        outcome(failure.failureClass());
        return failed(failure);
      } finally {
        rolloutsInFlight.decrementAndGet();
      }
    });
  }
}
