package dev.gym4j.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.gym4j.client.ClientSettings;
import dev.gym4j.client.HttpReply;
import dev.gym4j.client.ServerClient;
import dev.gym4j.config.ConfigLoader;
import dev.gym4j.json.Json;
import dev.gym4j.run.Deployment;
import dev.gym4j.server.Implementations;
import dev.gym4j.testkit.Answer;
import dev.gym4j.testkit.Behaviours;
import dev.gym4j.testkit.ScriptedUpstream;
import tools.jackson.databind.JsonNode;

/**
 * The load benchmark: the real stack (collector → agent {@code /run} → {@code seed_session} → model →
 * scripted upstream → tool → model → {@code verify}) in one JVM, measured side by side with the bare
 * upstream in the same run. It prints four figures as {@code name: value (target)} and fails only when a
 * run errors, never because a figure missed its target.
 */
public final class LoadBenchmark {
  /** Calls one rollout makes: /run, seed, 2 model calls, 2 upstream calls, 1 tool call, verify. */
  static final int HOPS = 8;
  private static final String AGENT = "example_single_tool_call_simple_agent";

  /**
   * What to run; {@code multiplexed} holds the rollouts in flight with HTTP/2 between all servers (as
   * {@code client_http2: true} does), else with HTTP/1.1, a socket per request.
   */
  public record Options(Path home, Duration overheadRun, int inFlight, Duration hold, Duration modelLatency,
      int clients, boolean multiplexed, Set<Figure> figures) {
    public static Options defaults(Path home) {
      return new Options(home, Duration.ofSeconds(10), 100_000, Duration.ofSeconds(60), Duration.ofSeconds(2), 64,
          true, java.util.EnumSet.allOf(Figure.class));
    }
  }

  /** The figures, in the order they run. */
  public enum Figure { STARTUP, OVERHEAD, CPU, CONCURRENCY, PAYLOAD }

  /** Rollouts in flight at which the CPU figure compares hops in process against HTTP. */
  static final int[] CPU_IN_FLIGHT = {32, 256};
  /** Alternating rounds of the CPU figure: each cell is run this many times, interleaved with the others. */
  static final int CPU_ROUNDS = 3;

  private final Options options;
  private final PrintStream out;

