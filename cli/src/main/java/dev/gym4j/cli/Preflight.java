package dev.gym4j.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.Probe;
import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * Checks made once before a collection starts, so a wrong URL, an endpoint where nothing listens or one
 * that never answers stops the command with one line naming the problem instead of failing every rollout
 * (NeMo Gym added such a check after users hit hangs). Each check has a deadline of a few seconds.
 */
final class Preflight {
  /** How long a probe may take: a healthy endpoint answers a GET at once, even while busy generating. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
  /** {@link #PROBE_TIMEOUT}, shortened by tests that wait for an endpoint that never answers. */
  static volatile Duration probeTimeout = PROBE_TIMEOUT;

  private Preflight() {}

  /** A model base URL must be absolute http(s) with a host, e.g. {@code http://127.0.0.1:8000/v1}. */
  static URI baseUrl(String option, String value) {
    if (!value.contains("://")) {
      throw new ConfigException(option + " " + withoutUserInfo(value) + " needs an http:// or https:// scheme and a "
          + "host, e.g. http://" + withoutUserInfo(value.strip()));
    }
    URI uri;
    try {
      uri = new URI(value.strip());
    } catch (URISyntaxException e) {
      throw new ConfigException(option + " " + withoutUserInfo(value) + " is not a URL: " + e.getReason());
    }
    String scheme = uri.getScheme();
    if (scheme == null || uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
      throw new ConfigException(option + " " + withoutUserInfo(value) + " needs an http:// or https:// scheme and "
          + "a host, e.g. http://localhost:8000/v1");
    }
    return uri;
  }

  /**
   * The model endpoint answers an HTTP request ({@code GET <base>/models}; any status counts: the point is
   * that something listens and answers in time).
   */
  static void modelEndpoint(String base, String apiKey) {
    URI url = URI.create(base.endsWith("/") ? base + "models" : base + "/models");
    Map<String, String> headers = apiKey == null || apiKey.isBlank() ? Map.of()
        : Map.of("Authorization", "Bearer " + apiKey);
    probe(url, "the model endpoint " + withoutUserInfo(base), headers);
  }

  /** The agent answers {@code GET /} without a server error. */
  static void agent(URI agentUrl, String agent) {
    HttpResponse<String> reply = probe(agentUrl.resolve("/"), "the agent " + agent + " at " + agentUrl, Map.of());
    if (reply.statusCode() >= 500) {
      throw new ConfigException("the agent " + agent + " at " + agentUrl + " answered GET / with "
          + reply.statusCode());
    }
  }

  /** What a head server lists ({@code GET /server_instances}): each instance's URL by name, and which are models. */
  record Instances(Map<String, URI> urls, List<String> models) {}

  /** The instances a head server knows ({@code GET /server_instances}). */
  static Instances head(URI head) {
    HttpResponse<String> reply = probe(head.resolve("/server_instances"), "the head server " + head, Map.of());
    Map<String, URI> urls = new LinkedHashMap<>();
    List<String> models = new ArrayList<>();
    try {
      for (JsonNode instance : Json.parse(reply.body())) {
        // process_name is the instance's name; name is its implementation, as in NeMo Gym
        String name = instance.path("process_name").asString("");
        urls.put(name, URI.create(instance.path("url").asString("")));
        if ("responses_api_models".equals(instance.path("server_type").asString(""))) {
          models.add(name);
        }
      }
    } catch (RuntimeException e) {
      urls = null;
    }
    if (reply.statusCode() != 200 || urls == null) {
      throw new ConfigException(head + " is not a gym4j head server: GET /server_instances answered "
          + reply.statusCode());
    }
    return new Instances(urls, models);
  }

  /**
   * Every model server the head server lists can reach its upstream: {@code GET /upstream_health} answers 200.
   * A model server that is down stops the command with one line naming it and what failed; one without the
   * route (not a gym4j server) is not checked.
   */
  static void models(Instances instances) {
    for (String name : instances.models()) {
      URI url = instances.urls().get(name);
      HttpResponse<String> health = probe(url.resolve("/upstream_health"), "the model server " + name + " at " + url,
          Map.of());
      if (health.statusCode() == 200 || health.statusCode() == 404) {
        continue;
      }
      String detail;
      try {
        detail = Json.parse(health.body()).path("detail").asString("GET /upstream_health answered "
            + health.statusCode());
      } catch (RuntimeException e) {
        detail = "GET /upstream_health answered " + health.statusCode();
      }
      throw new ConfigException("the model server " + name + " cannot serve: " + detail);
    }
  }

  /** One GET with a deadline; a connection that fails or an answer that does not come is one line. */
  private static HttpResponse<String> probe(URI url, String what, Map<String, String> headers) {
    Probe.Result result = Probe.get(url, headers, probeTimeout, what);
    if (!result.answered()) {
      throw new ConfigException(result.detail());
    }
    return result.response();
  }

  /** A URL as it may be shown: user info is a secret. */
  static String withoutUserInfo(String url) {
    return Probe.withoutUserInfo(url);
  }
}
