package dev.gym4j.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.gym4j.config.ConfigException;

/**
 * The right to write one collection's files (the output and everything named after it: failures, materialized
 * inputs, metrics) for a whole run: an exclusive lock on {@code <output>.lock}, an empty file left beside the output.
 * A second collector on the same output, in another process or in this one, is refused at once with one line, before
 * it reads or writes anything; two collectors appending to one file wrote the same rollouts twice (issue 31).
 *
 * <p>A file of its own, not the output: a process's lock on a file is dropped when the process closes any channel of
 * that file (POSIX), and the collector opens and closes the output many times. The lock file is never deleted, since
 * deleting it would let a waiting collector lock a file nobody else can see. Collectors of this JVM are also told
 * apart here, before the lock file is opened, for the same reason. The lock ends with the process, however it ends.
 */
final class OutputLock implements AutoCloseable {
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path output;
  private final FileChannel channel;
  private final FileLock lock;

  private OutputLock(Path output, FileChannel channel, FileLock lock) {
    this.output = output;
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock of {@code output}'s files; a {@link ConfigException} naming the output when a collector holds it. */
  static OutputLock acquire(Path output) {
    Path absolute = output.toAbsolutePath().normalize();
    Path file = absolute.resolveSibling(absolute.getFileName() + ".lock");
    if (!HELD.add(absolute)) {
      throw busy(output, file);
    }
    try {
      Files.createDirectories(absolute.getParent());
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException | IOException e) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        throw busy(output, file);
      }
      return new OutputLock(absolute, channel, lock);
    } catch (IOException e) {
      HELD.remove(absolute);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      HELD.remove(absolute);
      throw e;
    }
  }

  private static ConfigException busy(Path output, Path file) {
    return new ConfigException("another collector is writing " + output + " (it holds " + file.getFileName()
        + "); wait for it to finish, or give another --output");
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      HELD.remove(output);
    }
  }
}
