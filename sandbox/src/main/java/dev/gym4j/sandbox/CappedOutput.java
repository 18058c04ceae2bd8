package dev.gym4j.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads one output stream of a run on its own thread and keeps at most {@code cap} bytes. One byte more calls
 * {@code overflow} (which ends the run) and the rest is read and dropped until the stream closes.
 */
final class CappedOutput implements Runnable {
  private final InputStream in;
  private final int cap;
  private final Runnable overflow;
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private volatile boolean cut;

  CappedOutput(InputStream in, int cap, Runnable overflow) {
    this.in = in;
    this.cap = cap;
    this.overflow = overflow;
  }

  @Override
  public void run() {
    byte[] buffer = new byte[16384];
    try (in) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        keep(buffer, n);
      }
    } catch (IOException e) {
      // the process was killed and its pipe closed under us: what we have is what there is
    }
  }

  /** Keeps {@code n} bytes of {@code bytes} while there is room; false once the output was cut. */
  boolean keep(byte[] bytes, int n) {
    synchronized (kept) {
      int room = cap - kept.size();
      if (n <= room) {
        kept.write(bytes, 0, n);
        return true;
      }
      kept.write(bytes, 0, Math.max(room, 0));
    }
    if (!cut) {
      cut = true;
      overflow.run();
    }
    return false;
  }

  boolean cut() {
    return cut;
  }

  String text() {
    String text;
    synchronized (kept) {
      text = kept.toString(StandardCharsets.UTF_8);
    }
    return cut ? text + ExecutionResult.CUT_MARK : text;
  }
}
