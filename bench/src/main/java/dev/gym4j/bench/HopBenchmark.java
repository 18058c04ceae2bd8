package dev.gym4j.bench;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.server.ServerHost;
import io.helidon.webserver.WebServer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One hop of a rollout: a small JSON POST through {@link ServerClient} to a gym4j server on loopback and its
 * JSON answer, over HTTP/1.1 (a kept-alive socket) or multiplexed HTTP/2. A rollout makes eight of these.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HopBenchmark {
  @Param({"http1", "http2"})
  public String protocol;

  private WebServer server;
  private ServerClient client;
  private final Map<String, Object> body = Map.of("city", "San Francisco", "session", "0f3c9a");

  @Setup(Level.Trial)
  public void start() {
    server = ServerHost.serve("hop", "127.0.0.1", 0, 1 << 20, "Hop___bench", routes ->
        routes.post("/get_weather", call -> Map.of("city", call.body().path("city").asString(), "weather", "cold")));
    URI base = URI.create("http://127.0.0.1:" + server.port());
    client = new ServerClient(name -> Optional.of(base),
        ClientSettings.defaults().withMultiplexing(protocol.equals("http2")));
  }

  @Benchmark
  public HttpReply hop() {
    HttpReply reply = client.post("hop", "/get_weather", body, Map.of());
    if (!reply.ok()) {
      throw new IllegalStateException("hop answered " + reply.status());
    }
    return reply;
  }

  @TearDown(Level.Trial)
  public void stop() {
    client.close();
    server.stop();
  }
}
