package dev.gym4j.agents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.agent.AgentServer;
import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ServerKind;
import dev.gym4j.config.ServerRef;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import dev.gym4j.wire.Response;
import dev.gym4j.wire.ResponseCreateParams;
import dev.gym4j.wire.Usage;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code image_tools_agent} (NeMo Gym's responses_api_agents/image_tools_agent/app.py): another environment's
 * task, with image tools. The model writes {@code <tool_call>} calls in its text; each turn's first call (up to
 * {@code max_tool_calls_per_turn}) runs on the row's images ({@link ImageToolbox}), and its JSON result and image
 * go back as a user message, until the model answers without a call, a call is invalid
 * ({@code terminate_on_invalid_tool_call}) or {@code max_steps} model calls were made. The environment is the one
 * {@code resource_servers_by_agent} maps the row's {@code image_tools_base_agent_ref.name} to; it verifies the last
 * assistant message, and the reward is its reward plus the tool rewards ({@link ImageToolTurns}).
 *
 * <p>Settings: {@code model_server}, {@code resource_servers_by_agent}, {@code max_steps} (5),
 * {@code max_output_tokens} (4096, when the request sets none), {@code stop_strings} and
 * {@code include_stop_str_in_output} (sent in {@code metadata.extra_body}), the crop and reward settings of
 * {@link ImageToolTurns}, and {@code rollout_timeout_seconds}.
 */
@Implementation("image_tools_agent")
public final class ImageToolsAgent extends AgentServer {
  private String modelServer;
  private final Map<String, String> resourcesByAgent = new LinkedHashMap<>();
  private int maxSteps;
  private Integer maxOutputTokens;
  private JsonNode stopStrings;
  private boolean includeStop;
  private ImageToolTurns.Settings settings;
  private final Rollouts rollouts = new Rollouts();

  @Override
  protected void start() {
    modelServer = References.of(context(), "model_server", ServerKind.MODEL);
    JsonNode byAgent = context().required("resource_servers_by_agent");
    if (!byAgent.isObject()) {
      throw new ConfigException(context().path("resource_servers_by_agent") + " must map agent names to references");
    }
    for (var entry : byAgent.properties()) {
      ServerRef ref = ServerRef.from(entry.getValue()).filter(r -> r.type() == ServerKind.RESOURCES)
          .orElseThrow(() -> new ConfigException(context().path("resource_servers_by_agent") + "." + entry.getKey()
              + " must be a reference like {type: resources_servers, name: <instance>}"));
      resourcesByAgent.put(entry.getKey(), ref.name());
    }
    JsonNode config = context().config();
    maxSteps = config.path("max_steps").asInt(5);
    maxOutputTokens = config.path("max_output_tokens").isNull() ? null : config.path("max_output_tokens").asInt(4096);
    stopStrings = config.has("stop_strings") ? config.get("stop_strings") : Json.array().add("</tool_call>");
    includeStop = config.path("include_stop_str_in_output").asBoolean(true);
    settings = ImageToolTurns.Settings.of(context());
    rollouts.start(context());
  }

  @Override
  protected void stop() {
    rollouts.stop();
  }

  @Override
  protected Object responses(ResponseCreateParams request, Call call) {
    Episode episode = episode(request, new HashMap<>(call.cookies()));
    episode.cookies().forEach(call::setCookie);
    return episode.response();
  }

  @Override
  protected Object run(ObjectNode row, Call call) {
    String resources = resourcesFor(row);
    Map<String, String> cookies = new HashMap<>(call.cookies());
    return rollouts.run(() -> rollout(row, resources, cookies));
  }

  /** The environment of a row: the one its base agent maps to; a row naming none or another is a 400. */
  private String resourcesFor(ObjectNode row) {
    JsonNode name = row.path("image_tools_base_agent_ref").path("name");
    if (!name.isString()) {
      throw new FieldError(List.of("image_tools_base_agent_ref"), "image_tools_base_agent_ref is required");
    }
    String resources = resourcesByAgent.get(name.stringValue());
    if (resources == null) {
      throw new FieldError(List.of("image_tools_base_agent_ref", "name"),
          "No resource server mapping for base agent " + Calls.abbreviate(name.stringValue()));
    }
    return resources;
  }

