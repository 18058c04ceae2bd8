package dev.gym4j.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs untrusted programs, isolated with bubblewrap (see {@link CommandLine} for what a program sees), under the
 * {@link Limits} of each {@link Execution}. At most {@code concurrency} runs at once; more wait in a fair queue
 * up to the queue deadline. Thread-safe.
 *
 * <p>{@link #start} checks that isolation really works here (every namespace is new) and refuses to start
 * otherwise; only {@code sandbox: unsafe_subprocess} runs code without it, and says so loudly.
 *
 * <pre>{@code
 * try (Sandbox sandbox = Sandbox.start(SandboxSettings.defaults())) {
 *   ExecutionResult result = sandbox.run(Execution.python(sandbox.python(), "print(6 * 7)", "", Limits.DEFAULTS));
 *   result.stdout();   // "42\n"
 * }
 * }</pre>
 */
public final class Sandbox implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);
  /** The namespaces a run must not share with us. */
  static final List<String> NAMESPACES = List.of("user", "pid", "net", "ipc", "mnt", "uts", "cgroup");
  /** Fresh user ids for runs when we are root: far above any real account. */
  private static final long UID_BASE = 1_000_000_000L;
  private static final int UID_RANGE = 1_000_000_000;
  private static final Duration DRAIN = Duration.ofSeconds(5);

  private final SandboxSettings settings;
  private final Path scratch;
  private final Semaphore slots;
  private final Semaphore live;
  private final boolean root;
  private final int processBase;
  private final boolean measures;
  private final SecureRandom random = new SecureRandom();
  private final Set<LiveProcess> open = ConcurrentHashMap.newKeySet();
  private final Set<Process> running = ConcurrentHashMap.newKeySet();

  private Sandbox(SandboxSettings settings, Path scratch, boolean root, int processBase) {
    this.settings = settings;
    this.scratch = scratch;
    this.slots = new Semaphore(settings.concurrency(), true);
    this.live = new Semaphore(settings.maxLiveProcesses());
    this.root = root;
    this.processBase = processBase;
    this.measures = CommandLine.measures();
  }

  /**
   * A sandbox that is known to isolate: bubblewrap is there, and a probe run sees a new namespace of every kind
   * in {@link #NAMESPACES}. Otherwise a {@link SandboxException} of kind {@code UNAVAILABLE} that says what is
   * missing.
   */
  public static Sandbox start(SandboxSettings settings) {
    boolean root = uid() == 0;
    Path scratch;
    try {
      scratch = Files.createTempDirectory("gym4j-sandbox-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx--x--x")));
    } catch (IOException e) {
      throw new SandboxException(SandboxException.Kind.FAILED, "cannot create the sandbox's scratch directory", e);
    }
    if (settings.mode() == SandboxSettings.Mode.UNSAFE_SUBPROCESS) {
      LOG.warn("""

          ************************************************************************************
          * sandbox: unsafe_subprocess: model-written code runs as a PLAIN CHILD PROCESS of   *
          * this server, with resource limits but NO isolation: it can read your files, use   *
          * the network and leave processes behind. Use this on a developer's machine only.   *
          ************************************************************************************""");
      return new Sandbox(settings, scratch, false, root ? 0 : userProcesses());
    }
    Sandbox sandbox = new Sandbox(settings, scratch, root, root ? 0 : userProcesses());
    try {
      sandbox.probe();
    } catch (RuntimeException e) {
      sandbox.close();
      throw e;
    }
    return sandbox;
  }

  public SandboxSettings settings() {
    return settings;
  }

  /** The interpreter's path, as a program's command names it. */
  public String python() {
    return settings.python().toString();
  }

  public boolean isolated() {
    return settings.mode() == SandboxSettings.Mode.BUBBLEWRAP;
  }

  /**
   * Runs a program to its end or to a limit; waits for a slot first (at most the queue deadline). A program that
   * fails or reaches a limit is a result; only a sandbox that cannot run it throws.
   */
  public ExecutionResult run(Execution execution) {
    acquire(slots, settings.queueTimeout());
    try {
      return runHolding(execution, null);
    } finally {
      slots.release();
    }
  }

  /**
   * Runs a trusted {@code checker} that calls into an untrusted {@code candidate}, each in a sandbox of its own,
   * and returns the checker's result: its standard output holds only what the checker printed, never anything of
   * the candidate's. See {@link CheckedRun} for how they speak; {@link #CALLS_LIBRARY} is the Python side of both
   * ends (place it as {@code calls.py} in both executions). The checker's wall clock bounds the whole run; the
   * candidate is killed when the checker ends. Takes one slot: the candidate runs only while the checker waits.
   */
  public ExecutionResult runChecked(Execution checker, Execution candidate) {
    acquire(slots, settings.queueTimeout());
    CheckedRun relay = new CheckedRun(this, candidate, System.nanoTime() + checker.limits().wallClock().toNanos());
    try {
      ExecutionResult result = runHolding(checker, relay);
      if (relay.failure() != null) {
        throw relay.failure();
      }
      return result;
    } finally {
      relay.close();
      slots.release();
    }
  }

  /** The Python library of {@link #runChecked}: a value codec, the checker's proxies, the candidate's serve loop. */
  public static final String CALLS_LIBRARY = CheckedRun.LIBRARY;

  /**
   * Starts a long-lived program (an interpreter session) whose standard input and output the caller speaks to.
   * Its wall-clock limit bounds its whole life; the caller must {@link LiveProcess#close close} it. At most
   * {@code sandbox_max_live_processes} are open at once; beyond that this fails at once with {@code BUSY}.
   */
  public LiveProcess open(Execution execution) {
    if (!live.tryAcquire()) {
      throw new SandboxException(SandboxException.Kind.BUSY,
          "sandbox: " + settings.maxLiveProcesses() + " live processes are already open");
    }
    try {
      Launched launched = launch(execution);
      LiveProcess process = new LiveProcess(this, launched, execution.limits());
      open.add(process);
      return process;
    } catch (RuntimeException e) {
      live.release();
      throw e;
    }
  }

  void closed(LiveProcess process, Launched launched) {
    if (open.remove(process)) {
      killTree(launched.process());
      delete(launched.runDir());
      live.release();
    }
  }

  /** Kills every run still going and every live process, and removes the scratch directory. */
  @Override
  public void close() {
    List.copyOf(open).forEach(LiveProcess::close);
    List.copyOf(running).forEach(Sandbox::killTree);
    delete(scratch);
  }

  Path scratch() {
    return scratch;
  }

  private ExecutionResult runHolding(Execution execution, CheckedRun relay) {
    Limits limits = execution.limits();
    Launched launched = launch(execution);
    Process process = launched.process();
    running.add(process);
    AtomicReference<Outcome> killedFor = new AtomicReference<>();
    AtomicReference<Usage> usedAtKill = new AtomicReference<>();
    Runnable outputLimit = () -> {
      if (killedFor.compareAndSet(null, Outcome.OUTPUT_LIMIT)) {
        usedAtKill.set(Usage.atKill(process.toHandle()));
        killTree(process);
      }
    };
    CappedOutput out = new CappedOutput(process.getInputStream(), limits.stdoutBytes(), outputLimit);
    CappedOutput err = new CappedOutput(process.getErrorStream(), limits.stderrBytes(), outputLimit);
    Thread outReader = Thread.ofVirtual().start(relay == null ? out
        : () -> relay.relay(process.getInputStream(), process.getOutputStream(), out));
    Thread errReader = Thread.ofVirtual().start(err);
    Thread writer = relay == null ? Thread.ofVirtual().start(() -> feed(process.getOutputStream(), execution.stdin()))
        : Thread.ofVirtual().start(() -> { });
    try {
      boolean ended = process.waitFor(limits.wallClock().toNanos(), TimeUnit.NANOSECONDS);
      if (!ended && killedFor.compareAndSet(null, Outcome.TIMEOUT)) {
        usedAtKill.set(Usage.atKill(process.toHandle()));
        killTree(process);
      }
      if (relay != null) {
        relay.close();
      }
      if (!process.waitFor(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new SandboxException(SandboxException.Kind.FAILED, "sandbox: the launcher did not end after a kill");
      }
      long wallNanos = System.nanoTime() - launched.startNanos();
      // the namespace is gone with its PID 1, so the pipes close; the join is bounded all the same
      outReader.join(DRAIN);
      errReader.join(DRAIN);
      writer.interrupt();
      Usage usage = killedFor.get() == null ? Usage.atExit(launched.usage()) : usedAtKill.get();
      return result(killedFor.get(), usage, process.exitValue(), out, err, Duration.ofNanos(wallNanos), limits);
    } catch (InterruptedException e) {
      killTree(process);
      Thread.currentThread().interrupt();
      throw new SandboxException(SandboxException.Kind.FAILED, "sandbox: interrupted", e);
    } finally {
      if (process.isAlive()) {
        killTree(process);
      }
      running.remove(process);
      delete(launched.runDir());
    }
  }

  private ExecutionResult result(Outcome killedFor, Usage usage, int status, CappedOutput out, CappedOutput err,
      Duration wall, Limits limits) {
    Optional<Duration> cpu = Optional.empty();
    OptionalLong memory = OptionalLong.empty();
    if (usage != null) {
      cpu = Optional.of(usage.cpu());
      memory = OptionalLong.of(usage.peakBytes());
    }
    int signal = status > 128 && status <= 128 + 64 ? status - 128 : 0;
    int exitCode = signal == 0 ? status : -1;
    String stderr = err.text();
    Outcome outcome;
    if (killedFor != null) {
      outcome = killedFor;
      exitCode = -1;
      signal = 9;
    } else if (signal == 24 || signal == 9 && cpu.map(used -> used.compareTo(limits.cpu()) >= 0).orElse(true)) {
      outcome = Outcome.CPU_TIME;
    } else if (signal == 25 || exitCode > 0 && stderr.contains("[Errno 27] File too large")) {
      outcome = Outcome.FILE_SIZE;
    } else if (status != 0 && (stderr.contains("MemoryError") || stderr.contains("std::bad_alloc")
        || stderr.contains("Cannot allocate memory"))) {
      outcome = Outcome.MEMORY;
    } else {
      outcome = signal != 0 ? Outcome.SIGNALED : Outcome.EXITED;
    }
    return new ExecutionResult(outcome, exitCode, signal, out.text(), stderr, out.cut(), err.cut(), wall, cpu,
        memory, usage == null ? UsageMeasured.UNKNOWN : usage.measured(), isolated());
  }

  record Launched(Process process, Path runDir, Path usage, long startNanos) {}

  Launched launch(Execution execution) {
    Path runDir = null;
    try {
      runDir = Files.createTempDirectory(scratch, "run-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwxr-xr-x")));
      for (Map.Entry<String, byte[]> file : execution.files().entrySet()) {
        Path path = runDir.resolve(file.getKey());
        Files.write(path, file.getValue());
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
      }
      Path usage = null;
      if (measures) {
        usage = Files.createFile(runDir.resolve(".usage"));
        Files.setPosixFilePermissions(usage, PosixFilePermissions.fromString("rw-rw-rw-"));
      }
      List<String> command = isolated()
          ? CommandLine.bubblewrap(settings, execution, runDir, usage, root ? freshUid() : -1, processBase)
          : CommandLine.unsafe(execution, usage, processBase);
      ProcessBuilder builder = new ProcessBuilder(command).directory(runDir.toFile());
      builder.environment().clear();
      builder.environment().putAll(CommandLine.environment());
      long start = System.nanoTime();
      return new Launched(builder.start(), runDir, usage, start);
    } catch (IOException e) {
      if (runDir != null) {
        delete(runDir);
      }
      throw new SandboxException(SandboxException.Kind.FAILED, "sandbox: cannot start the launcher: "
          + e.getMessage(), e);
    }
  }

  /** Starts a checked run's candidate; {@link #candidateEnded} undoes it. */
  Launched launchCandidate(Execution execution) {
    Launched launched = launch(execution);
    running.add(launched.process());
    return launched;
  }

  void candidateEnded(Launched launched) {
    killTree(launched.process());
    running.remove(launched.process());
    delete(launched.runDir());
  }

  private long freshUid() {
    return UID_BASE + random.nextInt(UID_RANGE);
  }

  /** Kills the launcher and everything under it; killing bubblewrap ends the PID namespace and all in it. */
  static void killTree(Process process) {
    ProcessHandle handle = process.toHandle();
    List<ProcessHandle> tree = new ArrayList<>();
    try (Stream<ProcessHandle> descendants = handle.descendants()) {
      descendants.forEach(tree::add);
    }
    handle.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
  }

  private static void feed(OutputStream stdin, byte[] bytes) {
    try (stdin) {
      stdin.write(bytes);
    } catch (IOException e) {
      // the program ended without reading all of its input: that is its business
    }
  }

  private static void acquire(Semaphore semaphore, Duration wait) {
    try {
      if (!semaphore.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new SandboxException(SandboxException.Kind.BUSY,
            "sandbox: no free slot within " + wait.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SandboxException(SandboxException.Kind.BUSY, "sandbox: interrupted while queued", e);
    }
  }

  static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("sandbox: could not delete {}: {}", dir, e.getMessage());
    }
  }

  /** A run that prints the namespaces it is in; each must differ from ours. */
  private void probe() {
    if (!Files.isExecutable(settings.bubblewrap())) {
      throw new SandboxException(SandboxException.Kind.UNAVAILABLE, "sandbox: bubblewrap is not installed at "
          + settings.bubblewrap() + " (Debian/Ubuntu: apt-get install bubblewrap). To run code WITHOUT isolation on"
          + " a developer's machine, set sandbox: unsafe_subprocess");
    }
    if (!Files.isExecutable(settings.python())
        || settings.readOnlyPaths().stream().noneMatch(path -> settings.python().startsWith(path))) {
      throw new SandboxException(SandboxException.Kind.UNAVAILABLE, "sandbox: the interpreter " + settings.python()
          + " is missing or outside the read-only view " + settings.readOnlyPaths());
    }
    StringBuilder script = new StringBuilder("import os\n");
    for (String ns : NAMESPACES) {
      script.append("print('").append(ns).append("', os.readlink('/proc/self/ns/").append(ns).append("'))\n");
    }
    ExecutionResult result = run(Execution.python(python(), script.toString(), "",
        Limits.DEFAULTS.withWallClock(Duration.ofSeconds(30))));
    if (!result.succeeded()) {
      throw new SandboxException(SandboxException.Kind.UNAVAILABLE, "sandbox: bubblewrap cannot create its"
          + " namespaces here (" + result.outcome().wireName() + ", exit " + result.exitCode() + "): "
          + result.stderr().strip());
    }
    List<String> shared = new ArrayList<>();
    for (String line : result.stdout().strip().split("\n")) {
      String[] parts = line.split(" ", 2);
      try {
        if (Files.readSymbolicLink(Path.of("/proc/self/ns/" + parts[0])).toString().equals(parts[1])) {
          shared.add(parts[0]);
        }
      } catch (IOException e) {
        // we cannot see our own namespace of this kind, so nobody shares it with us
      }
    }
    if (shared.size() > 0 || result.stdout().strip().split("\n").length != NAMESPACES.size()) {
      throw new SandboxException(SandboxException.Kind.UNAVAILABLE,
          "sandbox: a probe run still shares these namespaces with the server: " + shared);
    }
  }

  private static long uid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("Uid:")) {
          return Long.parseLong(line.split("\\s+")[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: no bubblewrap either
    }
    return -1;
  }

  /** Processes our user has now: a run's process limit counts them too when we cannot give it its own user. */
  private static int userProcesses() {
    String user = System.getProperty("user.name");
    try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
      return (int) all.filter(p -> p.info().user().map(user::equals).orElse(false)).count() + 64;
    }
  }

  /** For {@link LiveProcess}: its stream of standard input. */
  static OutputStream stdin(Launched launched) {
    return launched.process().getOutputStream();
  }

  static InputStream stdout(Launched launched) {
    return launched.process().getInputStream();
  }
}
