package dev.gym4j.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import dev.gym4j.server.Reply;
import dev.gym4j.server.ServerHost;
import io.helidon.webserver.WebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Retries, deadlines and connection bounds of the client, against a real server that misbehaves on cue. */
class ServerClientTest {
  private final AtomicInteger flakyCalls = new AtomicInteger();
  private final AtomicInteger unavailableCalls = new AtomicInteger();
  private final AtomicInteger slowCalls = new AtomicInteger();
  private final AtomicInteger innerFailureCalls = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private WebServer server;
  private URI base;

  @BeforeEach
  void start() {
    server = ServerHost.serve("upstream", "127.0.0.1", 0, 1 << 20, "Upstream___test", routes -> {
      routes.post("/flaky", call -> flakyCalls.incrementAndGet() <= 2
          ? Reply.of(503, Map.of("detail", "busy")) : Map.of("ok", true));
      routes.post("/unavailable", call -> {
        unavailableCalls.incrementAndGet();
        return Reply.of(429, Map.of("detail", "rate limited"));
      });
      routes.post("/slow", call -> {
        slowCalls.incrementAndGet();
        Thread.sleep(3000);
        return Map.of("late", true);
      });
      routes.post("/inner_failure", call -> {
        innerFailureCalls.incrementAndGet();
        throw new UpstreamException(UpstreamException.Kind.CONNECTION, "the model behind me is down");
      });
      routes.post("/protocol", call -> Map.of("version", call.protocolVersion()));
      routes.post("/gate", call -> {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
          Thread.sleep(50);
        } finally {
          inFlight.decrementAndGet();
        }
        return Map.of("ok", true);
      });
    });
    base = URI.create("http://127.0.0.1:" + server.port());
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private ServerClient client(ClientSettings settings) {
    return new ServerClient(name -> name.equals("upstream") ? Optional.of(base) : Optional.empty(), settings);
  }

  private static ClientSettings quick() {
    return ClientSettings.defaults().withRetries(4, Duration.ofMillis(10), Duration.ofMillis(40));
  }

  /** The transport tests below call over HTTP: in process (the default for a server of this JVM) no socket is used. */
  @Test
  void withMultiplexingCallsBetweenServersAreHttp2StreamsAndOtherwiseHttp11() {
    try (ServerClient multiplexing = client(quick().withMultiplexing(true).withInProcess(false)); ServerClient plain = client(quick().withInProcess(false))) {
      for (int i = 0; i < 3; i++) {
        assertThat(multiplexing.post("upstream", "/protocol", Map.of("i", i), Map.of()).json().get("version")
            .asString()).isEqualTo("2.0");
      }
      assertThat(plain.post("upstream", "/protocol", Map.of(), Map.of()).json().get("version").asString())
          .isEqualTo("1.1");
    }
    try (ServerClient modelServer = client(quick().withMultiplexing(true).withInProcess(false))) {
      // a URL outside gym4j (a model upstream) stays on HTTP/1.1 unless it is said to speak h2c
      byte[] body = {'{', '}'};
      assertThat(modelServer.send(base.resolve("/protocol"), "POST", body, Map.of(), Map.of()).json()
          .get("version").asString()).isEqualTo("1.1");
      modelServer.multiplex(base);
      assertThat(modelServer.send(base.resolve("/protocol"), "POST", body, Map.of(), Map.of()).json()
          .get("version").asString()).isEqualTo("2.0");
    }
  }

  /**
   * The surefire JVM closes idle client connections after 4 s (jdk.httpclient.keepalive.timeout). A burst
   * sent after that must not go out as HTTP/1.1, a socket per request: the lanes are upgraded again first.
   */
  @Test
  void aBurstAfterTheConnectionsIdledOutIsStillMultiplexed() throws Exception {
    try (ServerClient multiplexing = client(quick().withMultiplexing(true).withInProcess(false));
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      assertThat(burst(multiplexing, callers, 64)).containsOnly("2.0");
      Thread.sleep(5_000);
      assertThat(burst(multiplexing, callers, 200)).containsOnly("2.0");
    }
  }

  @Test
  void afterTheServerRestartsOnItsPortCallsAreMultiplexedAgain() throws Exception {
    try (ServerClient multiplexing = client(quick().withMultiplexing(true).withInProcess(false));
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      assertThat(burst(multiplexing, callers, 32)).containsOnly("2.0");
      int port = server.port();
      server.stop();
      // the same port, a new server, up a second later: every lane's connection is gone
      server = ServerHost.serve("upstream", "127.0.0.1", port, 1 << 20, "Upstream___test",
          routes -> routes.post("/protocol", call -> Map.of("version", call.protocolVersion())));
      Thread.sleep(1_000);
      assertThat(burst(multiplexing, callers, 200)).containsOnly("2.0");
    }
  }

