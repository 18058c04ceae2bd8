package dev.gym4j.resources;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.server.Call;
import dev.gym4j.server.ErrorBodies;
import dev.gym4j.server.RawBody;
import dev.gym4j.server.Reply;
import dev.gym4j.server.SessionCookie;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An environment's tools served over MCP's Streamable HTTP transport at {@code POST /mcp}, the way NeMo Gym's
 * {@code expose_tools_over_mcp: true} serves them (nemo_gym/mcp_auto_exposure.py): stateless, each JSON-RPC
 * request answered with one JSON body; {@code GET /mcp} is a 405, which tells a client that no server stream is
 * offered. {@code initialize}, {@code ping}, {@code tools/list} and {@code tools/call} are answered; a
 * notification gets 202 with no body.
 *
 * <p>Which session a {@code tools/call} runs in comes from the {@value #TOKEN_HEADER} header: a token that
 * {@code /seed_session} hands out in its {@code mcp} field, signed with a key of this endpoint (so a client can
 * carry a session, not forge one). A call without a valid token is refused as a tool error, never run in a
 * fresh session. Only the environment's declared tools are served: the protocol routes ({@code verify},
 * {@code seed_session}, …) are not tools here either, and a tool name is only ever looked up in that table.
 */
final class McpEndpoint {
  static final String PATH = "/mcp";
  static final String TOKEN_HEADER = "X-NeMo-Gym-Session-Token";
  /** The protocol revisions this endpoint speaks, newest first; a client asking for another gets the newest. */
  static final List<String> PROTOCOL_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  /** A tool as served: the Responses API function tool, and how to run it in a session. */
  record ServedTool(ObjectNode functionTool, Runner runner) {
    String name() {
      return functionTool.path("name").asString();
    }
  }

  /** Runs a tool for a session id; answers what its HTTP route would (a {@link Reply} for an error status). */
  @FunctionalInterface
  interface Runner {
    Object run(JsonNode arguments, String sessionId) throws Exception;
  }

  private final String serverName;
  private final Map<String, ServedTool> tools;
  /** Signs session tokens with a key drawn at start; a token of another server instance does not verify. */
  private final SessionCookie tokens = new SessionCookie("mcp-session-token");

  McpEndpoint(String serverName, Map<String, ServedTool> tools) {
    this.serverName = serverName;
    this.tools = Map.copyOf(tools);
  }

  /** What {@code /seed_session} adds under {@code mcp}: where the tools are and the rollout's token. */
  ObjectNode metadata(String sessionId) {
    ObjectNode metadata = Json.object();
    metadata.put("server_name", serverName);
    metadata.put("url_path", PATH);
    metadata.put("transport", "http");
    metadata.putObject("headers").put(TOKEN_HEADER, tokens.value(sessionId));
    return metadata;
  }

  Object handle(Call call) {
    JsonNode body = call.body();
    if (!(body instanceof ObjectNode message)) {
      return error(null, -32600, "Invalid Request: a JSON-RPC message must be a JSON object (batches are not "
          + "supported)");
    }
    JsonNode id = message.get("id");
    if (!"2.0".equals(message.path("jsonrpc").asString(null)) || !message.path("method").isString()) {
      // a client's response to a server request (we send none) or a malformed message
      return message.has("result") || message.has("error") ? accepted()
          : error(id, -32600, "Invalid Request: jsonrpc must be \"2.0\" and method a string");
    }
    if (id == null) {
      return accepted();
    }
    JsonNode params = message.path("params");
    return switch (message.get("method").asString()) {
      case "initialize" -> result(id, initialize(params));
      case "ping" -> result(id, Json.object());
      case "tools/list" -> result(id, listTools());
      case "tools/call" -> callTool(id, params, call.header(TOKEN_HEADER));
      default -> error(id, -32601, "Method not found");
    };
  }

  private ObjectNode initialize(JsonNode params) {
    String asked = params.path("protocolVersion").asString("");
    ObjectNode result = Json.object();
    result.put("protocolVersion", PROTOCOL_VERSIONS.contains(asked) ? asked : PROTOCOL_VERSIONS.getFirst());
    result.putObject("capabilities").putObject("tools").put("listChanged", false);
    ObjectNode info = result.putObject("serverInfo");
    info.put("name", serverName);
    info.put("version", "gym4j");
    return result;
  }

  private ObjectNode listTools() {
    ObjectNode result = Json.object();
    ArrayNode list = result.putArray("tools");
    tools.values().stream().sorted(java.util.Comparator.comparing(ServedTool::name)).forEach(tool -> {
      ObjectNode entry = list.addObject();
      entry.put("name", tool.name());
      if (tool.functionTool().path("description").isString()) {
        entry.put("description", tool.functionTool().get("description").asString());
      }
      entry.set("inputSchema", tool.functionTool().path("parameters").deepCopy());
    });
    return result;
  }

  private Object callTool(JsonNode id, JsonNode params, Optional<String> token) {
    String name = params.path("name").asString("");
    ServedTool tool = tools.get(name);
    if (tool == null) {
      // models invent tool names: a miss is the model's to read, not a protocol error
      return result(id, toolError("Unknown tool: '" + abbreviate(name) + "'. Available tools: "
          + tools.keySet().stream().sorted().toList()));
    }
    Optional<String> sessionId = token.flatMap(tokens::verify);
    if (sessionId.isEmpty()) {
      return result(id, toolError((token.isEmpty() ? "Missing " : "Invalid ") + TOKEN_HEADER
          + " for this tool call: the token comes from /seed_session's mcp.headers"));
    }
    JsonNode arguments = params.has("arguments") ? params.get("arguments") : Json.object();
    Object answer;
    try {
      answer = tool.runner().run(arguments, sessionId.get());
    } catch (FieldError e) {
      return result(id, toolError("HTTP 422 from POST /" + name + ": " + Json.write(ErrorBodies.validation(e)
          .get("detail"))));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("tool " + name + " failed", e);
    }
    if (answer instanceof Reply reply && reply.status() >= 400) {
      JsonNode detail = Json.toTree(reply.body()).path("detail");
      return result(id, toolError("HTTP " + reply.status() + " from POST /" + name + ": "
          + (detail.isString() ? detail.asString() : Json.write(detail))));
    }
    JsonNode payload = Json.toTree(answer instanceof Reply reply ? reply.body() : answer);
    ObjectNode outcome = Json.object();
    outcome.putArray("content").addObject().put("type", "text")
        .put("text", payload.isString() ? payload.asString() : Json.write(payload));
    if (payload.isObject()) {
      outcome.set("structuredContent", payload);
    }
    outcome.put("isError", false);
    return result(id, outcome);
  }

  private static ObjectNode toolError(String text) {
    ObjectNode outcome = Json.object();
    outcome.putArray("content").addObject().put("type", "text").put("text", text);
    outcome.put("isError", true);
    return outcome;
  }

  private static String abbreviate(String name) {
    return name.length() <= 80 ? name : name.substring(0, 80) + "…";
  }

  private static ObjectNode result(JsonNode id, JsonNode result) {
    ObjectNode response = Json.object();
    response.put("jsonrpc", "2.0");
    response.set("id", id);
    response.set("result", result);
    return response;
  }

  private static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode response = Json.object();
    response.put("jsonrpc", "2.0");
    response.set("id", id == null ? Json.MAPPER.nullNode() : id);
    response.putObject("error").put("code", code).put("message", message);
    return response;
  }

  /** A notification or a client's response: taken, nothing to answer. */
  private static Reply accepted() {
    return Reply.of(202, new RawBody("application/json", new byte[0]));
  }
}
