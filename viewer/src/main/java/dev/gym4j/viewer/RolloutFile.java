package dev.gym4j.viewer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import dev.gym4j.json.Json;
import tools.jackson.databind.JsonNode;

/**
 * One rollouts file given on the command line, with its failures file and recorded aggregate metrics when they sit
 * beside it ({@code <stem>_failures.jsonl}, {@code <stem>_aggregate_metrics.json}, as {@code gym4j collect} and
 * NeMo Gym's {@code ng_collect_rollouts} write them).
 *
 * <p>The file is indexed by byte offset, never held in memory: {@link #follow()} reads it once, then keeps reading
 * what a running collection appends. A line that does not parse yet (a torn tail) is read again when it grows; one
 * that never parses is counted in {@link #skipped()}. Rows are only appended, so a reader sees a stable prefix.
 * Thread-safe: one indexing thread writes, any number of request threads read.
 */
final class RolloutFile {
  private static final int CHUNK = 1 << 20;

  private final int id;
  private final String name;
  private final Path path;
  private final Path failuresPath;
  private final Path metricsPath;
  private final Object lock = new Object();
  private volatile Row[] rows = new Row[1024];
  private volatile int size;
  private volatile long indexedBytes;
  private volatile long failureBytes;
  private volatile int skipped;
  private volatile boolean caughtUp;

  RolloutFile(int id, Path path) {
    this(id, path, path.toString());
  }

  /** {@code name}: how the page shows the file (the path as the command line gave it). */
  RolloutFile(int id, Path path, String name) {
    this.id = id;
    this.path = path.toAbsolutePath().normalize();
    this.name = name;
    String stem = this.path.getFileName().toString().replaceFirst("\\.jsonl?$", "");
    this.failuresPath = this.path.resolveSibling(stem + "_failures.jsonl");
    this.metricsPath = this.path.resolveSibling(stem + "_aggregate_metrics.json");
  }

  int id() {
    return id;
  }

  String name() {
    return name;
  }

  /** The rows indexed so far (a snapshot; later appends are not in it). */
  List<Row> rows() {
    int n = size;
    return Arrays.asList(rows).subList(0, n);
  }

  int skipped() {
    return skipped;
  }

  boolean caughtUp() {
    return caughtUp;
  }

  long indexedBytes() {
    return indexedBytes + failureBytes;
  }

  long bytes() {
    return sizeOf(path) + sizeOf(failuresPath);
  }

  /** The aggregate metrics file written beside the rollouts, or null. */
  JsonNode recordedMetrics() {
    try {
      return Files.isRegularFile(metricsPath) ? Json.parse(Files.readAllBytes(metricsPath)) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The bytes of one indexed row, read from disk. */
  byte[] read(Row row) throws IOException {
    try (FileChannel channel = FileChannel.open(row.failures() ? failuresPath : path, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate(row.length());
      while (buffer.hasRemaining() && channel.read(buffer, row.offset() + buffer.position()) > 0) {
        // reads until the row is whole
      }
      return buffer.array();
    }
  }

  /** Indexes what the files hold now; returns whether anything new was indexed. */
  boolean indexOnce() throws IOException {
    long before = indexedBytes + failureBytes;
    indexedBytes = scan(path, false, indexedBytes);
    if (Files.isRegularFile(failuresPath)) {
      failureBytes = scan(failuresPath, true, failureBytes);
    }
    caughtUp = true;
    return indexedBytes + failureBytes != before;
  }

  /** Indexes the files, then polls them for appended rows until the thread is interrupted. */
  void follow() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        indexOnce();
        Thread.sleep(500);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      System.err.println("view: cannot read " + name + ": " + e.getMessage());
    }
  }

  /** Reads complete lines from {@code from}; returns the offset after the last line indexed. */
  private long scan(Path file, boolean failures, long from) throws IOException {
    if (!Files.isRegularFile(file) || sizeOf(file) <= from) {
      return from;
    }
    long position = from;
    long lineStart = from;
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
      int read;
      while ((read = channel.read(buffer, position)) > 0) {
        byte[] bytes = buffer.array();
        int start = 0;
        for (int i = 0; i < read; i++) {
          if (bytes[i] == '\n') {
            line.write(bytes, start, i - start);
            add(failures, lineStart, line.toByteArray(), true);
            line.reset();
            start = i + 1;
            lineStart = position + i + 1;
          }
        }
        line.write(bytes, start, read - start);
        position += read;
        buffer.clear();
      }
    }
    // the last line has no newline yet: indexed only when whole (a collection may be writing it)
    if (line.size() > 0 && add(failures, lineStart, line.toByteArray(), false)) {
      return position;
    }
    return lineStart;
  }

  /** Adds one line; false when it is not (yet) a JSON object. */
  private boolean add(boolean failures, long offset, byte[] line, boolean complete) {
    if (isBlank(line)) {
      return true;
    }
    JsonNode node;
    try {
      node = Json.parse(line);
    } catch (RuntimeException e) {
      node = null;
    }
    if (node == null || !node.isObject()) {
      if (complete) {
        skipped++;
      }
      return false;
    }
    synchronized (lock) {
      Row[] current = rows;
      if (size == current.length) {
        current = Arrays.copyOf(current, current.length * 2);
        rows = current;
      }
      current[size] = RowReader.read(size, failures, offset, line.length, node);
      size++;
    }
    return true;
  }

  private static boolean isBlank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  private static long sizeOf(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0;
    }
  }
}
