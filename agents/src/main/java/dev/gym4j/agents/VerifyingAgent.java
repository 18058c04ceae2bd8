package dev.gym4j.agents;

import java.util.HashMap;
import java.util.Map;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ServerKind;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What NeMo Gym's Responses-API agents share: a rollout ({@code /run}) seeds the environment's session
 * (unless the agent says not to), plays one episode, and has the environment verify it; {@code
 * /v1/responses} plays the episode alone. A subclass says what an episode is ({@link #episode}).
 *
 * <p>Settings: {@code resources_server} and {@code model_server} ({@code {type, name}} references),
 * {@code skip_verification}, {@code skip_verification_reward}, {@code rollout_timeout_seconds} (default one
 * hour: a rollout past it fails as {@code timeout}), and {@code max_sessions} and {@code session_ttl_seconds}
 * for the cookies streamed episodes ended with ({@link EpisodeCookies}). Cookies are threaded by hand, as NeMo
 * Gym's agents do; a caller's request continues with the cookies its session's last streamed episode ended with,
 * under the ones the request carries.
 */
abstract class VerifyingAgent extends AgentServer {
  private String resourcesServer;
  private String modelServer;
  private boolean skipVerification;
  private double skipVerificationReward;
  private final Rollouts rollouts = new Rollouts();
  private EpisodeCookies episodeCookies;

  @Override
  protected final void start() {
    resourcesServer = References.of(context(), "resources_server", ServerKind.RESOURCES);
    modelServer = References.of(context(), "model_server", ServerKind.MODEL);
    skipVerification = context().config().path("skip_verification").asBoolean(false);
    skipVerificationReward = context().config().path("skip_verification_reward").asDouble(0.0);
    episodeCookies = EpisodeCookies.of(this);
    configure();
    rollouts.start(context());
  }

  /** Reads the subclass's own settings; called once at start, before any request. */
  protected void configure() {}

  @Override
  protected final void stop() {
    rollouts.stop();
  }

  /** Whether {@code /run} calls the environment's {@code /seed_session} first (NeMo Gym's tool_simulation_agent does not). */
  protected boolean seedsSession() {
    return true;
  }

  /**
   * One episode for the request: the response to verify, and the cookies it ended with. {@code cookies} holds
   * the environment's session; failures are {@link RolloutFailure}s.
   */
  protected abstract Episode episode(ResponseCreateParams request, Map<String, String> cookies);

  /**
   * The episode, telling {@code produced} of each output item as soon as it is final: an agent that can,
   * overrides this (and the two-argument form calls it); by default the items are told at the end.
   */
  protected Episode episode(ResponseCreateParams request, Map<String, String> cookies, ItemSink produced) {
    Episode episode = episode(request, cookies);
    for (dev.gym4j.wire.Item item : episode.response().output()) {
      produced.accept(item);
    }
    return episode;
  }

  /** Where an episode hands its output items while it runs. */
  @FunctionalInterface
  protected interface ItemSink {
    void accept(dev.gym4j.wire.Item item);
  }

  /**
   * The episode streamed as it runs: {@code response.created} at once, each output item when it is final,
   * {@code response.completed} with the same response a non-streaming call returns; a failure after the
   * start is an {@code error} event naming the failure class. The headers left before the episode ran, so the
   * cookies it ends with that the caller does not hold are kept for the caller's agent session (its next
   * request continues with them) and announced on the last event as {@value #COOKIES_FIELD}.
   */
  @Override
  protected final boolean streamsLive() {
    return true;
  }

  @Override
  protected final Object streamResponses(ResponseCreateParams request, Call call) {
    Map<String, String> cookies = episodeCookies.startingWith(call);
    return dev.gym4j.server.ServerSentEvents.stream(socket -> {
      AnnouncingSink sink = new AnnouncingSink(socket);
      dev.gym4j.wire.ResponseEvents events = new dev.gym4j.wire.ResponseEvents(sink);
      ObjectNode head = head(request);
      events.started(head);
      Episode episode;
      try {
        episode = episode(request, cookies, item -> {
          try {
            events.item(item.json());
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      } catch (RolloutFailure failure) {
        // as on an error status: what a failing call said may hold a credential
        events.error(failure.failureClass(), dev.gym4j.config.Secrets.redact(failure.getMessage()));
        return;
      }
      // one response from created to completed, as OpenAI's stream readers check
      ObjectNode last = episode.response().json().deepCopy();
      last.set("id", head.get("id"));
      last.set("created_at", head.get("created_at"));
      sink.cookies = episodeCookies.ended(call, episode.cookies(), true);
      events.finished(new Response(last));
    });
  }

  /**
   * The field of a streamed episode's last event ({@code response.completed}, {@code .incomplete} or {@code
   * .failed}) that names the cookies the episode ended with which the caller does not hold: the session cookies
   * of the environment and the model server (signed session ids), for a caller that continues the rollout
   * elsewhere (its environment's {@code /verify}, say). An extra property, which OpenAI's event schema allows.
   */
  static final String COOKIES_FIELD = "gym4j_cookies";

  /** Adds {@link #COOKIES_FIELD} to the event that carries the final response, once the cookies are known. */
  private static final class AnnouncingSink implements dev.gym4j.server.ServerSentEvents.Sink {
    private final dev.gym4j.server.ServerSentEvents.Sink socket;
    private Map<String, String> cookies;

    AnnouncingSink(dev.gym4j.server.ServerSentEvents.Sink socket) {
      this.socket = socket;
    }

    @Override
    public void send(String name, Object data) throws java.io.IOException {
      if (cookies != null && data instanceof ObjectNode event && event.has("response")) {
        ObjectNode announced = event.putObject(COOKIES_FIELD);
        cookies.forEach(announced::put);
      }
      socket.send(name, data);
    }

    @Override
    public void sendText(String name, String data) throws java.io.IOException {
      socket.sendText(name, data);
    }
  }

  /** What {@code response.created} says before the first model call: the request's settings, no output. */
  private static ObjectNode head(ResponseCreateParams request) {
    ObjectNode head = dev.gym4j.json.Json.object();
    head.put("id", "resp_" + java.util.UUID.randomUUID().toString().replace("-", ""));
    head.put("object", "response");
    head.put("created_at", java.time.Instant.now().getEpochSecond());
    head.put("model", request.json().path("model").asString(""));
    head.putNull("error");
    head.set("instructions", request.json().get("instructions"));
    head.set("metadata", request.json().get("metadata"));
    head.set("temperature", request.json().get("temperature"));
    head.set("top_p", request.json().get("top_p"));
    head.put("parallel_tool_calls", request.json().path("parallel_tool_calls").asBoolean(true));
    head.set("tool_choice", request.json().has("tool_choice") ? request.json().get("tool_choice")
        : tools.jackson.databind.node.StringNode.valueOf("auto"));
    head.set("tools", request.json().has("tools") ? request.json().get("tools") : dev.gym4j.json.Json.array());
    return head;
  }

  protected final String resourcesServer() {
    return resourcesServer;
  }

  @Override
  protected final Object responses(ResponseCreateParams request, Call call) {
    Episode episode = episode(request, episodeCookies.startingWith(call));
    // as NeMo Gym's simple_agent: the cookies the episode ended with go back to the caller
    episode.cookies().forEach(call::setCookie);
    // an Anthropic stream's headers are out before the episode ends: its cookies are kept instead
    episodeCookies.ended(call, episode.cookies(), EpisodeCookies.streamedMessages(call));
    return episode.response();
  }

  @Override
  protected final Object run(ObjectNode row, Call call) {
    Map<String, String> cookies = episodeCookies.startingWith(call);
    return rollouts.run(() -> rollout(row, cookies));
  }

  /** One model call; a failed or malformed answer fails the rollout as {@code model_error}. */
  protected final Response callModel(ResponseCreateParams request, Map<String, String> modelCookies) {
    HttpReply reply = Calls.call("model_error", () -> context().client().post(modelServer, "/v1/responses", request,
        modelCookies));
    Calls.requireOk(reply, "model_error", "the model call");
    modelCookies.putAll(reply.cookies());
    try {
      return Response.of(reply.json());
    } catch (FieldError | JacksonException e) {
      throw new RolloutFailure("model_error", 502, "the model server gave an invalid response: " + e, e);
    }
  }

  private ObjectNode rollout(ObjectNode row, Map<String, String> incoming) {
    ServerClient client = context().client();
    Map<String, String> cookies = new HashMap<>(incoming);
    JsonNode seeded = Json.object();
    boolean sessionOpen = false;
    boolean verified = false;
    try {
      if (seedsSession()) {
        HttpReply seed = Calls.call("resources_error", () -> client.post(resourcesServer, "/seed_session", row,
            cookies));
        Calls.requireOk(seed, "resources_error", "seed_session");
        cookies.putAll(seed.cookies());
        sessionOpen = true;
        seeded = seededAnswer(seed);
      }
      Episode episode = episode(new ResponseCreateParams((ObjectNode) row.get("responses_create_params")), cookies,
          seeded);
      cookies.putAll(episode.cookies());

      ObjectNode verifyRequest = row.deepCopy();
      verifyRequest.set("response", episode.response().json());
      if (skipVerification) {
        verifyRequest.put("reward", skipVerificationReward);
        verifyRequest.put("verification_skipped", true);
        return verifyRequest;
      }
      HttpReply verify = Calls.call("verify_error", () -> client.post(resourcesServer, "/verify", verifyRequest,
          cookies));
      try {
        Calls.requireOk(verify, "verify_error", "verify");
      } catch (RolloutFailure failure) {
        // the episode is done: keep it with the failure, so that verify can be run again without the model
        throw failure.withResponse(verifyRequest.get("response"));
      }
      // a verify that answered ended the session
      verified = true;
      JsonNode verdict = verify.json();
      if (!(verdict instanceof ObjectNode result) || !verdict.path("reward").isNumber()) {
        throw new RolloutFailure("verify_error", 502, "verify answered without a numeric reward: "
            + Calls.abbreviate(verify.text()), null);
      }
      return result;
    } finally {
      if (sessionOpen && !verified) {
        closeSession(cookies);
      }
    }
  }

  /**
   * Tells the environment that a rollout ended without verify (a failure, its deadline, its caller gone, or verify
   * skipped): {@code POST /close} ends its session now, with what the session holds (an interpreter process), instead
   * of at its time to live. On a thread of its own, since this one may be interrupted; a failure of the call changes
   * nothing (an environment without the route, NeMo Gym's, ends the session at its time to live or never).
   */
  private void closeSession(Map<String, String> cookies) {
    Map<String, String> held = Map.copyOf(cookies);
    Thread.ofVirtual().name("gym4j-close-session").start(() -> {
      try {
        context().client().post(resourcesServer, "/close", dev.gym4j.json.Json.object(), held);
      } catch (RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(VerifyingAgent.class).debug("{}: closing a session of {} failed: {}",
            context().name(), resourcesServer, e.toString());
      }
    });
  }

  /**
   * The episode of a {@code /run}, given what {@code /seed_session} answered (an empty object when the agent does
   * not seed); by default the seed answer is not read.
   */
  protected Episode episode(ResponseCreateParams request, Map<String, String> cookies, JsonNode seeded) {
    return episode(request, cookies);
  }

  /** The seed answer as JSON; an empty object when it is not a JSON object (NeMo Gym's servers answer {@code {}}). */
  private static JsonNode seededAnswer(HttpReply seed) {
    try {
      return seed.json() instanceof ObjectNode object ? object : Json.object();
    } catch (JacksonException e) {
      return Json.object();
    }
  }

  /** One episode's response and the cookies it ended with (the environment's and the model's). */
  protected record Episode(Response response, Map<String, String> cookies) {}
}