  public LoadBenchmark(Options options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /**
   * Runs all four; true when no run errored. Start-up goes first, on a quiet machine: after the load runs,
   * this JVM is still collecting the garbage of thousands of rollouts on the same two cores.
   */
  public boolean run() throws Exception {
    Set<Figure> figures = options.figures();
    boolean ok = !figures.contains(Figure.STARTUP) || startup();
    ok &= !figures.contains(Figure.OVERHEAD) || overhead();
    ok &= !figures.contains(Figure.CPU) || cpu();
    ok &= !figures.contains(Figure.CONCURRENCY) || concurrency();
    if (figures.contains(Figure.PAYLOAD)) {
      payload();
    }
    return ok;
  }

  /**
   * The deployment under test; {@code multiplexed}: every hop, the one to the scripted model included, as
   * HTTP/2 streams on shared connections ({@code client_http2}, {@code upstream_http2}).
   */
  private Deployment stack(String upstreamUrl, int inFlight, boolean multiplexed) {
    return stack(upstreamUrl, inFlight, multiplexed, true);
  }

  /** As above; {@code inProcess}: hops between the servers skip the socket ({@code client_in_process}). */
  private Deployment stack(String upstreamUrl, int inFlight, boolean multiplexed, boolean inProcess) {
    var config = new ConfigLoader(List.of(options.home()), Map.of()).load(List.of(
        "+config_paths=[models/configs/vllm_model.yaml,environments/example_single_tool_call/config.yaml]",
        "++head_server.port=0", "+policy_base_url=" + upstreamUrl, "+policy_api_key=bench",
        "+policy_model_name=bench", "+client_max_connections_per_upstream=" + Math.max(1024, inFlight),
        "+client_max_streams_per_upstream=" + Math.max(65_536, inFlight),
        "+client_http2=" + multiplexed,
        "++policy_model.responses_api_models.vllm_model.upstream_http2=" + multiplexed,
        "+client_request_timeout_seconds=600", "+client_in_process=" + inProcess,
        // every rollout in flight holds a session of the environment
        "++example_single_tool_call.resources_servers.example_single_tool_call.max_sessions="
            + Math.max(10_000, 2 * inFlight)));
    return Deployment.start(config, Implementations.load(), Set.of());
  }

  /**
   * Figure 1: full-stack rollouts/s against the bound the bare upstream's request rate sets, over HTTP/1.1
   * (the default) and with every hop multiplexed ({@code client_http2}), each against the bare upstream
   * called the same way.
   */
  boolean overhead() throws Exception {
    boolean ok = true;
    for (boolean multiplexed : new boolean[] {false, true}) {
      ok &= overhead(multiplexed);
    }
    return ok;
  }

  private boolean overhead(boolean multiplexed) throws Exception {
    String protocol = multiplexed ? "HTTP/2 multiplexed" : "HTTP/1.1";
    try (ScriptedUpstream upstream = ScriptedUpstream.start().keepReceived(0)) {
      upstream.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"SF\"}"), "Cold."));
      ClientSettings settings = ClientSettings.defaults().withRequestTimeout(Duration.ofMinutes(5))
          .withMultiplexing(multiplexed);
      var chat = Json.parse("{\"model\": \"bench\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
      double raw;
      try (ServerClient client = new ServerClient(name -> java.util.Optional.empty(), settings)) {
        java.net.URI url = java.net.URI.create(upstream.baseUrl() + "/chat/completions");
        if (multiplexed) {
          client.multiplex(url);
        }
        raw = rate(() -> client.send(url, "POST", Json.writeBytes(chat), Map.of(), Map.of()).ok());
      }
      double full;
      try (Deployment deployment = stack(upstream.baseUrl(), 1024, multiplexed);
          ServerClient client = new ServerClient(deployment.directory(), settings)) {
        JsonNode row = Json.readLines(options.home().resolve("environments/example_single_tool_call/data/example.jsonl"))
            .getFirst();
        full = rate(() -> {
          HttpReply reply = client.post(AGENT, "/run", row, Map.of());
          return reply.ok() && reply.json().path("reward").asDouble() == 1.0;
        });
      }
      double bound = raw / HOPS;
      figure("upstream requests/s (bare scripted upstream, " + protocol + ")", String.format("%.0f", raw),
          "measured first");
      // between gym4j servers the hops are in process; the protocol is the one to the scripted model
      String stack = protocol + " to the model, hops in process";
      figure("full-stack rollouts/s (" + stack + ")", String.format("%.1f", full), "bound "
          + String.format("%.1f", bound) + " = upstream rate / " + HOPS + " hops");
      figure("overhead ratio (" + stack + ")", String.format("%.2f", full / bound), ">= 0.5");
      return full > 0;
    }
  }

  /**
   * The CPU figure: server CPU per rollout (this JVM's CPU time over the rollouts completed, the scripted model's
   * share included) beside rollouts/s, with hops in process and over HTTP/1.1 (the path every hop took before
   * hops in process, as the baseline), at {@link #CPU_IN_FLIGHT} rollouts in flight. The cells run in
   * alternating rounds against two deployments started side by side, so that a busy neighbour on the machine
   * weighs on both alike; each cell shows the median of its rounds and their range, the noise.
   */
  boolean cpu() throws Exception {
    return cpu(CPU_ROUNDS);
  }

  boolean cpu(int rounds) throws Exception {
    try (ScriptedUpstream upstream = ScriptedUpstream.start().keepReceived(0)) {
      upstream.otherwise(Behaviours.callToolThenAnswer(Answer.toolCall("get_weather", "{\"city\": \"SF\"}"), "Cold."));
      ClientSettings settings = ClientSettings.defaults().withRequestTimeout(Duration.ofMinutes(5));
      JsonNode row = Json.readLines(options.home().resolve("environments/example_single_tool_call/data/example.jsonl"))
          .getFirst();
      try (Deployment overHttp = stack(upstream.baseUrl(), 1024, false, false);
          Deployment inProcess = stack(upstream.baseUrl(), 1024, false, true);
          ServerClient httpClient = new ServerClient(overHttp.directory(), settings.withInProcess(false));
          ServerClient localClient = new ServerClient(inProcess.directory(), settings.withInProcess(true))) {
        Map<String, List<double[]>> cells = new java.util.LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
          for (int inFlight : CPU_IN_FLIGHT) {
            for (boolean local : new boolean[] {round % 2 == 1, round % 2 == 0}) {
              ServerClient client = local ? localClient : httpClient;
              double[] measured = rateAndCpu(inFlight, () -> {
                HttpReply reply = client.post(AGENT, "/run", row, Map.of());
                return reply.ok() && reply.json().path("reward").asDouble() == 1.0;
              });
              cells.computeIfAbsent(inFlight + (local ? " in process" : " HTTP/1.1"), key -> new ArrayList<>())
                  .add(measured);
            }
          }
        }
        for (int inFlight : CPU_IN_FLIGHT) {
          List<double[]> http = cells.get(inFlight + " HTTP/1.1");
          List<double[]> local = cells.get(inFlight + " in process");
          figure("CPU per rollout at " + inFlight + " in flight, HTTP/1.1 hops (baseline)", cell(http),
              "median of " + rounds + " alternating rounds [range]");
          figure("CPU per rollout at " + inFlight + " in flight, hops in process", cell(local),
              String.format("%.2fx the baseline's CPU per rollout, %.2fx its rollouts/s; target <= 0.5x CPU",
                  median(local, 1) / median(http, 1), median(local, 0) / median(http, 0)));
        }
        return true;
      }
    }
  }

  private static String cell(List<double[]> runs) {
    return String.format("%.2f ms [%.2f-%.2f] at %.0f rollouts/s [%.0f-%.0f]", median(runs, 1), min(runs, 1),
        max(runs, 1), median(runs, 0), min(runs, 0), max(runs, 0));
  }

  private static double median(List<double[]> runs, int column) {
    double[] values = runs.stream().mapToDouble(run -> run[column]).sorted().toArray();
    return values.length % 2 == 1 ? values[values.length / 2]
        : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
  }

  private static double min(List<double[]> runs, int column) {
    return runs.stream().mapToDouble(run -> run[column]).min().orElse(0);
  }

  private static double max(List<double[]> runs, int column) {
    return runs.stream().mapToDouble(run -> run[column]).max().orElse(0);
  }

  /**
   * Rollouts per second and milliseconds of this process's CPU per rollout, from {@code callers} callers
   * over the overhead run after a warm-up.
   */
  private double[] rateAndCpu(int callers, java.util.function.BooleanSupplier call) throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long warmupEnd = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    long end = warmupEnd + options.overheadRun().toNanos();
    long cpuStart;
    long cpuEnd;
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < callers; i++) {
        pool.submit(() -> {
          while (System.nanoTime() < end) {
            boolean ok = call.getAsBoolean();
            long now = System.nanoTime();
            if (now > warmupEnd && now <= end) {
              (ok ? done : failed).incrementAndGet();
            }
          }
        });
      }
      sleepUntil(warmupEnd);
      cpuStart = os.getProcessCpuTime();
      sleepUntil(end);
      cpuEnd = os.getProcessCpuTime();
    }
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " calls failed during the CPU run");
    }
    double seconds = options.overheadRun().toNanos() / 1e9;
    return new double[] {done.get() / seconds, (cpuEnd - cpuStart) / 1e6 / Math.max(1, done.get())};
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    for (long left = nanoTime - System.nanoTime(); left > 0; left = nanoTime - System.nanoTime()) {
      Thread.sleep(Duration.ofNanos(left));
    }
  }

  /** Successful calls per second from {@code clients} callers over the overhead run. */
  private double rate(java.util.function.BooleanSupplier call) throws Exception {
    AtomicLong done = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long warmupEnd = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    long end = warmupEnd + options.overheadRun().toNanos();
    try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < options.clients(); i++) {
        callers.submit(() -> {
          while (System.nanoTime() < end) {
            boolean ok = call.getAsBoolean();
            if (System.nanoTime() > warmupEnd) {
              (ok ? done : failed).incrementAndGet();
            }
          }
        });
      }
    }
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " calls failed during the overhead run");
    }
    return done.get() / (options.overheadRun().toNanos() / 1e9);
  }

  /**
   * Figure 2: rollouts held in flight with a slow model, heap per rollout, added latency per hop. The
   * scripted model runs in a JVM of its own, so that the heap measured is gym4j's alone.
   */
  boolean concurrency() throws Exception {
    Duration latency = options.modelLatency();
    try (ScriptedModelProcess upstream = ScriptedModelProcess.start(latency)) {
      int n = options.inFlight();
      ClientSettings settings = ClientSettings.defaults().withRequestTimeout(Duration.ofMinutes(10))
          .withMaxConnectionsPerUpstream(n).withMaxStreamsPerUpstream(n).withMultiplexing(options.multiplexed());
      try (Deployment deployment = stack(upstream.baseUrl(), n, options.multiplexed());
          ServerClient client = new ServerClient(deployment.directory(), settings)) {
        JsonNode row = Json.readLines(options.home().resolve("environments/example_single_tool_call/data/example.jsonl"))
            .getFirst();
        long heapBefore = usedHeapAfterGc();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        Map<String, java.util.concurrent.atomic.LongAdder> errors = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicLong completed = new AtomicLong();
        ConcurrentLinkedQueue<Long> added = new ConcurrentLinkedQueue<>();
        long begin = System.nanoTime();
        long end = begin + options.hold().toNanos();
        long modelNanos = 2 * latency.toNanos();
        Hold hold;
        try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
          for (int i = 0; i < n; i++) {
            workers.submit(() -> {
              while (System.nanoTime() < end) {
                peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                long start = System.nanoTime();
                String error = null;
                try {
                  HttpReply reply = client.post(AGENT, "/run", row, Map.of());
                  if (reply.ok() && reply.json().path("reward").asDouble() == 1.0) {
                    completed.incrementAndGet();
                    added.add((System.nanoTime() - start - modelNanos) / HOPS);
                  } else {
                    error = "status " + reply.status() + (reply.ok() ? " with another reward"
                        : ": " + reply.json().path("detail").asString("").lines().findFirst().orElse(""));
                  }
                } catch (RuntimeException e) {
                  error = e instanceof dev.gym4j.client.UpstreamException failure ? failure.kind().toString()
                      : e.getClass().getSimpleName();
                } finally {
                  inFlight.decrementAndGet();
                }
                if (error != null) {
                  errors.computeIfAbsent(error, key -> new java.util.concurrent.atomic.LongAdder()).increment();
                }
              }
            });
          }
          hold = hold(inFlight, peak, n, end);
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        long errorCount = errors.values().stream().mapToLong(java.util.concurrent.atomic.LongAdder::sum).sum();
        List<Long> perHop = new ArrayList<>(added);
        Collections.sort(perHop);
        double perRollout = Math.max(0, hold.heap() - heapBefore) / (double) Math.max(1, peak.get());
        figure("rollouts in flight (held " + options.hold().toSeconds() + " s, model latency "
            + latency.toMillis() + " ms per call, hops in process, "
            + (options.multiplexed() ? "HTTP/2 multiplexed" : "HTTP/1.1") + " to the model"
            + ")", peak.get() + " (never fewer than " + hold.lowest() + " after the ramp-up) with " + errorCount
            + " errors" + (errors.isEmpty() ? "" : " " + errors) + "; " + completed.get() + " completed in "
            + String.format("%.0f s, %.0f/s", seconds, completed.get() / seconds), "100000 in flight, 0 errors");
        figure("heap per in-flight rollout (collector and servers; the model is another JVM)",
            String.format("%.1f KiB (%.0f MiB for %d)", perRollout / 1024,
            perRollout * peak.get() / (1 << 20), peak.get()), "<= 4 GB for 100000, i.e. <= 41 KiB");
        figure("added latency per hop p50 / p99", percentile(perHop, 0.5) + " / " + percentile(perHop, 0.99),
            "small against the model's " + latency.toMillis() + " ms");
        return errorCount == 0;
      }
    }
  }

  /** What the hold saw: the fewest rollouts in flight once all had started, and the most heap they used. */
  private record Hold(int lowest, long heap) {}

  /**
   * Samples the rollouts in flight once a second until the end of the hold, from the moment all {@code n}
   * have started, and the live heap (after a full collection) half-way and at the end: state grows as
   * rollouts move deeper into the stack, so the larger of the two counts.
   */
  private static Hold hold(AtomicInteger inFlight, AtomicInteger peak, int n, long end) throws InterruptedException {
    long halfway = System.nanoTime() + (end - System.nanoTime()) / 2;
    int lowest = Integer.MAX_VALUE;
    boolean rampedUp = false;
    long heap = -1;
    while (System.nanoTime() < end) {
      Thread.sleep(Math.max(1, Math.min(1000, (end - System.nanoTime()) / 1_000_000)));
      int now = inFlight.get();
      rampedUp |= peak.get() >= n;
      if (rampedUp) {
        lowest = Math.min(lowest, now);
      }
      if (heap < 0 && System.nanoTime() >= halfway) {
        heap = usedHeapAfterGc();
      }
    }
    return new Hold(rampedUp ? lowest : 0, Math.max(heap, usedHeapAfterGc()));
  }

  private static String percentile(List<Long> sorted, double q) {
    if (sorted.isEmpty()) {
      return "n/a";
    }
    long nanos = sorted.get(Math.min(sorted.size() - 1, (int) (q * sorted.size())));
    return String.format("%.2f ms", Math.max(0, nanos) / 1e6);
  }

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Figure 3: from JVM start to all servers ready, for a three-server config, in a fresh JVM. */
  boolean startup() throws Exception {
    Path aot = options.home().resolve("cli/target/dist/gym4j.aot");
    List<String> jvmOptions = new ArrayList<>();
    if (Files.exists(aot)) {
      jvmOptions.addAll(List.of("-XX:AOTCache=" + aot, "-Xlog:aot=off", "-Xlog:cds=off"));
    }
    jvmOptions.add("-Dgym4j.home=" + options.home());
    List<String> command = ChildJvm.command(jvmOptions, "dev.gym4j.cli.Main", List.of("run", "--check",
        "++head_server.port=0",
        "+config_paths=[models/configs/vllm_model.yaml,environments/example_single_tool_call/config.yaml]",
        "+policy_base_url=http://127.0.0.1:9/v1", "+policy_api_key=x", "+policy_model_name=x"));
    Pattern ready = Pattern.compile("All (\\d+) servers ready in ([0-9.]+) s");
    List<Double> seconds = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Process process = new ProcessBuilder(command).directory(options.home().toFile()).redirectErrorStream(true).start();
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
        String line;
        while ((line = reader.readLine()) != null) {
          Matcher matcher = ready.matcher(line);
          if (matcher.find()) {
            seconds.add(Double.parseDouble(matcher.group(2)));
          }
        }
      }
      process.waitFor();
    }
    if (seconds.isEmpty()) {
      figure("start-up", "failed", "< 1 s");
      return false;
    }
    Collections.sort(seconds);
    figure("start-up to all ready (head + 3 servers, median of 3, " + (Files.exists(aot) ? "AOT cache" : "no AOT cache")
        + ")", String.format("%.2f s", seconds.get(seconds.size() / 2)), "< 1 s");
    return true;
  }

  /** Figure 4: Responses→Chat conversion of a long rollout against a plain Jackson read and write. */
  void payload() {
    byte[] request = PayloadBuilder.rollout(20, 64_000);
    Runnable plain = () -> Json.writeBytes(Json.parse(request));
    Runnable convert = () -> Json.writeBytes(dev.gym4j.wire.ResponsesToChat.convert(
        (tools.jackson.databind.node.ObjectNode) Json.parse(request), true));
    for (int i = 0; i < 30; i++) {
      plain.run();
      convert.run();
    }
    double plainMs = medianMillis(plain);
    double convertMs = medianMillis(convert);
    figure("payload cost (20-turn, 64k-token rollout with token ids, " + request.length / 1024 + " KiB)",
        String.format("%.2fx (convert %.2f ms, plain read+write %.2f ms)", convertMs / plainMs, convertMs, plainMs),
        "<= 2x");
  }

  private static double medianMillis(Runnable work) {
    List<Long> times = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      long start = System.nanoTime();
      work.run();
      times.add(System.nanoTime() - start);
    }
    Collections.sort(times);
    return times.get(times.size() / 2) / 1e6;
  }

  private void figure(String name, String value, String target) {
    out.println(name + ": " + value + " (" + target + ")");
    out.flush();
  }
}
