package dev.gym4j.environments.xlam_fc;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Function calling scored on the calls alone (Salesforce xLAM data): the tools are declared in the
 * request but not served. Each expected call, in order, takes the first unused predicted call with its
 * name whose arguments include every expected argument, equal as Python compares them; the rollout is
 * right when every expected call is matched and no other call was made.
 */
@Implementation("xlam_fc")
public final class XlamFc extends ResourcesServer {

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    ArrayNode predicted = Json.array();
    for (Item item : request.response().output()) {
      if (item instanceof FunctionCall call) {
        ObjectNode entry = predicted.addObject();
        entry.put("name", call.name());
        entry.set("arguments", arguments(call));
      }
    }
    JsonNode expected = request.field("expected_answers");
    List<Boolean> used = new ArrayList<>();
    predicted.forEach(call -> used.add(false));
    int correct = 0;
    for (JsonNode want : expected) {
      for (int i = 0; i < predicted.size(); i++) {
        if (!used.get(i) && matches(want, predicted.get(i))) {
          used.set(i, true);
          correct++;
          break;
        }
      }
    }
    int expectedCount = expected.size();
    boolean right = expectedCount == 0 ? predicted.isEmpty()
        : correct == expectedCount && predicted.size() == expectedCount;
    return Verification.of(right ? 1.0 : 0.0)
        .with("num_expected", expectedCount)
        .with("num_predicted", predicted.size())
        .with("num_correct", correct)
        .with("predicted_calls", predicted);
  }

  private static boolean matches(JsonNode expected, JsonNode predicted) {
    if (!expected.path("name").asString("").equals(predicted.get("name").asString())) {
      return false;
    }
    JsonNode arguments = predicted.get("arguments");
    for (var argument : expected.path("arguments").properties()) {
      if (!arguments.has(argument.getKey()) || !PythonEquality.equal(argument.getValue(), arguments.get(argument.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** The call's arguments; arguments that do not parse to an object count as none. */
  private static JsonNode arguments(FunctionCall call) {
    try {
      JsonNode parsed = Json.parse(call.arguments());
      return parsed.isObject() ? parsed : Json.object();
    } catch (JacksonException e) {
      return Json.object();
    }
  }
}
