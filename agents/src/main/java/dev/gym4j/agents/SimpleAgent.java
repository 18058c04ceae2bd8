package dev.gym4j.agents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ServerKind;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
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
 * {@code simple_agent}, NeMo Gym's loop: call the model with the task's request; run each
 * {@code function_call} on the environment as {@code POST /<name>} with the parsed arguments and give the
 * raw answer back as a {@code function_call_output} (only for a tool the request offers: see
 * {@link OfferedTools}; any other name gets a tool error and is never sent); repeat until the model answers without calling a
 * tool, the response is incomplete, or {@code max_steps} is reached. Output items are passed on verbatim,
 * token ids included, so training histories stay append-only; usage is summed over the calls.
 *
 * <p>{@code /run} seeds the environment's session, runs the loop and verifies, threading the session
 * cookies by hand. It has a deadline ({@code rollout_timeout_seconds}, default 1 hour): a rollout past it
 * fails as {@code timeout} instead of hanging.
 *
 * <p>Settings: {@code resources_server} and {@code model_server} ({@code {type, name}} references),
 * {@code max_steps} (null or 0: no limit), {@code skip_verification}, {@code skip_verification_reward},
 * {@code rollout_timeout_seconds}.
 */
@Implementation("simple_agent")
public final class SimpleAgent extends AgentServer {
  private String resourcesServer;
  private String modelServer;
  private int maxSteps;
  private boolean skipVerification;
  private double skipVerificationReward;
  private final Rollouts rollouts = new Rollouts();

  @Override
  protected void start() {
    resourcesServer = References.of(context(), "resources_server", ServerKind.RESOURCES);
    modelServer = References.of(context(), "model_server", ServerKind.MODEL);
    maxSteps = context().config().path("max_steps").asInt(0);
    skipVerification = context().config().path("skip_verification").asBoolean(false);
    skipVerificationReward = context().config().path("skip_verification_reward").asDouble(0.0);
    rollouts.start(context());
  }

  @Override
  protected void stop() {
    rollouts.stop();
  }

  @Override
  protected Object responses(ResponseCreateParams request, Call call) {
    Map<String, String> resourceCookies = new HashMap<>(call.cookies());
    Episode episode = loop(request, resourceCookies);
    episode.cookies().forEach(call::setCookie);
    return episode.response();
  }

  @Override
  protected Object run(ObjectNode row, Call call) {
    return rollouts.run(() -> runRollout(row, call.cookies()));
  }


  private ObjectNode runRollout(ObjectNode row, Map<String, String> incoming) {
    ServerClient client = context().client();
    Map<String, String> cookies = new HashMap<>(incoming);
    HttpReply seed = Calls.call("resources_error", () -> client.post(resourcesServer, "/seed_session", row, cookies));
    Calls.requireOk(seed, "resources_error", "seed_session");
    cookies.putAll(seed.cookies());

    ResponseCreateParams request = new ResponseCreateParams((ObjectNode) row.get("responses_create_params"));
    Episode episode = loop(request, cookies);
    cookies.putAll(episode.cookies());

    ObjectNode verifyRequest = row.deepCopy();
    verifyRequest.set("response", episode.response().json());
    if (skipVerification) {
      verifyRequest.put("reward", skipVerificationReward);
      verifyRequest.put("verification_skipped", true);
      return verifyRequest;
    }
    HttpReply verify = Calls.call("verify_error", () -> client.post(resourcesServer, "/verify", verifyRequest, cookies));
    try {
      Calls.requireOk(verify, "verify_error", "verify");
    } catch (RolloutFailure failure) {
      // the episode is done: keep it with the failure, so that verify can be run again without the model
      throw failure.withResponse(verifyRequest.get("response"));
    }
    JsonNode verdict = verify.json();
    if (!(verdict instanceof ObjectNode result) || !verdict.path("reward").isNumber()) {
      throw new RolloutFailure("verify_error", 502, "verify answered without a numeric reward: "
          + Calls.abbreviate(verify.text()), null);
    }
    return result;
  }

  /** The model/tool loop of one episode. */
  private Episode loop(ResponseCreateParams request, Map<String, String> resourceCookies) {
    ServerClient client = context().client();
    List<Item> input = request.input();
    OfferedTools tools = OfferedTools.of(request);
    List<Item> outputs = new ArrayList<>();
    Map<String, String> modelCookies = new HashMap<>();
    Usage usage = null;
    Response last;
    int step = 0;
    while (true) {
      step++;
      List<Item> history = new ArrayList<>(input);
      history.addAll(outputs);
      ResponseCreateParams turn = request.withInput(history);
      HttpReply reply = Calls.call("model_error", () -> client.post(modelServer, "/v1/responses", turn, modelCookies));
      Calls.requireOk(reply, "model_error", "the model call");
      modelCookies.putAll(reply.cookies());
      try {
        last = Response.of(reply.json());
      } catch (FieldError | JacksonException e) {
        throw new RolloutFailure("model_error", 502, "the model server gave an invalid response: " + e, e);
      }
      List<Item> produced = last.output();
      outputs.addAll(produced);
      if (last.usage().isPresent()) {
        usage = usage == null ? last.usage().get() : usage.plus(last.usage().get());
      }
      if (last.isIncomplete()) {
        break;
      }
      List<FunctionCall> calls = new ArrayList<>();
      boolean answered = false;
      for (Item item : produced) {
        if (item instanceof FunctionCall functionCall) {
          calls.add(functionCall);
        } else if (item instanceof Message message && "assistant".equals(message.role())) {
          answered = true;
        }
      }
      if (calls.isEmpty() && answered) {
        break;
      }
      for (FunctionCall functionCall : calls) {
        outputs.add(FunctionCallOutput.of(functionCall.callId(), runTool(functionCall, tools, resourceCookies)));
      }
      if (maxSteps > 0 && step >= maxSteps) {
        break;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new RolloutFailure("timeout", 504, "the rollout was stopped at its deadline", null);
      }
    }
    Map<String, String> cookies = new HashMap<>(resourceCookies);
    cookies.putAll(modelCookies);
    return new Episode(last.withOutput(outputs).withUsage(usage), cookies);
  }

  /**
   * A tool's answer as text, whatever its status. A call to a tool the request does not offer, and arguments
   * that do not parse, never reach the environment: the model gets the error instead.
   */
  private String runTool(FunctionCall call, OfferedTools tools, Map<String, String> cookies) {
    Optional<String> refusal = tools.refusal(call.name());
    if (refusal.isPresent()) {
      return refusal.get();
    }
    JsonNode arguments;
    try {
      arguments = Json.parse(call.arguments());
    } catch (JacksonException e) {
      ObjectNode error = Json.object();
      error.put("error", "Invalid tool call arguments: " + e.getOriginalMessage());
      return Json.write(error);
    }
    HttpReply reply = Calls.call("resources_error", () -> context().client().post(resourcesServer, "/" + call.name(),
        arguments, cookies));
    cookies.putAll(reply.cookies());
    return reply.text();
  }

  /** One episode's folded response and the cookies it ended with. */
  private record Episode(Response response, Map<String, String> cookies) {}
}
