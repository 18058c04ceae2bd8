package dev.gym4j.environments.example_mcp_weather;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.gym4j.resources.Description;
import dev.gym4j.resources.ResourcesServer;
import dev.gym4j.resources.Session;
import dev.gym4j.resources.Tool;
import dev.gym4j.resources.Verification;
import dev.gym4j.resources.VerifyRequest;
import dev.gym4j.server.Implementation;
import dev.gym4j.wire.Item;
import dev.gym4j.wire.Message;
import tools.jackson.databind.JsonNode;

/**
 * NeMo Gym's MCP example (resources_servers/example_mcp_weather/app.py): one {@code get_weather} tool, served
 * as {@code POST /get_weather} and, with {@code expose_tools_over_mcp: true}, over MCP at {@code /mcp}. Each call
 * is kept in the rollout's session, and a rollout is right only when that same session called the tool for
 * {@code verifier_metadata.expected_city} (any case) and the final answer contains the weather sentence.
 */
@Implementation("example_mcp_weather")
public final class ExampleMcpWeather extends ResourcesServer {
  private static final String CALLS = "weather_calls";
  /** NeMo Gym's default city when a row names none. */
  private static final String DEFAULT_CITY = "Paris";

  public record City(@Description("The city to report on") String city) {}

  public record Weather(String weather) {}

  @Tool(description = "Get a deterministic weather report for a city.")
  public Weather getWeather(City city, Session session) {
    Weather weather = new Weather(sentence(city.city()));
    calls(session).add(city.city());
    return weather;
  }

  @Override
  protected Verification verify(VerifyRequest request, Session session) {
    String expectedCity = expectedCity(request.field("verifier_metadata"));
    String expectedWeather = sentence(expectedCity);
    // casefold, as Python's: a call for "PARIS" is a call for Paris
    String folded = fold(expectedCity);
    boolean toolCallSeen;
    synchronized (calls(session)) {
      toolCallSeen = calls(session).stream().anyMatch(city -> fold(city).equals(folded));
    }
    boolean mentions = fold(assistantText(request)).contains(fold(expectedWeather));
    return Verification.of(toolCallSeen && mentions ? 1.0 : 0.0)
        .with("expected_weather", expectedWeather)
        .with("tool_call_seen", toolCallSeen)
        .with("final_response_mentions_weather", mentions);
  }

  private static String sentence(String city) {
    return "The weather in " + city + " is sunny and 72 F.";
  }

  /** The row's expected city; NeMo Gym reads {@code verifier_metadata.get("expected_city", "Paris")}. */
  private static String expectedCity(JsonNode metadata) {
    JsonNode city = metadata.path("expected_city");
    return city.isString() ? city.asString() : DEFAULT_CITY;
  }

  @SuppressWarnings("unchecked")
  private static List<String> calls(Session session) {
    return session.computeIfAbsent(CALLS, () -> java.util.Collections.synchronizedList(new ArrayList<>()));
  }

  /** The text of every assistant message, joined by newlines and stripped. */
  private static String assistantText(VerifyRequest request) {
    List<String> texts = new ArrayList<>();
    for (Item item : request.response().output()) {
      if (item instanceof Message message && "assistant".equals(message.role())) {
        JsonNode content = message.json().path("content");
        if (content.isString()) {
          texts.add(content.asString());
        }
        for (JsonNode part : content) {
          if (part.path("text").isString()) {
            texts.add(part.get("text").asString());
          }
        }
      }
    }
    return String.join("\n", texts).strip();
  }

  private static String fold(String text) {
    return text.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
  }
}
