package dev.gym4j.agents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.gym4j.agent.RolloutFailure;
import dev.gym4j.client.HttpReply;
import dev.gym4j.json.Json;
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
 * <p>With {@code tools_from_mcp: true} (gym4j's setting), {@code /run} takes the tools from the resources
 * server's MCP endpoint ({@code expose_tools_over_mcp} there): the tools it lists are offered to the model beside the
 * row's, and a call to one of them goes as MCP {@code tools/call} in the rollout's session ({@link McpTools}).
 *
 * <p>A model's tool calls are bounded: at most {@code max_tool_calls_per_turn} of one model turn run (default
 * {@value #DEFAULT_MAX_TOOL_CALLS_PER_TURN}) and {@code max_tool_calls_per_rollout} in all (default
 * {@value #DEFAULT_MAX_TOOL_CALLS_PER_ROLLOUT}); 0 lifts a bound. A call past either is not run: its output is a tool
 * error the model sees, and the rollout goes on. NeMo Gym runs every call.
 *
 * <p>Settings: {@code resources_server} and {@code model_server} ({@code {type, name}} references),
 * {@code max_steps} (null or 0: no limit), {@code max_tool_calls_per_turn}, {@code max_tool_calls_per_rollout},
 * {@code skip_verification}, {@code skip_verification_reward}, {@code rollout_timeout_seconds}, {@code tools_from_mcp}.
 */
@Implementation("simple_agent")
public final class SimpleAgent extends VerifyingAgent {
  static final int DEFAULT_MAX_TOOL_CALLS_PER_TURN = 128;
  static final int DEFAULT_MAX_TOOL_CALLS_PER_ROLLOUT = 2048;

  private int maxSteps;
  private boolean toolsFromMcp;
  private int maxCallsPerTurn;
  private int maxCallsPerRollout;

  @Override
  protected void configure() {
    maxSteps = context().config().path("max_steps").asInt(0);
    toolsFromMcp = context().config().path("tools_from_mcp").asBoolean(false);
    maxCallsPerTurn = bound("max_tool_calls_per_turn", DEFAULT_MAX_TOOL_CALLS_PER_TURN);
    maxCallsPerRollout = bound("max_tool_calls_per_rollout", DEFAULT_MAX_TOOL_CALLS_PER_ROLLOUT);
  }

  @Override
  protected Episode episode(ResponseCreateParams request, Map<String, String> resourceCookies, JsonNode seeded) {
    if (!toolsFromMcp) {
      return episode(request, resourceCookies);
    }
    McpTools mcp = McpTools.connect(context().client(), resourcesServer(), seeded);
    ObjectNode json = request.json().deepCopy();
    var tools = json.putArray("tools");
    java.util.Set<String> names = new java.util.HashSet<>();
    for (JsonNode tool : request.tools()) {
      tools.add(tool);
      names.add(tool.path("name").asString(""));
    }
    mcp.functionTools().stream().filter(tool -> !names.contains(tool.path("name").asString())).forEach(tools::add);
    return loop(new ResponseCreateParams(json), resourceCookies, item -> { }, mcp);
  }

  /** A count setting: a whole number, 0 for no bound. */
  private int bound(String key, int fallback) {
    JsonNode value = context().config().path(key);
    if (value.isMissingNode() || value.isNull()) {
      return fallback;
    }
    if (!value.canConvertToInt() || !value.isIntegralNumber() || value.asInt() < 0) {
      throw new dev.gym4j.config.ConfigException(context().path(key) + " must be a whole number (0: no limit)");
    }
    return value.asInt();
  }

  /** The model/tool loop of one episode. */
  @Override
  protected Episode episode(ResponseCreateParams request, Map<String, String> resourceCookies) {
    return episode(request, resourceCookies, item -> { });
  }

  @Override
  protected Episode episode(ResponseCreateParams request, Map<String, String> resourceCookies, ItemSink produced) {
    return loop(request, resourceCookies, produced, null);
  }

  /** The loop; tools the MCP client serves (when there is one) are called over MCP, the others over HTTP. */
  private Episode loop(ResponseCreateParams request, Map<String, String> resourceCookies, ItemSink produced,
      McpTools mcp) {
    List<Item> input = request.input();
    OfferedTools tools = OfferedTools.of(request);
    List<Item> outputs = new ArrayList<>();
    Map<String, String> modelCookies = new HashMap<>();
    Usage usage = null;
    Response last;
    int step = 0;
    int callsRun = 0;
    while (true) {
      step++;
      List<Item> history = new ArrayList<>(input);
      history.addAll(outputs);
      ResponseCreateParams turn = request.withInput(history);
      last = callModel(turn, modelCookies);
      List<Item> made = last.output();
      outputs.addAll(made);
      made.forEach(produced::accept);
      if (last.usage().isPresent()) {
        usage = usage == null ? last.usage().get() : usage.plus(last.usage().get());
      }
      if (last.isIncomplete()) {
        break;
      }
      List<FunctionCall> calls = new ArrayList<>();
      boolean answered = false;
      for (Item item : made) {
        if (item instanceof FunctionCall functionCall) {
          calls.add(functionCall);
        } else if (item instanceof Message message && "assistant".equals(message.role())) {
          answered = true;
        }
      }
      if (calls.isEmpty() && answered) {
        break;
      }
      int inTurn = 0;
      for (FunctionCall functionCall : calls) {
        String output;
        if (maxCallsPerTurn > 0 && inTurn >= maxCallsPerTurn) {
          output = notRun("more than " + maxCallsPerTurn + " tool calls in one turn (max_tool_calls_per_turn)");
        } else if (maxCallsPerRollout > 0 && callsRun >= maxCallsPerRollout) {
          output = notRun("more than " + maxCallsPerRollout + " tool calls in this rollout (max_tool_calls_per_rollout)");
        } else {
          inTurn++;
          callsRun++;
          output = runTool(functionCall, tools, resourceCookies, mcp);
        }
        FunctionCallOutput result = FunctionCallOutput.of(functionCall.callId(), output);
        outputs.add(result);
        produced.accept(result);
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

  /** The tool error of a call past a bound: not run, and the model is told why. */
  private static String notRun(String why) {
    ObjectNode error = Json.object();
    error.put("error", "Tool call not run: the model made " + why + ".");
    return Json.write(error);
  }

  /**
   * A tool's answer as text, whatever its status. A call to a tool the request does not offer, and arguments
   * that do not parse, never reach the environment: the model gets the error instead.
   */
  private String runTool(FunctionCall call, OfferedTools tools, Map<String, String> cookies, McpTools mcp) {
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
    if (mcp != null && mcp.serves(call.name())) {
      return mcp.call(call.name(), arguments);
    }
    HttpReply reply = Calls.call("resources_error", () -> context().client().post(resourcesServer(), "/" + call.name(),
        arguments, cookies));
    cookies.putAll(reply.cookies());
    return reply.text();
  }
}
