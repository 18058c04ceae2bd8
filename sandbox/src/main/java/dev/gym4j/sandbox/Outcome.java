package dev.gym4j.sandbox;

import java.util.Locale;

/** How a sandboxed run ended. Only {@link #EXITED} means the program ended by itself. */
public enum Outcome {
  /** The program exited by itself; see the exit status. */
  EXITED,
  /** A signal ended it that no limit explains. */
  SIGNALED,
  /** The wall-clock deadline passed; the whole tree was killed. */
  TIMEOUT,
  /** The CPU-time limit was reached. */
  CPU_TIME,
  /** The program ran out of its address space. */
  MEMORY,
  /** It wrote more standard output or error than is kept; the whole tree was killed. */
  OUTPUT_LIMIT,
  /** It tried to write a file larger than allowed. */
  FILE_SIZE;

  /** The name in JSON and in metrics: {@code timeout}, {@code memory}, {@code output_limit}, … */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean limitReached() {
    return this != EXITED && this != SIGNALED;
  }
}
