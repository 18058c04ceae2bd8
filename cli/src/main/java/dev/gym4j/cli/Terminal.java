package dev.gym4j.cli;

/** Whether a person is watching: progress bars are redrawn in place only on an interactive terminal. */
final class Terminal {
  private Terminal() {}

  static boolean isInteractive() {
    // since JDK 22 System.console() exists even when output goes to a file or pipe; isTerminal() tells
    return System.console() != null && System.console().isTerminal();
  }
}
