package dev.gym4j.collect;

/**
 * A process that holds the output lock of {@code args[0]} until its standard input closes: the other collector of
 * {@link OutputLockTest}, in a JVM of its own.
 */
public final class OutputLockHolder {
  private OutputLockHolder() {}

  public static void main(String[] args) throws Exception {
    try (OutputLock lock = OutputLock.acquire(java.nio.file.Path.of(args[0]))) {
      System.out.println("locked");
      System.out.flush();
      System.in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }
}