  private ObjectNode rollout(ObjectNode row, String resources, Map<String, String> cookies) {
    HttpReply seed = Calls.call("resources_error", () -> context().client().post(resources, "/seed_session", row,
        cookies));
    Calls.requireOk(seed, "resources_error", "seed_session");
    Map<String, String> resourceCookies = new HashMap<>(cookies);
    resourceCookies.putAll(seed.cookies());
    Episode episode = episode(new ResponseCreateParams((ObjectNode) row.get("responses_create_params")), cookies);

    ObjectNode verifyRequest = row.deepCopy();
    verifyRequest.set("response", finalAssistant(episode.response()).json());
    HttpReply verify = Calls.call("verify_error", () -> context().client().post(resources, "/verify", verifyRequest,
        resourceCookies));
    Calls.requireOk(verify, "verify_error", "verify");
    if (!(verify.json() instanceof ObjectNode verdict) || !verdict.path("reward").isNumber()) {
      throw new RolloutFailure("verify_error", 502, "verify answered without a numeric reward: "
          + Calls.abbreviate(verify.text()), null);
    }
    double base = verdict.get("reward").asDouble();
    ImageToolTurns.Summary summary = episode.summary();
    verdict.put("base_reward", base);
    verdict.put("image_tools_aux_reward", summary.auxReward());
    verdict.put("reward", base + summary.auxReward());
    verdict.set("image_tools_base_agent_ref", row.has("image_tools_base_agent_ref")
        ? row.get("image_tools_base_agent_ref") : Json.toTree(null));
    summary.writeTo(verdict);
    verdict.set("response", episode.response().json());
    return verdict;
  }

  /** The last assistant message alone, as NeMo Gym's {@code _final_assistant_response}; else the whole response. */
  private static Response finalAssistant(Response response) {
    List<Item> output = response.output();
    for (int i = output.size() - 1; i >= 0; i--) {
      if (output.get(i) instanceof Message message && "assistant".equals(message.role())) {
        return response.withOutput(List.of(message));
      }
    }
    return response;
  }

  private record Episode(Response response, Map<String, String> cookies, ImageToolTurns.Summary summary) {}

  private Episode episode(ResponseCreateParams request, Map<String, String> cookies) {
    ObjectNode params = request.json().deepCopy();
    if ((!params.has("max_output_tokens") || params.get("max_output_tokens").isNull()) && maxOutputTokens != null) {
      params.put("max_output_tokens", maxOutputTokens);
    }
    withExtraBody(params);
    ResponseCreateParams base = new ResponseCreateParams(params);
    List<Item> input = base.input();
    ImageToolTurns turns = new ImageToolTurns(settings, ImageToolTurns.imageUrls(params.path("input")));
    List<Item> outputs = new ArrayList<>();
    Map<String, String> modelCookies = new HashMap<>(cookies);
    Usage usage = null;
    Response last = null;
    for (int step = 0; step < maxSteps; step++) {
      List<Item> history = new ArrayList<>(input);
      history.addAll(outputs);
      last = callModel(base.withInput(history), modelCookies);
      outputs.addAll(last.output());
      if (last.usage().isPresent()) {
        usage = usage == null ? last.usage().get() : usage.plus(last.usage().get());
      }
      java.util.Optional<ObjectNode> observation = turns.take(assistantText(last));
      if (observation.isEmpty()) {
        break;
      }
      outputs.add(Item.of(observation.get()));
      if (Thread.currentThread().isInterrupted()) {
        throw new RolloutFailure("timeout", 504, "the rollout was stopped at its deadline", null);
      }
    }
    if (last == null) {
      throw new RolloutFailure("agent_error", 500, "the agent made no model call (max_steps is 0)", null);
    }
    return new Episode(last.withOutput(outputs).withUsage(usage), modelCookies, turns.summary());
  }

  /** Stop strings go to the model server in {@code metadata.extra_body}, merged into what the row has there. */
  private void withExtraBody(ObjectNode params) {
    if ((stopStrings == null || stopStrings.isNull() || stopStrings.isEmpty()) && !includeStop) {
      return;
    }
    ObjectNode metadata = params.path("metadata").isObject() ? (ObjectNode) params.get("metadata")
        : params.putObject("metadata");
    ObjectNode extra;
    try {
      JsonNode current = Json.parse(metadata.path("extra_body").asString("{}"));
      extra = current instanceof ObjectNode object ? object : null;
    } catch (JacksonException e) {
      extra = null;
    }
    if (extra == null) {
      throw new FieldError(List.of("responses_create_params", "metadata", "extra_body"), "must be a JSON object");
    }
    if (stopStrings != null && !stopStrings.isNull() && !stopStrings.isEmpty()) {
      extra.set("stop", stopStrings);
    }
    if (includeStop) {
      extra.put("include_stop_str_in_output", true);
    }
    metadata.put("extra_body", Json.write(extra));
  }

  /** The text of the assistant messages, one per line, trimmed, as NeMo Gym's {@code _extract_text_from_response}. */
  private static String assistantText(Response response) {
    List<String> texts = new ArrayList<>();
    for (Item item : response.output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.stringValue());
        } else {
          for (JsonNode part : content) {
            if (part.path("text").isString()) {
              texts.add(part.get("text").stringValue());
            }
          }
        }
      }
    }
    return dev.gym4j.text.PythonText.strip(String.join("\n", texts));
  }

  private Response callModel(ResponseCreateParams request, Map<String, String> modelCookies) {
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
}
