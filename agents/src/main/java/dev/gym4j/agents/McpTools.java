package dev.gym4j.agents;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.json.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One rollout's MCP client of its resources server: the tools the server lists at {@code /mcp}, offered to the
 * model as function tools, and each call the model makes to one of them sent as {@code tools/call} with the
 * rollout's session token (from {@code /seed_session}'s {@code mcp.headers}). Streamable HTTP: each request is
 * a POST; the answer is one JSON body or an event stream holding it.
 *
 * <p>The server is a network peer: its answers are untrusted. The URL is the resources server's configured base
 * and the fixed path {@code /mcp} (never one the peer names), only the session-token header is sent back, and
 * a tool name it lists is offered only if it passes {@link OfferedTools}' rule.
 */
final class McpTools {
  static final String TOKEN_HEADER = "X-NeMo-Gym-Session-Token";
  private static final String PROTOCOL_VERSION = "2025-06-18";
  /** tools/list pages read at most; a server that keeps paging is cut off rather than followed forever. */
  private static final int MAX_PAGES = 20;

  private final ServerClient client;
  private final URI endpoint;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private final Map<String, ObjectNode> tools = new LinkedHashMap<>();
  private int nextId = 1;

  private McpTools(ServerClient client, URI endpoint, String token) {
    this.client = client;
    this.endpoint = endpoint;
    headers.put("Content-Type", "application/json");
    headers.put("Accept", "application/json, text/event-stream");
    headers.put(TOKEN_HEADER, token);
  }

  /** Connects to the resources server's {@code /mcp} with the token a {@code /seed_session} answer carries. */
  static McpTools connect(ServerClient client, String resourcesServer, JsonNode seeded) {
    JsonNode token = seeded.path("mcp").path("headers").path(TOKEN_HEADER);
    if (!token.isString()) {
      throw new RolloutFailure("resources_error", 502, "tools_from_mcp is set, but " + resourcesServer
          + "'s /seed_session gave no mcp session token (is expose_tools_over_mcp on?)", null);
    }
    URI base = client.directory().find(resourcesServer).orElseThrow(() -> new RolloutFailure("resources_error", 502,
        "no server instance named " + resourcesServer + " is known", null));
    String root = base.toString().endsWith("/") ? base.toString().substring(0, base.toString().length() - 1)
        : base.toString();
    McpTools mcp = new McpTools(client, URI.create(root + "/mcp"), token.asString());
    ObjectNode init = Json.object();
    init.put("protocolVersion", PROTOCOL_VERSION);
    init.putObject("capabilities");
    init.putObject("clientInfo").put("name", "gym4j simple_agent").put("version", "1");
    mcp.request("initialize", init);
    mcp.headers.put("MCP-Protocol-Version", PROTOCOL_VERSION);
    mcp.notify("notifications/initialized");
    mcp.list();
    return mcp;
  }

  private void list() {
    String cursor = null;
    for (int page = 0; page < MAX_PAGES; page++) {
      ObjectNode params = Json.object();
      if (cursor != null) {
        params.put("cursor", cursor);
      }
      JsonNode result = request("tools/list", params);
      for (JsonNode tool : result.path("tools")) {
        String name = tool.path("name").asString(null);
        if (name == null || !OfferedTools.NAME.matcher(name).matches() || OfferedTools.PROTOCOL_ROUTES.contains(name)) {
          continue;
        }
        ObjectNode function = Json.object();
        function.put("type", "function");
        function.put("name", name);
        if (tool.path("description").isString()) {
          function.put("description", tool.get("description").asString());
        }
        function.set("parameters", tool.path("inputSchema").isObject() ? tool.get("inputSchema").deepCopy()
            : Json.object().put("type", "object"));
        function.put("strict", false);
        tools.put(name, function);
      }
      cursor = result.path("nextCursor").asString(null);
      if (cursor == null) {
        return;
      }
    }
  }

  /** The listed tools as Responses API function tools. */
  List<ObjectNode> functionTools() {
    return List.copyOf(tools.values());
  }

  boolean serves(String name) {
    return tools.containsKey(name);
  }

  /**
   * Calls a tool; its answer as the model reads it: the result's text content, joined (an error result's text
   * as well: a tool error is the model's to read). A JSON-RPC error is given as {@code {"error": message}}.
   */
  String call(String name, JsonNode arguments) {
    ObjectNode params = Json.object();
    params.put("name", name);
    params.set("arguments", arguments);
    JsonNode answer = exchange("tools/call", params);
    if (answer.has("error")) {
      ObjectNode error = Json.object();
      error.put("error", answer.path("error").path("message").asString("the MCP server refused the call"));
      return Json.write(error);
    }
    List<String> texts = new ArrayList<>();
    for (JsonNode part : answer.path("result").path("content")) {
      if ("text".equals(part.path("type").asString("")) && part.path("text").isString()) {
        texts.add(part.get("text").asString());
      }
    }
    return String.join("\n", texts);
  }

  private JsonNode request(String method, ObjectNode params) {
    JsonNode answer = exchange(method, params);
    if (answer.has("error") || !answer.has("result")) {
      throw new RolloutFailure("resources_error", 502, "MCP " + method + " failed: "
          + Calls.abbreviate(Json.write(answer.path("error"))), null);
    }
    return answer.get("result");
  }

  private void notify(String method) {
    ObjectNode message = Json.object();
    message.put("jsonrpc", "2.0");
    message.put("method", method);
    post(message);
  }

  /** One request and the JSON-RPC message that answers it (a result or an error). */
  private JsonNode exchange(String method, ObjectNode params) {
    int id = nextId++;
    ObjectNode message = Json.object();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    message.set("params", params);
    HttpReply reply = post(message);
    return answerTo(id, reply).orElseThrow(() -> new RolloutFailure("resources_error", 502, "MCP " + method
        + ": the server's answer held no response to request " + id, null));
  }

  private HttpReply post(ObjectNode message) {
    HttpReply reply;
    try {
      reply = client.send(endpoint, "POST", Json.writeBytes(message), Map.of(), headers);
    } catch (UpstreamException e) {
      throw new RolloutFailure("resources_error", 502, "MCP " + message.path("method").asString() + ": "
          + e.getMessage(), e);
    }
    if (!reply.ok()) {
      throw new RolloutFailure("resources_error", 502, "MCP " + message.path("method").asString() + " answered "
          + reply.status() + ": " + Calls.abbreviate(reply.text()), null);
    }
    return reply;
  }

  /** The response with this id, from a JSON body or an event stream's {@code data:} events. */
  private static Optional<JsonNode> answerTo(int id, HttpReply reply) {
    String body = new String(reply.body(), StandardCharsets.UTF_8);
    boolean stream = reply.header("Content-Type").map(type -> type.startsWith("text/event-stream"))
        .orElse(!body.stripLeading().startsWith("{"));
    List<String> messages = new ArrayList<>();
    if (stream) {
      StringBuilder data = new StringBuilder();
      for (String line : (body + "\n\n").split("\r?\n", -1)) {
        if (line.startsWith("data:")) {
          data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).stripLeading());
        } else if (line.isEmpty() && !data.isEmpty()) {
          messages.add(data.toString());
          data.setLength(0);
        }
      }
    } else {
      messages.add(body);
    }
    for (String text : messages) {
      try {
        JsonNode message = Json.parse(text);
        if (message.path("id").isNumber() && message.get("id").asInt() == id) {
          return Optional.of(message);
        }
      } catch (JacksonException e) {
        // not a JSON-RPC message: skipped, as an answer without our id is
      }
    }
    return Optional.empty();
  }
}
