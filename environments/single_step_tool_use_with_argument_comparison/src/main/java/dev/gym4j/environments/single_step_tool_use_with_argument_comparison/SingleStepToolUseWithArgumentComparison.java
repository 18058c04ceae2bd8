package dev.gym4j.environments.single_step_tool_use_with_argument_comparison;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.gym4j.json.FieldError;
import dev.gym4j.json.Json;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One step of a tool-using conversation, scored against the step a demonstration took
 * ({@code expected_action}): a chat message, a function call (name and arguments compared by
 * {@link ArgumentComparator}), or a batch of calls matched one-to-one. No tool is executed. NeMo Gym's
 * environment of this name with its default comparator settings
 * ({@code tool_call_comparator_config.word_count_similarity_threshold}, default 0.1).
 */
@Implementation("single_step_tool_use_with_argument_comparison")
public final class SingleStepToolUseWithArgumentComparison extends ResourcesServer {
  private ArgumentComparator comparator;

  @Override
  protected void start() {
    JsonNode config = context().config().path("tool_call_comparator_config");
    comparator = new ArgumentComparator(config.path("word_count_similarity_threshold").asDouble(0.1),
        config.path("floating_point_comparison_threshold").asDouble(1e-6));
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    JsonNode expected = request.field("expected_action");
    String expectedType = expected.path("type").asString("");
    if (!List.of("message", "function_call", "function_call_batch").contains(expectedType)) {
      throw new FieldError(List.of("expected_action", "type"), "must be message, function_call or function_call_batch",
          "value_error");
    }
    List<FunctionCall> calls = new ArrayList<>();
    Message message = null;
    for (Item item : request.response().output()) {
      if (item instanceof FunctionCall call) {
        calls.add(call);
      } else if (message == null && item instanceof Message m && "assistant".equals(m.role())) {
        message = m;
      }
    }
    Category category;
    if (calls.isEmpty() && message == null) {
      category = Category.NO_ACTION_FOUND;
    } else if (expectedType.equals("message")) {
      category = calls.isEmpty() ? Category.EXPECTED_CHAT_MESSAGE_FOUND : Category.NO_EXPECTED_CHAT_MESSAGE;
    } else if (calls.isEmpty()) {
      category = Category.NO_EXPECTED_TOOL_CALL;
    } else if (expectedType.equals("function_call")) {
      category = calls.size() > 1 ? Category.MULTIPLE_TOOL_CALLS_FOUND : compareCall(expected, calls.getFirst());
    } else {
      category = compareBatch(expected.path("calls"), calls);
    }
    boolean right = category == Category.EXPECTED_CHAT_MESSAGE_FOUND || category == Category.EXPECTED_TOOL_CALL;
    return Verification.of(right ? 1.0 : 0.0).with("category", category.text);
  }

  private Category compareCall(JsonNode expected, FunctionCall actual) {
    if (!expected.path("name").asString("").equals(actual.name())) {
      return Category.UNEXPECTED_TOOL;
    }
    JsonNode expectedArguments = Json.parse(expected.path("arguments").asString("{}"));
    JsonNode actualArguments;
    try {
      actualArguments = Json.parse(actual.arguments());
    } catch (JacksonException e) {
      return Category.ARGUMENTS_DECODE_ERROR;
    }
    Category mismatch = comparator.compare(expectedArguments, actualArguments);
    return mismatch == null ? Category.EXPECTED_TOOL_CALL : mismatch;
  }

  /** Every expected call matched to a distinct actual call (maximum bipartite matching); extra calls are free. */
  private Category compareBatch(JsonNode expected, List<FunctionCall> actual) {
    boolean[][] matches = new boolean[expected.size()][actual.size()];
    for (int i = 0; i < expected.size(); i++) {
      for (int j = 0; j < actual.size(); j++) {
        matches[i][j] = compareCall(expected.get(i), actual.get(j)) == Category.EXPECTED_TOOL_CALL;
      }
    }
    int[] owner = new int[actual.size()];
    Arrays.fill(owner, -1);
    for (int i = 0; i < expected.size(); i++) {
      if (!augment(i, matches, owner, new boolean[actual.size()])) {
        return Category.ARGUMENT_VALUE_DIFFERENT;
      }
    }
    return Category.EXPECTED_TOOL_CALL;
  }

  /** Kuhn's augmenting path from expected call {@code i}. */
  private static boolean augment(int i, boolean[][] matches, int[] owner, boolean[] seen) {
    for (int j = 0; j < owner.length; j++) {
      if (matches[i][j] && !seen[j]) {
        seen[j] = true;
        if (owner[j] < 0 || augment(owner[j], matches, owner, seen)) {
          owner[j] = i;
          return true;
        }
      }
    }
    return false;
  }
}
