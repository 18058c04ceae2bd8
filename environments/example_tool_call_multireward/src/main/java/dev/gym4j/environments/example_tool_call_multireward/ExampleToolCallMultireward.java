package dev.gym4j.environments.example_tool_call_multireward;

import java.util.ArrayList;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.json.PythonEquality;
import dev.gym4j.resources.Description;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.FunctionCall;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A reward made of three parts, each 0 or 1, reported separately ({@code reward_components}) and summed:
 * {@code correctness} (some call has the expected name and arguments), {@code schema_valid} (the first
 * call's arguments are an object with every required parameter) and {@code format} (exactly one call and
 * no message).
 */
@Implementation("example_tool_call_multireward")
public final class ExampleToolCallMultireward extends ResourcesServer {

  public record GetWeather(@Description("The city to get the weather for.") String city) {}

  public record WeatherReport(String city, String weatherDescription) {}

  @Tool(description = "Get the current weather for a city.")
  public WeatherReport getWeather(GetWeather arguments) {
    return new WeatherReport(arguments.city(), "The weather in " + arguments.city() + " is sunny.");
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    List<FunctionCall> calls = new ArrayList<>();
    boolean anyMessage = false;
    for (Item item : request.response().output()) {
      if (item instanceof FunctionCall call) {
        calls.add(call);
      } else if (item instanceof Message) {
        anyMessage = true;
      }
    }
    var predicted = Json.array();
    for (FunctionCall call : calls) {
      ObjectNode entry = predicted.addObject();
      entry.put("name", call.name());
      entry.set("arguments", arguments(call));
    }
    JsonNode expected = request.field("expected_call");
    double correctness = 0;
    for (JsonNode call : predicted) {
      if (call.get("name").asString().equals(expected.path("name").asString(null))
          && argumentsMatch(expected.path("arguments"), call.get("arguments"))) {
        correctness = 1;
        break;
      }
    }
    double schemaValid = calls.isEmpty() ? 0 : schemaValid(calls.getFirst(), predicted.get(0).get("arguments"),
        request.responsesCreateParams().tools());
    double format = calls.size() == 1 && !anyMessage ? 1 : 0;
    ObjectNode components = Json.object();
    components.put("correctness", correctness);
    components.put("schema_valid", schemaValid);
    components.put("format", format);
    return Verification.of(correctness + schemaValid + format)
        .with("reward_components", components)
        .with("correctness", correctness)
        .with("schema_valid", schemaValid)
        .with("format", format)
        .with("predicted_calls", predicted);
  }

  private static JsonNode arguments(FunctionCall call) {
    try {
      return Json.parse(call.arguments());
    } catch (JacksonException e) {
      return null;
    }
  }

  private static boolean argumentsMatch(JsonNode expected, JsonNode actual) {
    if (actual == null || !actual.isObject()) {
      return false;
    }
    for (var argument : expected.properties()) {
      if (!PythonEquality.equal(argument.getValue(), actual.get(argument.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static double schemaValid(FunctionCall call, JsonNode arguments, JsonNode tools) {
    if (arguments == null || !arguments.isObject()) {
      return 0;
    }
    for (JsonNode tool : tools) {
      if (call.name().equals(tool.path("name").asString(null))) {
        for (JsonNode required : tool.path("parameters").path("required")) {
          if (!arguments.has(required.asString())) {
            return 0;
          }
        }
        return 1;
      }
    }
    return 0;
  }
}
