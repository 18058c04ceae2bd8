package dev.gym4j.agents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.config.ServerKind;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCallOutput;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import dev.gym4j.wire.Usage;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code gymnasium_agent}: drives a Gymnasium-style environment. {@code /reset} with the task row (its
 * observation, if any, becomes a user message); then each turn one model call and a {@code /step} with the
 * row and that response; tool outputs in the step's {@code info.tool_outputs} and the next observation go
 * back into the conversation unless the episode has ended (NeMo Gym's gymnasium_agent drops the final
 * observation too); rewards are summed. The episode ends when the environment says so, or after
 * {@code max_steps} turns (default 10), which marks it truncated.
 *
 * <p>{@code /v1/responses} is one model call; a streamed Anthropic {@code /v1/messages} call keeps the model's
 * cookies for the caller's agent session, as {@link VerifyingAgent} does ({@code max_sessions},
 * {@code session_ttl_seconds}).
 */
@Implementation("gymnasium_agent")
public final class GymnasiumAgent extends AgentServer {
  private final Rollouts rollouts = new Rollouts();
  private EpisodeCookies episodeCookies;
  private String environment;
  private String model;
  private int maxSteps;

  @Override
  protected void start() {
    environment = References.of(context(), "resources_server", ServerKind.RESOURCES);
    model = References.of(context(), "model_server", ServerKind.MODEL);
    maxSteps = Math.max(1, context().config().path("max_steps").asInt(10));
    episodeCookies = EpisodeCookies.of(this);
    rollouts.start(context());
  }

  @Override
  protected void stop() {
    rollouts.stop();
  }

  @Override
  protected Object responses(ResponseCreateParams request, Call call) {
    Map<String, String> cookies = episodeCookies.startingWith(call);
    HttpReply reply = Calls.call("model_error", () -> context().client().post(model, "/v1/responses", request,
        cookies));
    Calls.requireOk(reply, "model_error", "the model call");
    reply.cookies().forEach(call::setCookie);
    cookies.putAll(reply.cookies());
    // an Anthropic stream's headers are out before the model answers: its cookies are kept instead
    episodeCookies.ended(call, cookies, EpisodeCookies.streamedMessages(call));
    return reply.json();
  }

  @Override
  protected Object run(ObjectNode row, Call call) {
    Map<String, String> cookies = episodeCookies.startingWith(call);
    return rollouts.run(() -> episode(row, cookies));
  }

  private ObjectNode episode(ObjectNode row, Map<String, String> incoming) {
    Map<String, String> environmentCookies = new HashMap<>(incoming);
    HttpReply reset = Calls.call("resources_error", () -> context().client().post(environment, "/reset", row,
        environmentCookies));
    Calls.requireOk(reset, "resources_error", "reset");
    environmentCookies.putAll(reset.cookies());
    ResponseCreateParams params = new ResponseCreateParams((ObjectNode) row.get("responses_create_params"));
    List<Item> input = new ArrayList<>(params.input());
    String firstObservation = reset.json().path("observation").asString(null);
    if (firstObservation != null && !firstObservation.isEmpty()) {
      input.add(Message.of("user", firstObservation));
    }
    params = params.withInput(input);

    List<Item> outputs = new ArrayList<>();
    Map<String, String> modelCookies = new HashMap<>();
    Usage usage = null;
    Response last = null;
    double totalReward = 0;
    JsonNode step = null;
    boolean finished = false;
    for (int turn = 0; turn < maxSteps && !finished; turn++) {
      List<Item> history = new ArrayList<>(input);
      history.addAll(outputs);
      ResponseCreateParams request = params.withInput(history);
      HttpReply reply = Calls.call("model_error", () -> context().client().post(model, "/v1/responses", request,
          modelCookies));
      Calls.requireOk(reply, "model_error", "the model call");
      modelCookies.putAll(reply.cookies());
      try {
        last = Response.of(reply.json());
      } catch (FieldError | JacksonException e) {
        throw new RolloutFailure("model_error", 502, "the model server gave an invalid response: " + e, e);
      }
      outputs.addAll(last.output());
      if (last.usage().isPresent()) {
        usage = usage == null ? last.usage().get() : usage.plus(last.usage().get());
      }
      ObjectNode stepRequest = row.deepCopy();
      stepRequest.set("response", last.json());
      HttpReply stepReply = Calls.call("resources_error", () -> context().client().post(environment, "/step",
          stepRequest, environmentCookies));
      Calls.requireOk(stepReply, "resources_error", "step");
      environmentCookies.putAll(stepReply.cookies());
      step = stepReply.json();
      totalReward += step.path("reward").asDouble(0);
      finished = step.path("terminated").asBoolean(false) || step.path("truncated").asBoolean(false);
      if (finished) {
        // as NeMo Gym's gymnasium_agent: the last observation is not part of the conversation
        break;
      }
      for (JsonNode toolOutput : step.path("info").path("tool_outputs")) {
        outputs.add(FunctionCallOutput.of(toolOutput.path("call_id").asString(), toolOutput.path("output").asString()));
      }
      String observation = step.path("observation").asString(null);
      if (observation != null && !observation.isEmpty()) {
        outputs.add(Message.of("user", observation));
      }
    }
    ObjectNode result = Json.object();
    result.set("responses_create_params", params.json());
    result.set("response", last.withOutput(outputs).withUsage(usage).json());
    result.put("reward", totalReward);
    result.put("terminated", step.path("terminated").asBoolean(false));
    result.put("truncated", !finished || step.path("truncated").asBoolean(false));
    result.set("info", step.path("info").isObject() ? step.get("info") : Json.object());
    return result;
  }
}
