package dev.gym4j.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.gym4j.json.Json;
import dev.gym4j.viewer.SampleRollouts;
import dev.gym4j.viewer.Viewer;
import tools.jackson.databind.JsonNode;

/**
 * The viewer figure of {@code gym4j bench --viewer}: a generated rollouts file of the given size (1 GB by default,
 * rows of about 8 KB like real ones), opened by {@code gym4j view}; prints the time to first render (from start-up
 * until the page's first requests, the file list and the first table page, have answered with rows), the time until
 * the whole file is indexed, then the overview of the whole file, a table page sorted by reward, and opening a
 * rollout in the middle and at the end. Times are of the page's own HTTP requests, from a client on this machine.
 */
public final class ViewerBenchmark {
  private static final int ROW_PADDING = 8_000;

  private final PrintStream out;
  private final long bytes;
  private final Path directory;

  /**
   * @param directory where the file is generated (and deleted after); its disk needs {@code bytes} free
   */
  public ViewerBenchmark(PrintStream out, long bytes, Path directory) {
    this.out = out;
    this.bytes = bytes;
    this.directory = directory;
  }

  /** Generates, measures and prints; returns the figures in milliseconds. */
  public Figures run() throws IOException, InterruptedException {
    Path file = Files.createTempFile(directory, "viewer-bench-", ".jsonl");
    try {
      long generating = System.nanoTime();
      long rows = new SampleRollouts(0, 8, 1, ROW_PADDING).writeAtLeast(file, bytes);
      out.printf("viewer: generated %d rollouts, %.1f MB, in %.1f s%n", rows, Files.size(file) / 1e6,
          (System.nanoTime() - generating) / 1e9);
      return measure(file, rows);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** The figures of one run, in milliseconds. */
  public record Figures(double firstRender, double fullyIndexed, double overview, double sortedPage,
      double openMiddle, double openLast) {}

  private Figures measure(Path file, long rows) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
    var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean();
    long cpuStart = os.getProcessCpuTime();
    long start = System.nanoTime();
    try (Viewer viewer = Viewer.start(List.of(file), "127.0.0.1", 0)) {
      URI base = viewer.uri();
      long deadline = start + Duration.ofMinutes(10).toNanos();
      // first render: the page asks for the file list, then the overview (its first view) of the rows so far
      while (get(http, base, "api/files").path("files").get(0).path("rows").asLong() == 0) {
        waitOrFail(deadline, "the first rows");
      }
      get(http, base, "api/overview?file=0");
      double firstRender = millisSince(start);
      double firstRenderCpu = (os.getProcessCpuTime() - cpuStart) / 1e6;
      get(http, base, "api/rows?file=0&limit=50");
      double firstTable = millisSince(start);
      while (!viewer.indexed()) {
        waitOrFail(deadline, "indexing the whole file");
      }
      double indexed = millisSince(start);
      long t = System.nanoTime();
      long cpu = os.getProcessCpuTime();
      JsonNode overview = get(http, base, "api/overview?file=0");
      double overviewMillis = millisSince(t);
      double overviewCpu = (os.getProcessCpuTime() - cpu) / 1e6;
      t = System.nanoTime();
      get(http, base, "api/rows?file=0&sort=reward&dir=desc&limit=50");
      double sorted = millisSince(t);
      t = System.nanoTime();
      get(http, base, "api/rollout?file=0&row=" + rows / 2);
      double middle = millisSince(t);
      t = System.nanoTime();
      get(http, base, "api/rollout?file=0&row=" + (rows - 1));
      double last = millisSince(t);
      Figures figures = new Figures(firstRender, indexed, overviewMillis, sorted, middle, last);
      out.printf("viewer time to first render: %.0f ms (the overview of the rows indexed so far; the first table "
          + "page at %.0f ms; goal: seconds; CPU time of this process until then %.0f ms)%n", figures.firstRender(),
          firstTable, firstRenderCpu);
      out.printf("viewer whole file indexed: %.1f s (%d rows; the page renders while this runs)%n",
          figures.fullyIndexed() / 1000, overview.path("file").path("rows").asLong());
      out.printf("viewer overview of the whole file: %.0f ms (CPU %.0f ms); table page sorted by reward: %.0f ms%n",
          figures.overview(), overviewCpu, figures.sortedPage());
      out.printf("viewer time to open a rollout: %.1f ms (middle), %.1f ms (last row)%n", figures.openMiddle(),
          figures.openLast());
      out.printf("viewer: machine load average %.1f on %d processors during the run%n",
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          Runtime.getRuntime().availableProcessors());
      return figures;
    }
  }

  private static JsonNode get(HttpClient http, URI base, String path) throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(base.resolve(path))
        .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("the viewer answered " + response.statusCode() + " to " + path + ": " + response.body());
    }
    return Json.parse(response.body());
  }

  private static void waitOrFail(long deadline, String what) throws InterruptedException, IOException {
    if (System.nanoTime() > deadline) {
      throw new IOException("the viewer took over 10 minutes for " + what);
    }
    Thread.sleep(10);
  }

  private static double millisSince(long start) {
    return (System.nanoTime() - start) / 1e6;
  }
}
