package dev.gym4j.run;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.UpstreamException;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.Origins;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.config.Yaml;
import dev.gym4j.head.HeadDirectory;
import dev.gym4j.head.HeadSecret;
import dev.gym4j.head.InstanceRecord;
import dev.gym4j.json.Json;
import dev.gym4j.server.Implementations;
import dev.gym4j.server.RunningServer;
import dev.gym4j.server.ServerContext;
import dev.gym4j.server.ServerHost;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One server instance in this process, joined to a deployment whose head server runs elsewhere
 * ({@code gym4j serve}). The config comes from the head server; this machine's {@code env.yaml} and
 * command line are merged over it, which is where secrets come from, since the head server masks them.
 * Once up, the instance announces its address to the head server, so every other server finds it.
 */
public final class ServedInstance implements AutoCloseable {
  /** The instance config key naming the host this instance announces, when its bind address is not it. */
  public static final String ANNOUNCE_HOST = "announce_host";

  private final RunningServer server;
  private final ServerClient client;

  private ServedInstance(RunningServer server, ServerClient client) {
    this.server = server;
    this.client = client;
  }

  /** Starts the instance and announces it to the head server, showing the deployment's {@code secret}. */
  public static ServedInstance start(URI head, String instanceName, List<String> overrides, ConfigLoader loader,
      Implementations implementations, HeadSecret secret) {
    GlobalConfig config = loader.load(fetchConfig(head), new Origins(), overrides);
    ServerInstance instance = config.require(instanceName);
    var server = implementations.create(instance);
    ServerClient client = new ServerClient(new HeadDirectory(head), ClientSettings.from(config));
    RunningServer running;
    try {
      running = ServerHost.start(server, new ServerContext(instance, config, client));
    } catch (RuntimeException e) {
      client.close();
      throw new ConfigException("instance " + instanceName + " could not start on " + instance.host() + ":"
          + instance.port() + ": " + Deployment.rootMessage(e), e);
    }
    ServedInstance served = new ServedInstance(running, client);
    try {
      served.announce(head, secret);
    } catch (RuntimeException e) {
      served.close();
      throw e;
    }
    return served;
  }

  private static ObjectNode fetchConfig(URI head) {
    HttpReply reply = new HeadDirectoryClient(head).get("/global_config_dict_yaml");
    JsonNode yaml = reply.json();
    if (!yaml.isString() || !(Yaml.parse(yaml.stringValue()) instanceof ObjectNode tree)) {
      throw new ConfigException("the head server at " + head + " did not return a config (GET /global_config_dict_yaml)");
    }
    return tree;
  }

  private void announce(URI head, HeadSecret secret) {
    InstanceRecord record = Deployment.record(server);
    ObjectNode body = Json.object();
    body.put("process_name", record.processName());
    body.put("url", "http://" + announcedHost(server.instance(), server.host()) + ":" + server.port());
    body.put("pid", record.pid());
    body.put("start_time", record.startTime());
    HttpReply reply = client.send(head.resolve("/server_instances"), "POST", Json.writeBytes(body), Map.of(),
        Map.of("Authorization", "Bearer " + secret.value()));
    if (!reply.ok()) {
      throw new ConfigException("the head server at " + head + " refused to register " + record.processName() + ": "
          + reply.status() + " " + reply.text());
    }
  }

  /**
   * The host other servers call: the instance's {@code announce_host} when set (a Kubernetes Service name,
   * which spreads calls over the replicas, or the pod's IP), else the bound host, with a wildcard bind
   * replaced by this machine's address, which another machine can call.
   */
  static String announcedHost(ServerInstance instance, String boundHost) {
    JsonNode announce = instance.config().get(ANNOUNCE_HOST);
    if (announce != null && announce.isString() && !announce.stringValue().isBlank()) {
      return announce.stringValue().strip();
    }
    return reachableHost(boundHost);
  }

  private static String reachableHost(String host) {
    if (!host.equals("0.0.0.0") && !host.equals("::")) {
      return host;
    }
    try {
      return InetAddress.getLocalHost().getHostAddress();
    } catch (UnknownHostException e) {
      return "127.0.0.1";
    }
  }

  public RunningServer server() {
    return server;
  }

  @Override
  public void close() {
    server.close();
    client.close();
  }

  /** Plain GETs to the head server with the usual deadlines and retries. */
  private record HeadDirectoryClient(URI head) {
    HttpReply get(String path) {
      try (ServerClient client = new ServerClient(name -> java.util.Optional.empty(), ClientSettings.defaults())) {
        HttpReply reply = client.send(head.resolve(path), "GET", null, Map.of(), Map.of());
        if (!reply.ok()) {
          throw new ConfigException("the head server at " + head + " answered " + reply.status() + " to GET " + path);
        }
        return reply;
      } catch (UpstreamException e) {
        throw new ConfigException("could not reach the head server at " + head + ": " + e.getMessage(), e);
      }
    }
  }
}
