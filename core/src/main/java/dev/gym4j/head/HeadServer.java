package dev.gym4j.head;

import java.net.URI;
import java.time.Instant;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.Yaml;
import dev.gym4j.json.FieldError;
import dev.gym4j.json.Shape;
import dev.gym4j.server.Routes;
import dev.gym4j.server.ServerHost;
import io.helidon.webserver.WebServer;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The discovery point of a deployment (default port 11000).
 *
 * <ul>
 *   <li>{@code GET /global_config_dict_yaml}: the merged config as YAML inside a JSON string, as NeMo Gym
 *       serves it, with each instance's actual host and port filled in, and secrets masked (NeMo Gym serves
 *       them in clear; a process started with {@code gym4j serve} takes its secrets from its own
 *       {@code env.yaml} or command line instead).
 *   <li>{@code GET /server_instances}: the running instances.
 *   <li>{@code POST /server_instances}: how {@code gym4j serve} announces an instance it started elsewhere.
 * </ul>
 */
public final class HeadServer implements AutoCloseable {
  private final GlobalConfig config;
  private final InstanceRegistry registry;
  private final WebServer webServer;
  private final String host;

  private HeadServer(GlobalConfig config, InstanceRegistry registry, int port) {
    this.config = config;
    this.registry = registry;
    this.host = config.headHost();
    try {
      this.webServer = ServerHost.serve("head_server", host, port, 1024 * 1024, "HeadServer___head_server",
          this::routes);
    } catch (RuntimeException e) {
      throw new ConfigException("the head server cannot listen on " + host + ":" + port + " (" + rootMessage(e)
          + "); free the port or choose another with ++head_server.port=<port> (0 picks a free one)", e);
    }
  }

  public static HeadServer start(GlobalConfig config, InstanceRegistry registry) {
    return new HeadServer(config, registry, config.headPort());
  }

  public URI url() {
    return URI.create("http://" + host + ":" + webServer.port());
  }

  public InstanceRegistry registry() {
    return registry;
  }

  private void routes(Routes routes) {
    routes.get("/global_config_dict_yaml", call -> StringNode.valueOf(Yaml.write(servedConfig())));
    routes.get("/server_instances", call -> registry.all());
    routes.post("/server_instances", call -> {
      InstanceRecord record = announced(call.bodyObject());
      registry.register(record);
      return record;
    });
  }

  /** The raw config, masked, with every running instance's address written into its block. */
  ObjectNode servedConfig() {
    ObjectNode tree = config.raw();
    for (InstanceRecord record : registry.all()) {
      config.instance(record.processName()).ifPresent(instance -> {
        ObjectNode block = (ObjectNode) tree.path(instance.name()).path(instance.kind().key())
            .path(instance.implementation());
        block.put("host", record.host());
        block.put("port", record.port());
      });
    }
    ObjectNode head = (ObjectNode) tree.get("head_server");
    head.put("port", webServer.port());
    return GlobalConfig.masked(tree);
  }

  private InstanceRecord announced(ObjectNode body) {
    String name = Shape.text(body, "process_name");
    if (name == null) {
      throw new FieldError(List.of("process_name"), "Field required: the instance name", "missing");
    }
    ServerInstance instance = config.instance(name).orElseThrow(() -> new FieldError(List.of("process_name"),
        "no instance named " + name + " in this deployment's config", "value_error"));
    String url = Shape.text(body, "url");
    URI uri;
    try {
      uri = url == null ? null : URI.create(url);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null || uri.getHost() == null || uri.getPort() <= 0 || !"http".equals(uri.getScheme())) {
      throw new FieldError(List.of("url"), "expected the instance's base URL, like http://10.0.0.5:14231",
          "value_error");
    }
    return new InstanceRecord(name, instance.kind().key(), instance.implementation(), uri.getHost(), uri.getPort(),
        "http://" + uri.getHost() + ":" + uri.getPort(), body.path("pid").asLong(0),
        body.path("start_time").asDouble(Instant.now().toEpochMilli() / 1000.0));
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }

  @Override
  public void close() {
    webServer.stop();
  }

}