  private static List<String> burst(ServerClient client, ExecutorService callers, int calls) throws Exception {
    List<Future<String>> versions = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      versions.add(callers.submit(() -> version(client)));
    }
    List<String> seen = new ArrayList<>();
    for (Future<String> version : versions) {
      seen.add(version.get());
    }
    return seen;
  }

  @Test
  void anUpstreamThatDoesNotSpeakH2cIsCalledOnHttp11() throws Exception {
    // the JDK's own server speaks HTTP/1.1 only and ignores the upgrade
    com.sun.net.httpserver.HttpServer plain = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    plain.createContext("/", exchange -> {
      byte[] body = ("{\"path\": \"" + exchange.getRequestURI().getPath() + "\"}").getBytes();
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    plain.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    plain.start();
    URI url = URI.create("http://127.0.0.1:" + plain.getAddress().getPort() + "/v1/chat/completions");
    try (ServerClient client = client(quick().withMultiplexing(true).withInProcess(false))) {
      client.multiplex(url);
      for (int i = 0; i < 20; i++) {
        HttpReply reply = client.send(url, "POST", new byte[] {'{', '}'}, Map.of(), Map.of());
        assertThat(reply.json().get("path").asString()).isEqualTo("/v1/chat/completions");
      }
    } finally {
      plain.stop(0);
    }
  }

  @Test
  void aMultiplexedUpstreamThatIsDownIsAConnectionFailureAfterTheAttempts() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    URI url = URI.create("http://127.0.0.1:" + closedPort + "/x");
    try (ServerClient client = client(quick().withMultiplexing(true).withInProcess(false))) {
      client.multiplex(url);
      assertThatThrownBy(() -> client.send(url, "POST", new byte[0], Map.of(), Map.of()))
          .isInstanceOfSatisfying(UpstreamException.class, e -> {
            assertThat(e.kind()).isEqualTo(UpstreamException.Kind.CONNECTION);
            assertThat(e.getMessage()).contains("after 4 attempts");
          });
    }
  }

  private static String version(ServerClient client) {
    return client.post("upstream", "/protocol", Map.of(), Map.of()).json().get("version").asString();
  }

  @Test
  void retriesAnOverloadedServerUntilItAnswers() {
    try (ServerClient client = client(quick())) {
      HttpReply reply = client.post("upstream", "/flaky", Map.of(), Map.of());
      assertThat(reply.status()).isEqualTo(200);
      assertThat(flakyCalls).hasValue(3);
    }
  }

  @Test
  void givesUpAfterTheAttemptsAllowedAndReturnsTheLastAnswer() {
    try (ServerClient client = client(quick())) {
      HttpReply reply = client.post("upstream", "/unavailable", Map.of(), Map.of());
      assertThat(reply.status()).isEqualTo(429);
      assertThat(unavailableCalls).hasValue(4);
    }
  }

  @Test
  void aGatewayErrorFromAServerThatAlreadyRetriedIsNotRetriedAgain() {
    try (ServerClient client = client(quick())) {
      HttpReply reply = client.post("upstream", "/inner_failure", Map.of(), Map.of());
      assertThat(reply.status()).isEqualTo(502);
      assertThat(reply.json().get("detail").asString()).contains("the model behind me is down");
      assertThat(innerFailureCalls).hasValue(1);
    }
  }

  @Test
  void aSlowAnswerIsATimeoutAndIsNotRetried() {
    try (ServerClient client = client(quick().withRequestTimeout(Duration.ofMillis(200)))) {
      assertThatThrownBy(() -> client.post("upstream", "/slow", Map.of(), Map.of()))
          .isInstanceOfSatisfying(UpstreamException.class,
              e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.TIMEOUT));
      assertThat(slowCalls).hasValue(1);
    }
  }

  /**
   * Whether in process or over HTTP, the endpoint of a caller whose deadline passed is interrupted and counted
   * as abandoned (in process at once; over HTTP when the caller watch sees the closed connection).
   */
  @Test
  void theEndpointOfACallerWhoseDeadlinePassedIsInterruptedAndCountedAbandoned() throws Exception {
    for (boolean inProcess : new boolean[] {true, false}) {
      double before = abandonedSlowCalls();
      try (ServerClient client = client(quick().withRequestTimeout(Duration.ofMillis(200)).withInProcess(inProcess))) {
        assertThatThrownBy(() -> client.post("upstream", "/slow", Map.of(), Map.of()))
            .isInstanceOfSatisfying(UpstreamException.class,
                e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.TIMEOUT));
      }
      // the handler sleeps 3 s: counted before that only if it was interrupted
      long deadline = System.nanoTime() + Duration.ofMillis(2500).toNanos();
      while (abandonedSlowCalls() == before && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(abandonedSlowCalls()).as("in process: " + inProcess).isEqualTo(before + 1);
    }
  }

  private static double abandonedSlowCalls() {
    var counter = dev.gym4j.server.Metrics.REGISTRY.find("gym4j.requests.abandoned").tag("server", "upstream")
        .tag("route", "/slow").counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aCallToAServerOfThisJvmSkipsTheSocketUnlessTurnedOff() {
    for (boolean inProcess : new boolean[] {true, false}) {
      double before = inProcessCalls();
      try (ServerClient client = client(quick().withInProcess(inProcess))) {
        HttpReply reply = client.post("upstream", "/flaky", Map.of(), Map.of());
        assertThat(reply.status()).as("retried twice past 503").isEqualTo(200);
        assertThat(reply.cookies()).containsOnlyKeys("Upstream___test");
      }
      boolean expected = inProcess && !dev.gym4j.server.InProcess.forcedOff();
      assertThat(inProcessCalls() - before).as("in process: " + inProcess).isEqualTo(expected ? 3 : 0);
      flakyCalls.set(0);
    }
  }

  private static double inProcessCalls() {
    var counter = dev.gym4j.server.Metrics.REGISTRY.find("gym4j.client.in_process").counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void aRefusedConnectionIsAConnectionFailureAfterTheAttempts() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    try (ServerClient client = client(quick())) {
      assertThatThrownBy(() -> client.send(URI.create("http://127.0.0.1:" + closedPort + "/x"), "POST", new byte[0],
          Map.of(), Map.of()))
          .isInstanceOfSatisfying(UpstreamException.class, e -> {
            assertThat(e.kind()).isEqualTo(UpstreamException.Kind.CONNECTION);
            assertThat(e.getMessage()).contains("after 4 attempts");
          });
    }
  }

  @Test
  void anUnknownInstanceIsNamed() {
    try (ServerClient client = client(quick())) {
      assertThatThrownBy(() -> client.post("nobody", "/x", Map.of(), Map.of()))
          .isInstanceOfSatisfying(UpstreamException.class,
              e -> assertThat(e.kind()).isEqualTo(UpstreamException.Kind.UNKNOWN_INSTANCE))
          .hasMessageContaining("nobody");
    }
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "multiplexed: {0}")
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void requestsToOneUpstreamAreBoundedAndTheRestQueue(boolean multiplexed) throws Exception {
    // 3 sockets on HTTP/1.1, 3 streams when multiplexed
    ClientSettings bounded = new ClientSettings(Duration.ofSeconds(5), Duration.ofSeconds(30), 1,
        Duration.ofMillis(10), Duration.ofMillis(10), multiplexed ? 1000 : 3, multiplexed ? 3 : 1000, multiplexed);
    try (ServerClient client = client(bounded); ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<HttpReply>> replies = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        replies.add(callers.submit(() -> client.post("upstream", "/gate", Map.of(), Map.of())));
      }
      for (Future<HttpReply> reply : replies) {
        assertThat(reply.get().status()).isEqualTo(200);
      }
    }
    assertThat(maxInFlight.get()).isBetween(1, 3);
  }

  @Test
  void aServerAtCapacityRefusesWith503AndRetryAfterWhichTheClientHonours() throws Exception {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    WebServer small = ServerHost.serve("small", "127.0.0.1", 0, 1 << 20, 1, "Small___test", routes ->
        routes.post("/hold", call -> {
          release.await(10, java.util.concurrent.TimeUnit.SECONDS);
          return Map.of("ok", true);
        }));
    URI hold = URI.create("http://127.0.0.1:" + small.port() + "/hold");
    try (ServerClient patient = client(quick().withRetries(8, Duration.ofMillis(100), Duration.ofSeconds(2)));
        ServerClient impatient = client(quick().withRetries(1, Duration.ofMillis(10), Duration.ofMillis(10)));
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<HttpReply> first = callers.submit(() -> patient.send(hold, "POST", new byte[0], Map.of(), Map.of()));
      Thread.sleep(300);
      HttpReply refused = impatient.send(hold, "POST", new byte[0], Map.of(), Map.of());
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.text()).contains("at capacity");
      Future<HttpReply> second = callers.submit(() -> patient.send(hold, "POST", new byte[0], Map.of(), Map.of()));
      Thread.sleep(300);
      release.countDown();
      assertThat(first.get().status()).isEqualTo(200);
      assertThat(second.get().status()).as("retried after Retry-After until there was room").isEqualTo(200);
    } finally {
      small.stop();
    }
  }

  @Test
  void cookiesAreSentAndReadButNeverStored() {
    try (ServerClient client = client(quick())) {
      HttpReply first = client.post("upstream", "/gate", Map.of(), Map.of());
      assertThat(first.cookies()).containsKey("Upstream___test");
      HttpReply second = client.post("upstream", "/gate", Map.of(), first.cookies());
      assertThat(second.cookies().get("Upstream___test")).isEqualTo(first.cookies().get("Upstream___test"));
      HttpReply third = client.post("upstream", "/gate", Map.of(), Map.of());
      assertThat(third.cookies().get("Upstream___test")).isNotEqualTo(first.cookies().get("Upstream___test"));
    }
  }
}
