package dev.gym4j.models;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.gym4j.json.Json;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-process stand-in for Anthropic's Messages API on a real socket: {@code POST /v1/messages} checks the key
 * ({@code x-api-key}), {@code anthropic-version}, the required fields and that every tool_use is answered by a
 * tool_result in the next turn, and answers with Anthropic's error body when it does not, as the real API does;
 * otherwise it answers the next scripted reply (a message's content and stop reason, an error, or raw bytes).
 */
final class FakeAnthropic implements AutoCloseable {
  /** One scripted reply: a status and the body as sent. */
  record Reply(int status, String contentType, byte[] body, long delayMillis) {}

  private final String key;
  private final Queue<Reply> script = new ConcurrentLinkedQueue<>();
  final List<ObjectNode> received = new CopyOnWriteArrayList<>();
  final List<Map<String, String>> headers = new CopyOnWriteArrayList<>();
  private final WebServer server;

  FakeAnthropic(String key) {
    this.key = key;
    HttpRouting.Builder routing = HttpRouting.builder().post("/v1/messages", this::messages)
        .get("/v1/models", (req, res) -> res.status(key.equals(req.headers().first(HeaderNames.create("x-api-key"))
            .orElse("")) ? Status.OK_200 : Status.UNAUTHORIZED_401).send("{\"data\": []}"));
    server = dev.gym4j.server.ServerHost.builder("127.0.0.1", 0).routing(routing).build().start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.port() + "/v1";
  }

  /** Answers the next call with a message of these content blocks, this stop reason and these counts. */
  FakeAnthropic answer(String contentJson, String stopReason, int inputTokens, int outputTokens) {
    ObjectNode message = Json.object().put("id", "msg_01Fake").put("type", "message").put("role", "assistant")
        .put("model", "claude-fake");
    message.set("content", Json.parse(contentJson));
    message.put("stop_reason", stopReason);
    message.putNull("stop_sequence");
    message.putObject("usage").put("input_tokens", inputTokens).put("output_tokens", outputTokens)
        .put("cache_read_input_tokens", 3).put("cache_creation_input_tokens", 0);
    return raw(200, "application/json", Json.write(message), 0);
  }

  FakeAnthropic error(int status, String type, String message) {
    return raw(status, "application/json", Json.write(errorBody(type, message)), 0);
  }

  FakeAnthropic raw(int status, String contentType, String body, long delayMillis) {
    script.add(new Reply(status, contentType, body.getBytes(java.nio.charset.StandardCharsets.UTF_8), delayMillis));
    return this;
  }

  private void messages(ServerRequest req, ServerResponse res) throws InterruptedException {
    ObjectNode body = (ObjectNode) Json.parse(req.content().as(byte[].class));
    Map<String, String> seen = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    req.headers().forEach(header -> seen.put(header.name(), header.get()));
    received.add(body);
    headers.add(seen);
    if (!key.equals(seen.get("x-api-key"))) {
      send(res, new Reply(401, "application/json", Json.writeBytes(errorBody("authentication_error",
          "invalid x-api-key")), 0));
      return;
    }
    String invalid = invalid(body, seen);
    if (invalid != null) {
      send(res, new Reply(400, "application/json", Json.writeBytes(errorBody("invalid_request_error", invalid)), 0));
      return;
    }
    Reply reply = script.poll();
    send(res, reply == null ? new Reply(500, "application/json", Json.writeBytes(errorBody("api_error",
        "nothing scripted")), 0) : reply);
  }

  /** What the real API would refuse with a 400, or null. */
  private static String invalid(ObjectNode body, Map<String, String> headers) {
    if (!headers.containsKey("anthropic-version")) {
      return "anthropic-version: header is required";
    }
    for (String field : List.of("model", "max_tokens", "messages")) {
      if (!body.has(field)) {
        return field + ": Field required";
      }
    }
    JsonNode messages = body.get("messages");
    for (int i = 0; i < messages.size(); i++) {
      JsonNode message = messages.get(i);
      String role = message.path("role").asString("");
      if (!role.equals("user") && !role.equals("assistant")) {
        return "messages." + i + ".role: Input should be 'user' or 'assistant'";
      }
      Set<String> asked = new HashSet<>();
      for (JsonNode block : message.path("content")) {
        if (block.path("type").asString("").equals("tool_use")) {
          asked.add(block.path("id").asString(""));
        }
      }
      if (!asked.isEmpty()) {
        List<String> answered = new ArrayList<>();
        for (JsonNode block : messages.path(i + 1).path("content")) {
          answered.add(block.path("tool_use_id").asString(""));
        }
        if (i + 1 < messages.size() && !answered.containsAll(asked)) {
          return "messages." + (i + 1) + ": tool_use ids were found without tool_result blocks immediately after";
        }
      }
    }
    return null;
  }

  private static void send(ServerResponse res, Reply reply) throws InterruptedException {
    if (reply.delayMillis() > 0) {
      Thread.sleep(reply.delayMillis());
    }
    res.status(Status.create(reply.status()));
    res.header(HeaderNames.CONTENT_TYPE, reply.contentType());
    res.send(reply.body());
  }

  static ObjectNode errorBody(String type, String message) {
    ObjectNode body = Json.object().put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return body;
  }

  @Override
  public void close() {
    server.stop();
  }
}
