package dev.gym4j.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.gym4j.math.MathVerifier;
import dev.gym4j.math.Verdict;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** One math verification per call, cycling through the 42 recorded and 1,000 generated pairs. */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MathVerifyBenchmark {
  private final MathVerifier verifier = new MathVerifier();
  private List<MathPairs.Pair> pairs;
  private int next;

  @Setup
  public void load() {
    pairs = new ArrayList<>(MathPairs.recorded());
    pairs.addAll(MathPairs.generated(1_000, 42));
  }

  @Benchmark
  public Verdict verify() {
    MathPairs.Pair pair = pairs.get(next);
    next = next + 1 == pairs.size() ? 0 : next + 1;
    return verifier.verifyExpected(pair.expected(), pair.modelText());
  }
}
