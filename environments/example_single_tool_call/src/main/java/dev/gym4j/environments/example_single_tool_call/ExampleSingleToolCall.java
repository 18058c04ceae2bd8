package dev.gym4j.environments.example_single_tool_call;

import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;

/**
 * The smallest environment: one {@code get_weather} tool, and a verifier that gives every rollout reward 1.
 * It exists to show the parts of an environment and to check a deployment end to end, as NeMo Gym's
 * environment of the same name does.
 */
@Implementation("example_single_tool_call")
public final class ExampleSingleToolCall extends ResourcesServer {

  /** The arguments of {@code get_weather}. */
  public record GetWeather(String city) {}

  /** What {@code get_weather} answers. */
  public record WeatherReport(String city, String weatherDescription) {}

  @Tool(description = "Get the current weather in a city.")
  public WeatherReport getWeather(GetWeather arguments) {
    return new WeatherReport(arguments.city(), "The weather in " + arguments.city() + " is cold.");
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    return Verification.of(1.0);
  }
}
