package dev.gym4j.server;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * What an endpoint's plumbing reads of a request, whether it came over HTTP or from a client in this JVM
 * ({@link InProcess}).
 */
interface Incoming {
  String method();

  String path();

  /** The request's cookies by name, in the order sent; the first of a repeated name. */
  Map<String, String> cookies();

  Optional<String> header(String name);

  String protocolVersion();

  /** A request Helidon read from a socket. */
  record Http(ServerRequest request) implements Incoming {
    @Override
    public String method() {
      return request.prologue().method().text();
    }

    @Override
    public String path() {
      return request.path().path();
    }

    @Override
    public Map<String, String> cookies() {
      Map<String, String> cookies = new LinkedHashMap<>();
      var parameters = request.headers().cookies();
      for (String name : parameters.names()) {
        cookies.put(name, parameters.get(name));
      }
      return cookies;
    }

    @Override
    public Optional<String> header(String name) {
      return request.headers().first(HeaderNames.create(name));
    }

    @Override
    public String protocolVersion() {
      return request.prologue().protocolVersion();
    }
  }
}
