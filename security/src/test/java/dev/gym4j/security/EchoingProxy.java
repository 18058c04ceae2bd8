package dev.gym4j.security;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.gym4j.json.Json;
import dev.gym4j.server.ServerHost;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import tools.jackson.databind.node.ObjectNode;

/**
 * An upstream (or a proxy in front of one) that fails every call with a 502 whose body echoes the request
 * line and every request header, Authorization included: the way an API key leaks through error bodies.
 */
final class EchoingProxy implements AutoCloseable {
  private final WebServer server;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  EchoingProxy() {
    HttpRouting.Builder routing = HttpRouting.builder().any((req, res) -> {
      ObjectNode echo = Json.object();
      echo.put("message", "upstream unavailable");
      echo.put("request", req.prologue().method().text() + " " + req.requestedUri().toUri());
      ObjectNode headers = echo.putObject("headers");
      req.headers().forEach(header -> headers.put(header.name(), header.get()));
      req.headers().first(HeaderNames.AUTHORIZATION).ifPresent(authorizations::add);
      req.content().consume();
      res.status(Status.BAD_GATEWAY_502);
      res.header(HeaderNames.CONTENT_TYPE, "application/json");
      res.send(Json.writeBytes(Json.object().set("error", echo)));
    });
    server = ServerHost.builder("127.0.0.1", 0).routing(routing).build().start();
  }

  int port() {
    return server.port();
  }

  /** The Authorization headers received, to show the secrets did go out (and so could come back). */
  List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  @Override
  public void close() {
    server.stop();
  }
}
