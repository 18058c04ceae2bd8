package dev.gym4j.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.ServerKind;
import dev.gym4j.json.Json;
import dev.gym4j.json.Shape;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An environment from its own {@code config.yaml}, with its agent and an {@code openai_model} whose backend
 * is a {@link ScriptedUpstream}, for conformance tests against NeMo Gym's recorded rollouts:
 * {@link #verify} re-verifies a recorded rollout (its tool calls replayed in one session first), and
 * {@link #replay} runs it again through the live agent loop with the model answering as recorded.
 */
public final class EnvironmentHarness implements AutoCloseable {
  private final ScriptedUpstream model = ScriptedUpstream.start();
  private final Deployment deployment;
  private final String resources;
  private final String agent;

  private EnvironmentHarness(String environment, List<String> overrides) {
    List<String> arguments = new ArrayList<>(List.of(
        "+config_paths=[models/configs/openai_model.yaml,environments/" + environment + "/config.yaml]",
        "++head_server.port=0", "+policy_base_url=" + model.baseUrl(), "+policy_api_key=x",
        "+policy_model_name=recorded"));
    arguments.addAll(overrides);
    GlobalConfig config = new ConfigLoader(List.of(projectRoot()), Map.of()).load(arguments);
    deployment = Deployment.start(config, Implementations.load(), Set.of());
    resources = first(config, ServerKind.RESOURCES);
    agent = first(config, ServerKind.AGENT);
  }

  public static EnvironmentHarness start(String environment, String... overrides) {
    return new EnvironmentHarness(environment, List.of(overrides));
  }

  public static Path projectRoot() {
    String root = System.getProperty("gym4j.root");
    return root != null ? Path.of(root) : Path.of("").toAbsolutePath();
  }

  private static String first(GlobalConfig config, ServerKind kind) {
    return config.instances().stream().filter(i -> i.kind() == kind).map(ServerInstance::name).findFirst()
        .orElse(null);
  }

  public ServerClient client() {
    return deployment.client();
  }

  public String resourcesServer() {
    return resources;
  }

  /** POSTs to the environment. */
  public HttpReply post(String path, JsonNode body, Map<String, String> cookies) {
    return client().post(resources, path, body, cookies);
  }

  /**
   * The verify response for a recorded rollout: a session seeded with the row, the recorded tool calls
   * made in it in order (for environments that keep state), then {@code /verify}.
   */
  public JsonNode verify(JsonNode recorded) {
    ObjectNode row = task(recorded);
    Map<String, String> cookies = new HashMap<>(post("/seed_session", row, Map.of()).cookies());
    for (JsonNode item : outputItems(recorded.get("response"))) {
      if ("function_call".equals(item.path("type").asString(""))) {
        JsonNode arguments;
        try {
          arguments = Json.parse(item.path("arguments").asString(""));
        } catch (RuntimeException e) {
          continue;
        }
        cookies.putAll(post("/" + item.get("name").asString(), arguments, cookies).cookies());
      }
    }
    ObjectNode request = row.deepCopy();
    request.set("response", recorded.get("response"));
    HttpReply reply = post("/verify", request, cookies);
    if (reply.status() != 200) {
      throw new AssertionError("verify answered " + reply.status() + ": " + reply.text());
    }
    return reply.json();
  }

  /** The /run result of the recorded rollout replayed through the live agent loop. */
  public JsonNode replay(JsonNode recorded) {
    return replay(recorded, List.of());
  }

  /**
   * The /run result of the recorded rollout replayed through the live agent loop, the scripted model
   * giving {@code after} (a judge's answers, say) once the recorded turns are used up.
   */
  public JsonNode replay(JsonNode recorded, List<Answer> after) {
    Replay.turns(outputItems(recorded.get("response"))).forEach(model::enqueue);
    after.forEach(model::enqueue);
    HttpReply reply = client().post(agent, "/run", task(recorded), Map.of());
    if (reply.status() != 200) {
      throw new AssertionError("run answered " + reply.status() + ": " + reply.text());
    }
    return reply.json();
  }

  /**
   * A Gymnasium episode re-played from a recorded rollout: {@code /reset} with the row, then one
   * {@code /step} per recorded model turn; the answer holds the summed reward and the last step's
   * {@code terminated}, {@code truncated} and {@code info}.
   */
  public JsonNode episode(JsonNode recorded) {
    ObjectNode row = task(recorded);
    Map<String, String> cookies = new HashMap<>(post("/reset", row, Map.of()).cookies());
    double total = 0;
    JsonNode step = Json.object();
    for (Answer turn : Replay.turns(outputItems(recorded.get("response")))) {
      ObjectNode response = ((ObjectNode) recorded.get("response")).deepCopy();
      response.set("output", turn.items);
      ObjectNode request = row.deepCopy();
      request.set("response", response);
      HttpReply reply = post("/step", request, cookies);
      if (reply.status() != 200) {
        throw new AssertionError("step answered " + reply.status() + ": " + reply.text());
      }
      cookies.putAll(reply.cookies());
      step = reply.json();
      total += step.path("reward").asDouble();
      if (step.path("terminated").asBoolean() || step.path("truncated").asBoolean()) {
        break;
      }
    }
    ObjectNode result = Json.object();
    result.put("reward", total);
    result.set("terminated", step.path("terminated"));
    result.set("truncated", step.path("truncated"));
    result.set("info", step.path("info"));
    return result;
  }

  /** The calls the scripted model received. */
  public ScriptedUpstream model() {
    return model;
  }

  private static JsonNode outputItems(JsonNode response) {
    JsonNode output = response.path("output");
    if (response.path("contains_transitions").asBoolean(false) && !output.isEmpty()) {
      return output.get(output.size() - 1);
    }
    return output;
  }

  /** The task row of a recorded rollout: everything but what the rollout and verify added. */
  private static ObjectNode task(JsonNode recorded) {
    ObjectNode row = ((ObjectNode) recorded).deepCopy();
    row.remove(List.of("response", "reward", "reward_components", "_ng_task_index", "_ng_rollout_index"));
    return row;
  }

  /**
   * Recorded rollouts joined with their task rows where the rollouts lack task fields (older NeMo Gym
   * files): a task row matches when its prompt text equals the rollout's.
   */
  public static List<JsonNode> joined(List<JsonNode> rollouts, List<JsonNode> tasks) {
    Map<String, JsonNode> byPrompt = new HashMap<>();
    Map<Long, JsonNode> byIndex = new HashMap<>();
    for (JsonNode task : tasks) {
      byPrompt.put(promptText(task), task);
      if (task.path("_ng_task_index").isIntegralNumber()) {
        byIndex.put(task.get("_ng_task_index").asLong(), task);
      }
    }
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode rollout : rollouts) {
      ObjectNode joined = ((ObjectNode) rollout).deepCopy();
      JsonNode indexed = byIndex.get(rollout.path("_ng_task_index").asLong(-1));
      if (indexed != null) {
        // materialized inputs are the rows exactly as sent: they win over what the rollout echoes
        joined.set("responses_create_params", indexed.get("responses_create_params"));
      }
      JsonNode task = indexed != null ? indexed : byPrompt.get(promptText(rollout));
      if (task != null) {
        for (var field : task.properties()) {
          if (!joined.has(field.getKey())) {
            joined.set(field.getKey(), field.getValue());
          }
        }
      }
      out.add(joined);
    }
    return out;
  }

  static String promptText(JsonNode row) {
    JsonNode input = row.path("responses_create_params").path("input");
    if (input.isString()) {
      return input.stringValue();
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode item : input) {
      text.append(Shape.contentText(item.get("content"))).append('\u0000');
    }
    return text.toString();
  }

  @Override
  public void close() {
    deployment.close();
    model.close();
  }
}
