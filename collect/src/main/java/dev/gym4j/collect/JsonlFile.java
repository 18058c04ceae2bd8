package dev.gym4j.collect;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import dev.gym4j.config.ConfigException;
import dev.gym4j.json.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * JSONL files that survive a kill at any moment: rows are appended whole and flushed one at a time, a
 * torn last line (the process died inside a write) is cut off before appending again, and whole files are
 * replaced atomically.
 */
final class JsonlFile {
  private JsonlFile() {}

  /**
   * The rows of a file; a last line without its newline was torn by a crash and is not a row. A line in the
   * middle that is not a JSON object was damaged by something else: that is reported by file and line, since
   * dropping it would silently lose or rerun a rollout.
   */
  static List<JsonNode> readComplete(Path file) {
    if (!Files.exists(file)) {
      return List.of();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JsonNode> rows = new ArrayList<>();
    int start = 0;
    int number = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        number++;
        String line = new String(bytes, start, i - start, StandardCharsets.UTF_8);
        if (!line.isBlank()) {
          rows.add(parse(file, number, line));
        }
        start = i + 1;
      }
    }
    return rows;
  }

  private static JsonNode parse(Path file, int number, String line) {
    try {
      JsonNode row = Json.parse(line);
      if (row.isObject()) {
        return row;
      }
    } catch (JacksonException e) {
      // reported below, without the parser's wording, which names Java types
    }
    throw new ConfigException(file + " line " + number + " is not a JSON object (the file was damaged); fix or "
        + "delete that line and run again");
  }

  /** Cuts a torn last line off, so appending starts on a fresh line. */
  static void dropTornTail(Path file) {
    if (!Files.exists(file)) {
      return;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = channel.size();
      long end = size;
      java.nio.ByteBuffer one = java.nio.ByteBuffer.allocate(1);
      while (end > 0) {
        one.clear();
        channel.read(one, end - 1);
        if (one.get(0) == '\n') {
          break;
        }
        end--;
      }
      if (end < size) {
        channel.truncate(end);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a whole file through a temporary one and a rename, so it is never seen half written. */
  static void writeAtomically(Path file, List<? extends JsonNode> rows) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
      try (OutputStream out = Files.newOutputStream(temporary)) {
        for (JsonNode row : rows) {
          out.write(Json.writeBytes(row));
          out.write('\n');
        }
      }
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An append-only JSONL writer shared by all rollouts: one line per call, flushed at once. */
  static final class Appender implements AutoCloseable {
    private final OutputStream out;

    Appender(Path file) {
      try {
        Files.createDirectories(file.toAbsolutePath().getParent());
        dropTornTail(file);
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    synchronized void append(JsonNode row) {
      byte[] line = Json.writeBytes(row);
      byte[] withNewline = java.util.Arrays.copyOf(line, line.length + 1);
      withNewline[line.length] = '\n';
      try {
        out.write(withNewline);
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public synchronized void close() {
      try {
        out.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
