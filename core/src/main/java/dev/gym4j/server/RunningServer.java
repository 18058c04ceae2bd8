package dev.gym4j.server;

import java.net.URI;

import dev.gym4j.config.ServerInstance;
import io.helidon.webserver.WebServer;

/** A server instance that is up, with the address it actually bound. */
public final class RunningServer implements AutoCloseable {
  private final ServerInstance instance;
  private final GymServer server;
  private final WebServer webServer;
  private final String host;

  RunningServer(ServerInstance instance, GymServer server, WebServer webServer, String host) {
    this.instance = instance;
    this.server = server;
    this.webServer = webServer;
    this.host = host;
  }

  public ServerInstance instance() {
    return instance;
  }

  public GymServer server() {
    return server;
  }

  public String host() {
    return host;
  }

  public int port() {
    return webServer.port();
  }

  public URI url() {
    return URI.create("http://" + host + ":" + port());
  }

  @Override
  public void close() {
    try {
      webServer.stop();
    } finally {
      server.stop();
    }
  }
}
