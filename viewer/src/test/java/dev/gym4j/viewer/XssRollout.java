package dev.gym4j.viewer;

import dev.gym4j.json.Json;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A rollout whose every text field is an attack on the page: script tags, handlers, javascript: links, raw HTML. */
final class XssRollout {
  static final String SCRIPT = "<script>window.__pwned = 'script';</script>";
  static final String IMG = "<img src=x onerror=\"window.__pwned='img'\">";
  static final String LINK = "[click](javascript:window.__pwned='link')";
  static final String SVG = "<svg onload=\"window.__pwned='svg'\"></svg>";

  private XssRollout() {}

  static ObjectNode row() {
    ObjectNode row = Json.object();
    ObjectNode params = row.putObject("responses_create_params");
    params.put("instructions", SCRIPT);
    ArrayNode input = params.putArray("input");
    input.addObject().put("role", "user").put("content", "Hi " + SCRIPT + IMG);
    ObjectNode response = row.putObject("response");
    ArrayNode output = response.putArray("output");
    output.addObject().put("type", "reasoning").putArray("summary").addObject().put("type", "summary_text")
        .put("text", SVG + SCRIPT);
    output.addObject().put("type", "function_call").put("name", "<b onmouseover=alert(1)>x</b>")
        .put("call_id", "c1").put("arguments", "{\"q\": \"" + IMG.replace("\"", "\\\"") + "\"}");
    output.addObject().put("type", "function_call_output").put("call_id", "c1").put("output", SCRIPT + SVG);
    output.addObject().put("type", "message").put("role", "assistant").putArray("content").addObject()
        .put("type", "output_text").put("text", "Answer " + SCRIPT + "\n\n" + IMG + "\n\n" + LINK + "\n\n" + SVG
            + "\n\n<iframe src=\"javascript:window.__pwned='iframe'\"></iframe> $\\href{javascript:alert(1)}{x}$");
    row.put("reward", 1.0);
    row.put(SCRIPT, IMG);
    row.put("_ng_task_index", 0).put("_ng_rollout_index", 0);
    return row;
  }
}
