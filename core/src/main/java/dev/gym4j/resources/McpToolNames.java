package dev.gym4j.resources;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MCP clients name a server's tools {@code mcp__<server>__<tool>} (Claude Code does), HTTP agents by the bare
 * name. For a server whose tools are served over MCP, verify scores the bare names, so a rollout scores the same
 * over both transports (NeMo Gym: nemo_gym/base_resources_server.py {@code normalize_tool_name}, applied by
 * mcp_auto_exposure.py to {@code /verify}); only this server's prefix is taken off.
 */
final class McpToolNames {
  private McpToolNames() {}

  /** The request with this server's namespaced function-call names made bare; the request itself when none is. */
  static VerifyRequest bare(VerifyRequest request, String serverName) {
    String prefix = "mcp__" + serverName + "__";
    JsonNode output = request.json().path("response").path("output");
    boolean namespaced = false;
    for (JsonNode item : output) {
      namespaced |= isCall(item) && item.path("name").asString("").startsWith(prefix);
    }
    if (!namespaced) {
      return request;
    }
    ObjectNode copy = request.json().deepCopy();
    for (JsonNode item : copy.path("response").path("output")) {
      String name = item.path("name").asString("");
      if (isCall(item) && name.startsWith(prefix)) {
        ((ObjectNode) item).put("name", name.substring(prefix.length()));
      }
    }
    return new VerifyRequest(copy);
  }

  private static boolean isCall(JsonNode item) {
    return item.isObject() && "function_call".equals(item.path("type").asString(""));
  }
}
