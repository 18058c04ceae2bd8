package dev.gym4j.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** The gym4j command run in-process with what it prints captured. */
final class CapturedCommand {
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  int run(String... args) {
    CommandLine commandLine = Main.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  String out() {
    return out.toString();
  }

  String err() {
    return err.toString();
  }
}
