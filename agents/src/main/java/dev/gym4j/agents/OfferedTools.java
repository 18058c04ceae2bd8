package dev.gym4j.agents;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.gym4j.json.Json;
import dev.gym4j.wire.ResponseCreateParams;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tools a request offers the model ({@code responses_create_params.tools}, function tools by name), and
 * the one rule for a model's function call: it reaches the environment only when its name is offered, is a
 * plain identifier, and is not one of the environment's own routes. A tool name is model output, so it
 * never chooses a host or a route that is not a tool: the agent builds the path {@code "/" + name} only
 * from a name that passed.
 */
final class OfferedTools {
  /** What a tool name may be: OpenAI's rule for function names, so no slash, dot, colon or space. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  /**
   * An environment's protocol routes (simple and Gymnasium style). None is a tool, even when a dataset row
   * (untrusted as well) offers one by that name: calling {@code seed_session} or {@code verify} as a tool
   * would let the model reset its task or read its reward.
   */
  static final Set<String> PROTOCOL_ROUTES = Set.of("seed_session", "verify", "aggregate_metrics", "reset", "step",
      "close");
  private static final int ECHOED_NAME_CHARS = 80;

  private final Set<String> names;

  private OfferedTools(Set<String> names) {
    this.names = names;
  }

  static OfferedTools of(ResponseCreateParams request) {
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode tool : request.tools()) {
      String name = tool.path("name").asString(null);
      if ("function".equals(tool.path("type").asString(null)) && name != null && allowed(name)) {
        names.add(name);
      }
    }
    return new OfferedTools(names);
  }

  private static boolean allowed(String name) {
    return NAME.matcher(name).matches() && !PROTOCOL_ROUTES.contains(name);
  }

  /** Empty when the call may go out; otherwise the tool error the model gets as the call's output. */
  Optional<String> refusal(String name) {
    if (name != null && names.contains(name)) {
      return Optional.empty();
    }
    String shown = name == null ? "" : name.length() <= ECHOED_NAME_CHARS ? name
        : name.substring(0, ECHOED_NAME_CHARS) + "…";
    ObjectNode error = Json.object();
    error.put("error", "Tool '" + shown + "' does not exist. Available tools: "
        + (names.isEmpty() ? "none" : String.join(", ", names)) + ".");
    return Optional.of(Json.write(error));
  }
}
