package dev.gym4j.models;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.client.Probe;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.Secrets;
import dev.gym4j.json.Json;
import dev.gym4j.server.Implementation;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code litellm_model}: {@code openai_model} in front of a LiteLLM proxy, with the proxy's quirks put right as
 * NeMo Gym's responses_api_models/litellm_model/app.py does: {@code reasoning.effort: "none"} becomes null, and an
 * answer the proxy downgraded to Chat Completions ({@code object: "chat.completion"}) becomes a Responses object
 * (its message as output items, its usage under Responses names; an empty assistant message when it has none).
 *
 * <p>At start the proxy must report its version ({@code GET <base>/health/readiness/details}, within 5 seconds):
 * the server refuses to start below 1.83.0, on 1.82.7 and 1.82.8 (the releases that carried credential-stealing
 * code), and when the proxy does not say. Settings are openai_model's.
 */
@Implementation("litellm_model")
public final class LiteLLMModel extends OpenAIModel {
  static final Duration VERSION_CHECK_DEADLINE = Duration.ofSeconds(5);
  private static final Set<String> COMPROMISED = Set.of("1.82.7", "1.82.8");
  private static final List<Integer> MINIMUM = List.of(1, 83, 0);
  private static final Pattern VERSION = Pattern.compile("v?(\\d{1,9})\\.(\\d{1,9})\\.(\\d{1,9})(.*)");
  private static final Pattern SUFFIX = Pattern.compile("|-stable(?:\\.patch\\.\\d+)?|\\.post\\d+");

  @Override
  protected void start() {
    super.start();
    checkProxyVersion();
  }

  private void checkProxyVersion() {
    String root = baseUrl().replaceAll("/+$", "").replaceAll("/v1$", "");
    URI url = URI.create(root + "/health/readiness/details");
    String shown = Secrets.redact(Probe.withoutUserInfo(url.toString()));
    String key = context().requiredString("openai_api_key");
    String authorization = key.toLowerCase(java.util.Locale.ROOT).startsWith("bearer ") ? key : "Bearer " + key;
    Probe.Result result = Probe.get(url, Map.of("Authorization", authorization,
        "x-litellm-key", authorization.substring("Bearer ".length()).strip()), VERSION_CHECK_DEADLINE,
        "the LiteLLM proxy " + shown);
    if (!result.answered() || result.response().statusCode() / 100 != 2) {
      throw new ConfigException("could not check the LiteLLM proxy's version at " + shown + ": "
          + (result.answered() ? "it answered " + result.response().statusCode() : result.detail()));
    }
    String version;
    try {
      version = Json.parse(result.response().body()).path("litellm_version").asString("");
    } catch (JacksonException e) {
      version = "";
    }
    String refusal = refusal(version.strip());
    if (refusal != null) {
      throw new ConfigException("the LiteLLM proxy at " + shown + " " + refusal);
    }
  }

  /** Why a reported version is refused; null when it is a known-safe one. */
  static String refusal(String version) {
    if (version.isEmpty()) {
      return "did not report litellm_version, so the minimum safe version 1.83.0 cannot be enforced";
    }
    Matcher parts = VERSION.matcher(version);
    if (!parts.matches() || !SUFFIX.matcher(parts.group(4)).matches()) {
      return "reported a version gym4j cannot read (" + abbreviate(version) + "), so the minimum safe version "
          + "1.83.0 cannot be enforced";
    }
    List<Integer> numbers = List.of(Integer.parseInt(parts.group(1)), Integer.parseInt(parts.group(2)),
        Integer.parseInt(parts.group(3)));
    String plain = numbers.get(0) + "." + numbers.get(1) + "." + numbers.get(2);
    if (COMPROMISED.contains(plain)) {
      return "runs LiteLLM " + version + ", a release that carried credential-stealing code (March 2026); upgrade "
          + "the proxy to 1.83.0 or later";
    }
    for (int i = 0; i < 3; i++) {
      if (!numbers.get(i).equals(MINIMUM.get(i))) {
        return numbers.get(i) > MINIMUM.get(i) ? null : "runs LiteLLM " + version + ", below the minimum safe version "
            + "1.83.0; upgrade the proxy";
      }
    }
    return null;
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "…";
  }

  @Override
  protected ObjectNode normalized(ObjectNode answer) {
    if (answer.get("reasoning") instanceof ObjectNode reasoning && "none".equals(reasoning.path("effort")
        .asString(null))) {
      reasoning.putNull("effort");
    }
    if (!"chat.completion".equals(answer.path("object").asString(null))) {
      return answer;
    }
    ObjectNode response = Json.object();
    response.put("id", answer.path("id").asString(""));
    JsonNode created = answer.has("created_at") ? answer.get("created_at") : answer.path("created");
    response.put("created_at", created.isNumber() ? created.asLong() : 0);
    response.put("model", answer.path("model").asString(""));
    response.put("object", "response");
    response.set("output", output(answer));
    response.put("parallel_tool_calls", answer.path("parallel_tool_calls").asBoolean(false));
    response.set("tool_choice", answer.has("tool_choice") ? answer.get("tool_choice") : Json.toTree("auto"));
    response.set("tools", answer.path("tools").isArray() ? answer.get("tools") : Json.array());
    response.set("usage", usage(answer.path("usage")));
    return response;
  }

  /** Output items as the answer gives them, else from the first choice with a message, else an empty message. */
  private static JsonNode output(ObjectNode answer) {
    if (answer.path("output").isArray() && !answer.get("output").isEmpty()) {
      return answer.get("output");
    }
    for (JsonNode choice : answer.path("choices")) {
      if (choice.get("message") instanceof ObjectNode message) {
        var items = ChatToResponses.items(message, false, false);
        if (!items.isEmpty()) {
          return items;
        }
      }
    }
    return ChatToResponses.items(Json.object(), false, false);
  }

  /**
   * Usage under Responses names, from either naming. As everywhere in gym4j, a detail the proxy does not report is
   * 0 where NeMo Gym writes null (OpenAI's clients require numbers there: see ChatToResponses).
   */
  private static ObjectNode usage(JsonNode given) {
    long input = count(given, "input_tokens", "prompt_tokens");
    long output = count(given, "output_tokens", "completion_tokens");
    long total = given.path("total_tokens").asLong(0);
    ObjectNode chatNamed = Json.object();
    chatNamed.put("prompt_tokens", input);
    chatNamed.put("completion_tokens", output);
    chatNamed.put("total_tokens", total != 0 ? total : input + output);
    for (String field : List.of("prompt_tokens_details", "completion_tokens_details", "cached_input_tokens",
        "cache_read_input_tokens", "reasoning_output_tokens")) {
      if (given.has(field)) {
        chatNamed.set(field, given.get(field));
      }
    }
    return (ObjectNode) ChatToResponses.usage(chatNamed);
  }

  /** Python's {@code a or b}: the first of the fields that is a non-zero count, else 0. */
  private static long count(JsonNode usage, String first, String second) {
    long value = usage.path(first).asLong(0);
    return value != 0 ? value : usage.path(second).asLong(0);
  }
}
