package dev.gym4j.run;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.ServerClient;
import dev.gym4j.client.ServerDirectory;
import dev.gym4j.config.ConfigException;
import dev.gym4j.config.GlobalConfig;
import dev.gym4j.config.ServerInstance;
import dev.gym4j.head.HeadSecret;
import dev.gym4j.head.HeadServer;
import dev.gym4j.head.InstanceRecord;
import dev.gym4j.head.InstanceRegistry;
import dev.gym4j.server.GymServer;
import dev.gym4j.server.Implementations;
import dev.gym4j.server.RunningServer;
import dev.gym4j.server.ServerContext;
import dev.gym4j.server.ServerHost;

/**
 * Every configured server instance running in this JVM, each on its own port, plus the head server
 * ({@code gym4j run}). Instances are started together on virtual threads; if any fails to start, those
 * already up are stopped and the failure is reported.
 */
public final class Deployment implements AutoCloseable {
  private final HeadServer head;
  private final List<RunningServer> servers;
  private final ServerClient client;
  private final HeadSecret secret;

  private Deployment(HeadServer head, List<RunningServer> servers, ServerClient client, HeadSecret secret) {
    this.head = head;
    this.servers = servers;
    this.client = client;
    this.secret = secret;
  }

  /** Starts a deployment with a freshly drawn registration secret (see {@link #secret()}). */
  public static Deployment start(GlobalConfig config, Implementations implementations, Set<String> elsewhere) {
    return start(config, implementations, elsewhere, HeadSecret.generate());
  }

  /**
   * Starts the head server and every instance except those in {@code elsewhere}, which another process
   * will serve and announce ({@code gym4j serve}) with the registration {@code secret}.
   */
  public static Deployment start(GlobalConfig config, Implementations implementations, Set<String> elsewhere,
      HeadSecret secret) {
    for (String name : elsewhere) {
      config.require(name);
    }
    List<ServerInstance> local = config.instances().stream().filter(i -> !elsewhere.contains(i.name())).toList();
    List<GymServer> created = local.stream().map(implementations::create).toList();
    InstanceRegistry registry = new InstanceRegistry();
    HeadServer head = HeadServer.start(config, registry, secret);
    ServerClient client = new ServerClient(registry, ClientSettings.from(config));
    List<RunningServer> running = new ArrayList<>();
    try (ExecutorService starter = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<RunningServer>> starts = new ArrayList<>();
      for (int i = 0; i < local.size(); i++) {
        ServerInstance instance = local.get(i);
        GymServer server = created.get(i);
        starts.add(starter.submit(() -> startOne(server, new ServerContext(instance, config, client))));
      }
      RuntimeException failure = null;
      for (Future<RunningServer> start : starts) {
        try {
          running.add(start.get());
        } catch (ExecutionException e) {
          failure = failure != null ? failure
              : e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure = new IllegalStateException("interrupted while starting servers");
        }
      }
      if (failure != null) {
        running.forEach(RunningServer::close);
        head.close();
        client.close();
        throw failure;
      }
    }
    running.forEach(server -> registry.register(record(server)));
    return new Deployment(head, List.copyOf(running), client, secret);
  }

  private static RunningServer startOne(GymServer server, ServerContext context) {
    try {
      return ServerHost.start(server, context);
    } catch (ConfigException e) {
      throw e;
    } catch (RuntimeException e) {
      ServerInstance instance = context.instance();
      throw new ConfigException("instance " + instance.name() + " could not start on " + instance.host() + ":"
          + instance.port() + ": " + rootMessage(e), e);
    }
  }

  static InstanceRecord record(RunningServer server) {
    ServerInstance instance = server.instance();
    return new InstanceRecord(instance.name(), instance.kind().key(), instance.implementation(), server.host(),
        server.port(), server.url().toString(), ProcessHandle.current().pid(),
        Instant.now().toEpochMilli() / 1000.0);
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }

  /** Time from this JVM's start to now: how long a user waited for the servers. */
  public static Duration sinceJvmStart() {
    return Duration.ofMillis(System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime());
  }

  /** The secret {@code gym4j serve} must show to announce an instance to this deployment's head server. */
  public HeadSecret secret() {
    return secret;
  }

  public HeadServer head() {
    return head;
  }

  public List<RunningServer> servers() {
    return servers;
  }

  public Collection<InstanceRecord> instances() {
    return head.registry().all();
  }

  /** A client that reaches every instance by name, including ones announced by {@code gym4j serve}. */
  public ServerClient client() {
    return client;
  }

  public ServerDirectory directory() {
    return head.registry();
  }

  /** Stops every server, then the head server. */
  @Override
  public void close() {
    try (ExecutorService stopper = Executors.newVirtualThreadPerTaskExecutor()) {
      servers.forEach(server -> stopper.submit(server::close));
    }
    head.close();
    client.close();
  }
}
