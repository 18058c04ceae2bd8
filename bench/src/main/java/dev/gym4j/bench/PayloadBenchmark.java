package dev.gym4j.bench;

import java.util.concurrent.TimeUnit;

import dev.gym4j.json.Json;
import dev.gym4j.wire.ResponsesToChat;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.node.ObjectNode;

/**
 * Responses→Chat conversion of a 20-turn, 64k-token rollout with token ids, next to a plain Jackson read
 * and write of the same bytes: the cost the model server adds per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PayloadBenchmark {
  private byte[] request;

  @Setup
  public void build() {
    request = PayloadBuilder.rollout(20, 64_000);
  }

  @Benchmark
  public byte[] plainReadWrite() {
    return Json.writeBytes(Json.parse(request));
  }

  @Benchmark
  public byte[] responsesToChat() {
    return Json.writeBytes(ResponsesToChat.convert((ObjectNode) Json.parse(request), true));
  }
}
